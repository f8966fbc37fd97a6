// Large binary results as MCP resource links (docs/tools.md, "Results as resource links"): a screenshot or a downloaded
// file a tool answered with a `resource_link` instead of inline base64, kept per client connection, bounded in count,
// bytes and lifetime, and read back with `resources/read` under the same consent as the original. The server side
// (registering `resources/read`) is in server.ts; tools ask for a link through their context (context.ts).
// https://modelcontextprotocol.io/specification/2025-06-18/server/tools#resource-links
import { randomBytes } from 'node:crypto';
import type { Hub } from '../hub/hub.js';
import { orielError } from '../../shared/errors.js';
import { readDownloadBytes } from './download-read.js';
import { mayReadOrigin } from './read-grant.js';

/** The URI template of every result link: `oriel://result/<22 base64url characters: 128 random bits>`. */
export const RESULT_URI_TEMPLATE = 'oriel://result/{key}';
const RESULT_URI = /^oriel:\/\/result\/([\w-]{22})$/;
/** How long a link can be read after the call that made it, ms (reading does not extend it). */
export const RESULT_TTL_MS = 10 * 60_000;
/** Most links one client connection holds; past it, its oldest goes. */
export const MAX_RESULTS_PER_CLIENT = 32;
/** Most links the hub holds for all clients together; past it, the oldest goes. */
export const MAX_RESULTS = 256;
/** Most bytes the hub holds for links (screenshots; a downloaded file stays on disk), all clients together. */
export const MAX_HELD_BYTES = 64 * 1024 * 1024;
/**
 * Largest file one link serves, bytes: its base64 `blob` (4/3 of it) with the JSON-RPC envelope stays under the 8 MiB
 * Oriel's own lines allow, and so under the official SDKs' 10 MiB stdio read buffer.
 */
export const MAX_BLOB_BYTES = 6 * 1024 * 1024;
/** The first MCP revision with `resource_link` content in tool results. */
export const FIRST_LINK_REVISION = '2025-06-18';

/** Who may read a link: the client connection that made it (2025 eras, stdio), or `http` for 2026-07-28 HTTP exchanges. */
export type LinkOwner = string;

/** What a tool asks to keep: bytes it holds (a screenshot), or a finished download read from disk when asked for. */
export type LinkRequest =
  | { kind: 'bytes'; name: string; mimeType: string; data: Buffer; description?: string }
  | { kind: 'download'; id: string; description?: string };

/** A `resource_link` content block (MCP 2025-06-18, "ResourceLink"): what the tool result carries. */
export interface ResultLink {
  uri: string;
  name: string;
  mimeType: string;
  /** Bytes of the resource as read (before base64). */
  size: number;
  description?: string;
}

/** The calling connection's facts a link needs: who owns it, and the protocol revision the call came in. */
export interface LinkScope {
  owner: LinkOwner;
  /** The negotiated revision (2025 eras) or the request's own (2026-07-28); undefined when unknown. */
  revision: string | undefined;
}

interface Entry extends ResultLink {
  owner: LinkOwner;
  expires: number;
  /** Whose consent reading it needs: the session it came from and the origin that session showed. */
  session: string;
  origin: string;
  source: { kind: 'bytes'; data: Buffer } | { kind: 'download'; id: string };
}

/** Whether `revision` (a `YYYY-MM-DD` MCP revision) has resource links: 2025-06-18 and later. */
export function supportsLinks(revision: string | undefined): boolean {
  return revision !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(revision) && revision >= FIRST_LINK_REVISION;
}

/** The links the hub holds, oldest first; bounded by {@link MAX_RESULTS_PER_CLIENT}, {@link MAX_RESULTS}, {@link MAX_HELD_BYTES}, {@link RESULT_TTL_MS}. */
export class ResultLinks {
  private readonly entries = new Map<string, Entry>();
  private held = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** How many links are held, and their bytes in memory. */
  get size(): { count: number; bytes: number } {
    this.sweep();
    return { count: this.entries.size, bytes: this.held };
  }

  /** Keeps `entry` for `owner` and returns its link, dropping the oldest links past the bounds. */
  add(owner: LinkOwner, entry: Omit<Entry, 'uri' | 'owner' | 'expires'>): ResultLink {
    this.sweep();
    const uri = `oriel://result/${randomBytes(16).toString('base64url')}`;
    const bytes = entry.source.kind === 'bytes' ? entry.source.data.byteLength : 0;
    this.entries.set(uri, { ...entry, uri, owner, expires: this.now() + RESULT_TTL_MS });
    this.held += bytes;
    const mine = [...this.entries.values()].filter((e) => e.owner === owner);
    for (const e of mine.slice(0, Math.max(0, mine.length - MAX_RESULTS_PER_CLIENT))) this.drop(e.uri);
    for (const e of this.entries.values()) {
      if (this.entries.size <= MAX_RESULTS && this.held <= MAX_HELD_BYTES) break;
      if (e.uri !== uri) this.drop(e.uri);
    }
    const { name, mimeType, size, description } = entry;
    return { uri, name, mimeType, size, ...(description !== undefined && { description }) };
  }

