// The hub's session table: every shared tab of every connected browser, the session-omission rule (docs/architecture.md, "Sessions"), and
// ended sessions remembered so late calls get `session_gone` rather than `no_session`.
import { errorData, OrielError } from '../../shared/errors.js';
import { WITHHELD_NOTE, type TabInfo } from '../../shared/protocol.js';
import { quote, quoteCapped } from '../../shared/snapshot/escape.js';

/** One session: a shared tab of one browser instance. */
export interface Session {
  /** `<browser instance>-<tab id>`, unique across browsers and stable across background restarts. */
  id: string;
  instance: string;
  tab: number;
  browser: string;
  info: TabInfo;
  /** False while the browser is disconnected (kept for {@link RECONNECT_GRACE_MS}). */
  connected: boolean;
}

/** How long a disconnected browser's sessions keep their ids waiting for it to come back (docs/architecture.md, "Ordering and leases"), ms. */
export const RECONNECT_GRACE_MS = 30_000;
/** How many ended session ids are remembered for `session_gone` answers. */
const ENDED_MEMORY = 1000;
/** Why a session ended when its browser said the tab is no longer shared. */
export const ENDED_BY_USER = 'the user unshared or closed the tab';
/** Why a session ended when its browser left and did not come back. */
export const ENDED_WITH_BROWSER = `its browser disconnected and did not come back within ${RECONNECT_GRACE_MS / 1000} s (it was closed, or crashed): ask the user to open it again; its shared tabs come back as new sessions`;
/** The answer when a connected browser shares no tab. */
export const NO_TAB_SHARED = 'No tab is shared. Ask the user to open the Oriel popup on a tab and turn on "Share this tab".';

/** The origin of `url` (scheme, host, port), or "null" when it has none. */
function originOfUrl(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'null';
  }
}

export function sessionId(instance: string, tab: number): string {
  return `${instance}-${tab}`;
}

export class SessionTable {
  private readonly sessions = new Map<string, Session>();
  /** Ended session ids, with why each ended ({@link ENDED_BY_USER}, {@link ENDED_WITH_BROWSER}). */
  private readonly ended = new Map<string, string>();
  /** Called with the ids of sessions that just ended and why, in words (to fail their pending calls). */
  onEnded: (ids: string[], why: string) => void = () => {};
  /** What to tell an agent when no tab is shared: the hub fills in whether a browser is connected at all. */
  noSessionText: () => string = () => NO_TAB_SHARED;
  /**
   * Why an id the table does not hold may still come (the hub just started, a browser is reconnecting), or undefined
   * when it will not; the hub fills it in.
   */
  unknownSessionText: (id: string) => string | undefined = () => undefined;

  all(): Session[] {
    return [...this.sessions.values()];
  }

  get(id: string): Session | undefined {
    return this.sessions.get(id);
  }

  /**
   * Replaces the tab list of one browser instance. Tabs no longer listed end (unshared or closed). A tab listed
   * without a document keeps the one its `document` event named: the browser resends the list on every title or
   * load-state change, and those lists do not carry documents.
   * @returns ids of sessions that ended.
   */
  setTabs(instance: string, browser: string, tabs: TabInfo[]): string[] {
    const seen = new Set<string>();
    for (const listed of tabs) {
      const id = sessionId(instance, listed.tab);
      seen.add(id);
      this.ended.delete(id);
      const known = this.sessions.get(id)?.info.document;
      const info = listed.document === undefined && known !== undefined ? { ...listed, document: known } : listed;
      this.sessions.set(id, { id, instance, tab: listed.tab, browser, info, connected: true });
    }
    const gone: string[] = [];
    for (const s of this.sessions.values()) if (s.instance === instance && !seen.has(s.id)) gone.push(s.id);
    this.end(gone, ENDED_BY_USER);
    return gone;
  }

  /** Marks every session of `instance` disconnected (they keep their ids until {@link endInstance}). */
  disconnect(instance: string): void {
    for (const s of this.sessions.values()) if (s.instance === instance) s.connected = false;
  }

  /** Ends every still-disconnected session of `instance` (the grace period passed). */
  endInstance(instance: string): void {
    this.end(
      [...this.sessions.values()].filter((s) => s.instance === instance && !s.connected).map((s) => s.id),
      ENDED_WITH_BROWSER,
    );
  }

  /**
   * Updates a session's top document id and URL (`withheld`: the browser sent the origin alone, see {@link TabInfo}).
   * A document of another origin also drops the title and grants held so far: they were the old origin's, and the
   * browser's next tab list brings the new origin's.
   * @returns the session as updated, if there is one.
   */
  setDocument(instance: string, tab: number, document: string, url: string, withheld = false): Session | undefined {
    const s = this.sessions.get(sessionId(instance, tab));
    if (!s) return undefined;
    const origin = originOfUrl(url);
    if (!withheld && origin === s.info.origin) s.info = { ...s.info, document, url };
    else {
      const { grants: _old, withheld: _was, ...rest } = s.info;
      s.info = { ...rest, document, url, origin, title: '', ...(withheld && { withheld: true }) };
    }
    return s;
  }

  private end(ids: string[], why: string): void {
    if (ids.length === 0) return;
    for (const id of ids) {
      this.sessions.delete(id);
      this.ended.delete(id);
      this.ended.set(id, why);
    }
    while (this.ended.size > ENDED_MEMORY) this.ended.delete(this.ended.keys().next().value as string);
    this.onEnded(ids, why);
  }

  /**
   * Applies the session rule of docs/architecture.md, "Sessions": an explicit id must exist; an omitted one is allowed only when exactly one session exists.
   * @throws OrielError `no_session`, `ambiguous_session` (naming every session), `session_gone`.
   */
  resolve(id: string | undefined): Session {
    if (id !== undefined) {
      const s = this.sessions.get(id);
      if (s) return s;
      const why = this.ended.get(id);
      if (why !== undefined) throw new OrielError(errorData('session_gone', `Session ${id} has ended: ${why}.`));
      const pending = this.unknownSessionText(id);
      const text = pending !== undefined ? `There is no session ${quoteCapped(id, 100)} yet: ${pending}` : `There is no session ${quoteCapped(id, 100)}. ${this.describeAll()}`;
      throw new OrielError(errorData('no_session', text, { next: 'list_sessions', details: { sessions: this.summaries() } }));
    }
    const all = this.all();
    if (all.length === 1) return all[0]!;
    if (all.length === 0) throw new OrielError(errorData('no_session', this.noSessionText()));
    throw new OrielError(
      errorData('ambiguous_session', `Several tabs are shared; pass "session". ${this.describeAll()}`, { details: { sessions: this.summaries() } }),
    );
  }

  private summaries() {
    return this.all().map((s) => ({ id: s.id, title: s.info.title, origin: s.info.origin, ...(s.info.withheld && { withheld: true }) }));
  }

  private describeAll(): string {
    const list = this.summaries();
    if (list.length === 0) return this.noSessionText();
    // Titles are page content: quoted and escaped (the outline's escaper) so they can neither pass for anything else
    // nor reorder the text around them.
    // A session on an origin nobody granted read: its id and origin only (the browser sent no title).
    const one = (s: (typeof list)[number]) => (s.withheld ? `${s.id} (${quote(s.origin)}, ${WITHHELD_NOTE})` : `${s.id} ${quoteCapped(s.title, 80)} (${quote(s.origin)})`);
    return 'Sessions: ' + list.map(one).join('; ') + '.';
  }
}
