// The exec audit log in storage.local (survives restarts, newest 1,000 entries): appended by the consent stage and the
// pipeline, read by the options page through the background. Entry shape: ../consent/audit.ts.
import { AuditEntrySchema, appendBounded, type AuditEntry } from '../consent/audit.js';

const KEY = 'execAudit';
let writing: Promise<unknown> = Promise.resolve();
const listeners = new Set<() => void>();

/** Calls `listener` after each new entry. */
export function onAudited(listener: () => void): void {
  listeners.add(listener);
}

/** The entries, oldest first (damaged entries are skipped). */
export async function readAudit(): Promise<AuditEntry[]> {
  const stored = (await chrome.storage.local.get(KEY))[KEY];
  if (!Array.isArray(stored)) return [];
  return stored.flatMap((e) => {
    const parsed = AuditEntrySchema.safeParse(e);
    return parsed.success ? [parsed.data] : [];
  });
}

/** Appends one entry; writes run one after another so none is lost. Never throws (an audit failure is logged). */
export function audit(entry: AuditEntry): Promise<void> {
  const write = async () => {
    await chrome.storage.local.set({ [KEY]: appendBounded(await readAudit(), entry) });
    for (const l of listeners) l();
  };
  const next = writing.then(write, write).catch((err: unknown) => console.warn('[oriel] could not write the audit log', err));
  writing = next;
  return next;
}

/** SHA-256 of a string, hex (https://w3c.github.io/webcrypto/#SubtleCrypto-method-digest). */
export async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