  /**
   * The entry `uri` names, if `owner` made it and it has not expired. Another client's link is answered exactly as
   * an unknown one, so a client cannot learn that it exists.
   * @throws OrielError `invalid_argument` (`details.reason: "unknown_resource"`).
   */
  get(owner: LinkOwner, uri: string): Entry {
    this.sweep();
    const entry = RESULT_URI.test(uri) ? this.entries.get(uri) : undefined;
    if (!entry || entry.owner !== owner) {
      throw orielError('invalid_argument', `No result ${JSON.stringify(uri.slice(0, 80))} for this client: links last ${RESULT_TTL_MS / 60_000} minutes, only the connection that made one can read it, and the oldest go first past ${MAX_RESULTS_PER_CLIENT} per connection.`, {
        next: 'call the tool again (screenshot, downloads) for a new link',
        details: { reason: 'unknown_resource' },
      });
    }
    return entry;
  }

  /** Forgets every link of `owner` (its connection ended). */
  dropOwner(owner: LinkOwner): void {
    for (const e of [...this.entries.values()]) if (e.owner === owner) this.drop(e.uri);
  }

  private drop(uri: string): void {
    const e = this.entries.get(uri);
    if (!e) return;
    if (e.source.kind === 'bytes') this.held -= e.source.data.byteLength;
    this.entries.delete(uri);
  }

  private sweep(): void {
    const now = this.now();
    for (const e of [...this.entries.values()]) if (e.expires <= now) this.drop(e.uri);
  }
}

const linksByHub = new WeakMap<Hub, ResultLinks>();

/** The hub's links; a connection's links go when it leaves (`client_gone`). */
export function resultLinksOf(hub: Hub): ResultLinks {
  let links = linksByHub.get(hub);
  if (!links) {
    const made = (links = new ResultLinks());
    linksByHub.set(hub, made);
    hub.events.on('client_gone', (caller) => made.dropOwner(caller.id));
  }
  return links;
}

/**
 * Keeps a tool's binary result for `scope.owner` and returns its link. `session` is the call's session: a result is
 * read later under read consent on the origin it shows now (a download: the origin it came from).
 * @throws OrielError `unsupported` (the client's protocol revision has no resource links), `too_large` (a file over
 *   {@link MAX_BLOB_BYTES}), and for a download those of {@link readDownloadBytes} and {@link mayReadOrigin}.
 */
export async function linkResult(hub: Hub, scope: LinkScope, request: LinkRequest, session: () => { id: string; origin: string }): Promise<ResultLink> {
  if (!supportsLinks(scope.revision)) {
    throw orielError('unsupported', `This client speaks MCP ${scope.revision ?? '(unknown revision)'}, which has no resource links (${FIRST_LINK_REVISION} and later do).`, { next: 'call again without as: "link" for the result inline' });
  }
  const links = resultLinksOf(hub);
  const description = request.description;
  if (request.kind === 'bytes') {
    if (request.data.byteLength > MAX_BLOB_BYTES) throw orielError('too_large', `The result is over ${MAX_BLOB_BYTES / 1024 / 1024} MiB, the most one link serves.`);
    const at = session();
    return links.add(scope.owner, { name: request.name, mimeType: request.mimeType, size: request.data.byteLength, ...(description !== undefined && { description }), session: at.id, origin: at.origin, source: { kind: 'bytes', data: request.data } });
  }
  const record = await hub.downloads.settled(request.id, 0);
  mayReadOrigin(hub, record.session, record.info.origin, 'this file');
  const size = (await readDownloadBytes(record.info, MAX_BLOB_BYTES)).byteLength;
  return links.add(scope.owner, { name: record.info.file, mimeType: blobType(record.info.mime), size, ...(description !== undefined && { description }), session: record.session, origin: record.info.origin, source: { kind: 'download', id: record.id } });
}

/** A MIME type fit for `mimeType` in resource contents: the essence of a well-formed type, else octet-stream. */
function blobType(mime: string): string {
  const essence = mime.split(';')[0]!.trim().toLowerCase();
  return /^[\w.+-]+\/[\w.+-]+$/.test(essence) ? essence : 'application/octet-stream';
}

/** One `resources/read` content: the bytes as base64 `blob` (MCP "BlobResourceContents"). */
export interface BlobContents {
  uri: string;
  mimeType: string;
  blob: string;
}

/**
 * Reads link `uri` for `owner`, checking consent as the original call did: the session it came from is still shared,
 * connected, shows the same origin and may be read there (a download: reading it is reading its origin).
 * @throws OrielError `invalid_argument` (unknown, expired or another client's link; a file gone), `permission_denied`,
 *   `too_large`.
 */
export async function readResult(hub: Hub, owner: LinkOwner, uri: string): Promise<BlobContents> {
  const entry = resultLinksOf(hub).get(owner, uri);
  if (entry.source.kind === 'bytes') {
    mayReadOrigin(hub, entry.session, entry.origin, 'this result');
    return { uri, mimeType: entry.mimeType, blob: entry.source.data.toString('base64') };
  }
  const record = await hub.downloads.settled(entry.source.id, 0);
  mayReadOrigin(hub, record.session, record.info.origin, 'this file');
  const data = await readDownloadBytes(record.info, MAX_BLOB_BYTES);
  return { uri, mimeType: entry.mimeType, blob: data.toString('base64') };
}
