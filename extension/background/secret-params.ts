// Which query parameters of a tab's URLs hold secrets: the names of secret fields the tab's forms submitted, as its
// content scripts report them (extension/content/form-watch.ts). Every URL Oriel shows for the tab is scrubbed with
// them (shared/url-redaction.ts). Kept in storage.session, so a service-worker restart keeps them; a closed tab's go.
import { browserSessionReady } from './session-mirror.js';
import { MAX_SECRET_PARAMS, scrubUrl } from '../../shared/url-redaction.js';

const KEY = 'secretParams';

let cache: Map<number, string[]> | undefined;
/** Serialises read-modify-write of the stored map. */
let queue: Promise<unknown> = Promise.resolve();

async function load(): Promise<Map<number, string[]>> {
  if (cache) return cache;
  await browserSessionReady();
  const stored = (await chrome.storage.session.get(KEY))[KEY] as Record<string, unknown> | undefined;
  const map = new Map<number, string[]>();
  for (const [tab, names] of Object.entries(stored ?? {})) {
    if (Array.isArray(names)) map.set(Number(tab), names.filter((n): n is string => typeof n === 'string'));
  }
  return (cache ??= map);
}

function save(map: Map<number, string[]>): Promise<void> {
  return chrome.storage.session.set({ [KEY]: Object.fromEntries(map) });
}

/** Adds `names` to the tab's secret parameters (the newest {@link MAX_SECRET_PARAMS} are kept). */
export function addSecretParams(tab: number, names: readonly string[]): Promise<void> {
  const next = queue.then(async () => {
    const map = await load();
    const set = new Set(map.get(tab) ?? []);
    for (const n of names) {
      set.delete(n);
      set.add(n);
    }
    map.set(tab, [...set].slice(-MAX_SECRET_PARAMS));
    await save(map);
  });
  queue = next.catch(() => undefined);
  return next;
}

/** Forgets a closed tab's parameters. */
export function forgetSecretParams(tab: number): void {
  queue = queue
    .then(async () => {
      const map = await load();
      if (map.delete(tab)) await save(map);
    })
    .catch(() => undefined);
}

/** The tab's secret parameter names (empty when its forms submitted none). */
export async function secretParams(tab: number): Promise<string[]> {
  await queue;
  return (await load()).get(tab) ?? [];
}

/** `url` as Oriel may show it for `tab`: values of the tab's secret parameters removed. */
export async function scrubTabUrl(tab: number, url: string): Promise<string> {
  const names = await secretParams(tab);
  return names.length ? scrubUrl(url, names) : url;
}
