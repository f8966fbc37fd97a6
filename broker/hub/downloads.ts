// The downloads agents' actions started, as each browser reports them (`download` events), newest kept, bounded; waiters
// learn when one finishes. Browser side: extension/background/downloads.ts; read by broker/mcp/tools/downloads.ts.
import { EventEmitter } from 'node:events';
import { orielError } from '../../shared/errors.js';
import { shownDownloadUrl, type DownloadInfo, type DownloadView } from '../../shared/downloads.js';
import { sessionId } from './sessions.js';

/** Most downloads the hub remembers in all; the oldest are forgotten first. */
export const MAX_DOWNLOADS = 500;

/** One download as the hub keeps it: the browser's facts, the browser instance and the session they belong to. */
export interface DownloadRecord {
  /** Id shown to agents: `<instance>-d<browser's id>`. */
  id: string;
  instance: string;
  session: string;
  info: DownloadInfo;
}

/** The view agents get of a record: no filesystem path. */
export function downloadView(r: DownloadRecord): DownloadView {
  const i = r.info;
  return {
    id: r.id,
    session: r.session,
    origin: i.origin,
    url: shownDownloadUrl(i.url),
    file: i.file,
    mime: i.mime,
    state: i.state,
    bytes: i.bytes,
    ...(i.total !== undefined && { total: i.total }),
    ...(i.folder !== undefined && { folder: i.folder }),
    ...(i.error !== undefined && { error: i.error }),
    started: new Date(i.started).toISOString(),
  };
}

export class DownloadStore {
  private readonly records = new Map<string, DownloadRecord>();
  private readonly changed = new EventEmitter();

  constructor() {
    this.changed.setMaxListeners(0);
  }

  /** Takes a `download` event from browser `instance`. */
  update(instance: string, info: DownloadInfo): void {
    const id = `${instance}-d${info.id}`;
    const before = this.records.get(id);
    const record: DownloadRecord = { id, instance, session: before?.session ?? sessionId(instance, info.tab), info };
    this.records.delete(id);
    this.records.set(id, record);
    while (this.records.size > MAX_DOWNLOADS) this.records.delete(this.records.keys().next().value!);
    this.changed.emit(id, record);
  }

  get(id: string): DownloadRecord | undefined {
    return this.records.get(id);
  }

  /** Every remembered download, oldest first. */
  all(): DownloadRecord[] {
    return [...this.records.values()];
  }

  /**
   * Waits until download `id` is no longer in progress, at most `ms`.
   * @returns the record as it is then (still `in_progress` when the time ran out).
   * @throws OrielError `invalid_argument` (no such download), `cancelled` (on `signal`).
   */
  async settled(id: string, ms: number, signal?: AbortSignal): Promise<DownloadRecord> {
    const now = this.records.get(id);
    if (!now) throw orielError('invalid_argument', `No download ${JSON.stringify(id.slice(0, 60))} (downloads lists them).`, { next: 'downloads' });
    if (now.info.state !== 'in_progress' || ms <= 0) return now;
    return new Promise((resolve, reject) => {
      const done = (r: DownloadRecord) => {
        if (r.info.state === 'in_progress') return;
        finish();
        resolve(r);
      };
      const timer = setTimeout(() => (finish(), resolve(this.records.get(id) ?? now)), ms);
      const onAbort = () => (finish(), reject(orielError('cancelled', 'The wait was cancelled.')));
      const finish = () => {
        clearTimeout(timer);
        this.changed.off(id, done);
        signal?.removeEventListener('abort', onAbort);
      };
      this.changed.on(id, done);
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}
