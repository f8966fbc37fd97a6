// navigate: load a URL or move in history; every handle of the old document stops working.
import { NavigateArgs } from '../../../shared/ops.js';
import { escapeBare, quoteCapped } from '../../../shared/snapshot/escape.js';
import { WITHHELD_NOTE } from '../../../shared/protocol.js';
import { UNTRUSTED_LABEL } from '../../../shared/page-text.js';
import type { ToolDefinition } from './types.js';
import { defineTool, exactlyOne } from './define.js';
import { click } from './click.js';
import { dialogNote } from './dialogs.js';

export const navigate: ToolDefinition = defineTool({
  name: 'navigate',
  title: 'Load a URL or go back/forward/reload',
  description: () => `Loads a URL, goes back/forward, reloads or closes the tab; old handles stop working. To follow a link prefer ${click.name}.`,
  usage:
    'url, or action: back and forward move among the pages agents opened in this tab (not the browser history), close closes the tab; wait_until none returns at once. A page that asks before it is left ("Leave site?") is left only with dialog "accept"; "dismiss" stays',
  notes: () =>
    `Loads a URL in the shared tab, or goes back, forward or reloads, and waits for the page to load. Back and forward load again the previous or next page this tab showed since it was shared (from the page it was shared on: URLs loaded, links clicked, the page's own redirects and the user's navigation), not the browser history, which can skip pages opened without a user click. Every handle from the old page stops working: take a new snapshot afterwards. Returns the new document id. Refuses javascript: and browser-internal URLs. \`url\` is an absolute URL or a reference on the current site starting with \`/\`, \`?\`, \`#\`, \`./\` or \`../\`; anything else (\`example.com\`, \`localhost:3000\`, \`nav.html\`) fails with \`invalid_argument\` naming the absolute URL to give, rather than loading as a path below the current page. To activate a link on the page prefer ${click.name}. \`action: "close"\` closes the tab, which ends its session. Before it loads, reloads or closes, it asks the page whether it would ask before being left (its \`beforeunload\` handlers); if so it leaves only when the call (\`dialog\`) or the tab (\`dialog_policy\`) accepts, stays with \`stayed: true\` when either dismisses, and otherwise stays and fails with \`dialog_opened\` — never the browser's prompt.`,
  input: NavigateArgs,
  unlisted: ['dialog', 'dialog_text', 'dialog_policy'],
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  capability: 'act',
  choose: [exactlyOne(['url', 'action'])],
  async handler(args, ctx) {
    const value = await ctx.callPage('navigate', args);
    // A page sets its own title (any words, instructions too): labelled as page content, as list_sessions labels it.
    const where = value.withheld ? `${escapeBare(value.url)} (${WITHHELD_NOTE})` : `${escapeBare(value.url)} (its title, ${UNTRUSTED_LABEL} ${quoteCapped(value.title, 120)})`;
    if (value.stayed) return { structured: value, text: `The page asks before it is left ("Leave site?"), and the answer was to stay: still at ${where}${value.document ? `, doc=${value.document}` : ''}; nothing was loaded. To leave, navigate again with dialog: "accept".` };
    if (value.closed) return { structured: value, text: `Closed the tab that showed ${where}; its session has ended.${dialogNote(value.dialogs)}` };
    return { structured: value, text: `Now at ${where}${value.document ? `, doc=${value.document}` : ''}. Take a snapshot to see the page.${dialogNote(value.dialogs)}` };
  },
});
