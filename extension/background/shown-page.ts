// What an agent may see of the page a shared tab shows: its title and URL only where read is granted on the tab's top
// origin now; elsewhere the origin alone, so a site nobody allowed never reaches an agent (docs/architecture.md, "Sessions").
import { originOf } from '../consent/rules.js';
import { judge } from './grants.js';
import { scrubTabUrl } from './secret-params.js';

/** A page as agents are shown it. `withheld`: no read grant on its origin; `title` is empty and `url` the origin. */
export interface ShownPage {
  url: string;
  title: string;
  origin: string;
  withheld: boolean;
}

/** Longest title and URL passed on, characters (the wire's bounds: shared/protocol.ts TabInfoSchema). */
const MAX_TITLE = 2000;
const MAX_URL = 8192;

/**
 * The page `tab` shows at `url` titled `title`, as agents may see it: with its title and scrubbed URL (no values of
 * secret query parameters: ./secret-params.ts) when read on its top origin is allowed without asking, else the origin
 * alone and no title. A remembered denial of read withholds as well.
 */
export async function shownPage(tab: number, url: string, title: string): Promise<ShownPage> {
  const origin = originOf(url);
  const readable = (await judge({ capability: 'read', origin, tab, top: true })).kind === 'allow';
  if (!readable) return { url: origin.slice(0, MAX_URL), title: '', origin, withheld: true };
  return { url: (await scrubTabUrl(tab, url)).slice(0, MAX_URL), title: title.slice(0, MAX_TITLE), origin, withheld: false };
}
