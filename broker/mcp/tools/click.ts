// click: one click on one element, with evidence of what happened. Page side: extension/content/actions/click.ts.
import { ClickArgs } from '../../../shared/ops.js';
import { escapeBare } from '../../../shared/snapshot/index.js';
import type { ToolDefinition } from './types.js';
import { defineTool, oneElement } from './define.js';
import { type } from './input.js';
import { navigate } from './navigate.js';
import { snapshot } from './snapshot.js';

export const click: ToolDefinition = defineTool({
  name: 'click',
  title: 'Click an element',
  description: () => `Clicks an element as a person would, once clickable; shows what changed. For fields use ${type.name}.`,
  usage: 'button left (default), middle or right; count 2 or 3 for a double or triple click; modifiers are held during it; x and y: a point in CSS px from its top-left (default the centre)',
  notes: () => [
    `Clicks one element in the shared tab, named by a handle from ${snapshot.name} (or a CSS selector matching exactly one element). Waits until it is visible, enabled, still and not covered, scrolls it into view, then clicks as a person would. Returns what happened: dispatched, trusted, navigation started, DOM changed. To fill a field use ${type.name}; to follow a URL use ${navigate.name}.`,
    '',
    '- **Buttons and counts.** Each of the `count` presses is `pointerdown`, `mousedown` (its `detail` the click\'s',
    '  number), for `button: "right"` then `contextmenu` (`detail` 0), and each release `pointerup`, `mouseup`, then `click`',
    '  (left) or `auxclick` (middle, right); the second left click adds `dblclick`',
    '  ([UI Events](https://w3c.github.io/uievents/#events-mouseevent-event-order)). Focus moves on the first press',
    '  the page does not cancel. `count` is 1 to 3. As a person\'s, a left double click selects the word under the',
    '  point and a triple click its paragraph (in a text field, the whole value), unless the page cancels the press.',
    '- **Modifiers** (`Alt`, `Control`, `Meta`, `Shift`) are held on every event of the click (`ctrlKey` …).',
    '- **A point inside the element**: `x` and `y` are CSS pixels from the top-left corner of its border box; either',
    '  may be given alone (the other axis stays at the centre). The point must be inside the box and in view, and',
    '  reach the element or something inside it (else `not_actionable`, naming the box size or what covers it).',
    '- **New tabs.** A person\'s middle click, or left click with Control, Meta or Shift, on a link opens it in a new',
    '  tab or window. Synthetic events cannot: when the page leaves such a click alone, Oriel keeps the tab where it',
    '  is, returns the link as `new_tab_url`, and — when the options let opened tabs be shared, for http(s) links —',
    '  opens it in a background tab beside this one, shared with this tab as its opener (`new_tab_session`). With',
    '  trusted input (Chromium) the browser opens the tab itself, and it is shared as any tab a shared tab opens.',
    '- **Popups.** A tab or window the page opens during the click (`window.open` in a handler, a link with a',
    '  `target`) is named in `opened_tabs`: its address (the origin alone where you may not read), `window: true` for a',
    '  window of its own, and its `session` when the options let opened tabs be shared. A popup the browser blocks is not',
    '  reported: browsers do not tell extensions. Synthetic clicks carry no user activation, so a popup blocker (on by',
    '  default in both browsers) blocks the `window.open` they cause, while links with a target still open; with trusted',
    '  input (Chromium) the click has user activation, as a person\'s has. When a click that should open a window opens',
    `  none, ${navigate.name} to its address if you know it, or ask the user.`,
    '- **Cells.** A row\'s cells are addressed as the row\'s handle, a colon and the cell\'s number from 1',
    '  (`q7k2mzr4.v:2`), as written on the row\'s line ([snapshot-format.md](snapshot-format.md)).',
    '- **When the result is read.** `dom_changed`, `navigation_started` and the changes are read after the page\'s',
    '  handlers, the microtasks they queued (how frameworks render after an event) and one more task (a form\'s',
    '  navigation is queued as one). What the page does later (timers, network answers) shows in the next snapshot.',
  ].join('\n'),
  input: ClickArgs,
  unlisted: ['dialog_policy'],
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  capability: 'act',
  acting: true,
  choose: [oneElement(() => snapshot)],
  async handler(args, ctx) {
    const value = await ctx.callPage('click', args);
    const effects = [value.navigation_started && 'navigation started', value.dom_changed && 'page changed'].filter(Boolean).join(', ') || 'no visible change';
    // A person's click of this kind opens the link in a new tab; Oriel's synthetic events cannot, and say so.
    const newTab = value.new_tab_session
      ? ` Opened ${escapeBare(value.new_tab_url ?? '')} in a new tab, shared as session ${value.new_tab_session}.`
      : value.new_tab_url
        ? ` A person's click would open ${escapeBare(value.new_tab_url)} in a new tab; Oriel opened none (sharing opened tabs is off, or not an http(s) link): ${navigate.name} there instead.`
        : '';
    // Tabs and windows the page opened (window.open, a link with a target): where, and how the agent reaches them.
    const opened = (value.opened_tabs ?? [])
      .map((o) => ` The page opened ${escapeBare(o.url)}${o.withheld ? ' (a site you may not read: its origin only)' : ''} in a new ${o.window ? 'window' : 'tab'}, ${o.session ? `shared as session ${o.session}` : 'not shared (sharing opened tabs is off in Oriel\'s options): the user can share it from Oriel\'s toolbar button'}.`)
      .join('');
    return { structured: value, text: `Clicked ${args.handle ?? value.handle ?? args.selector}${args.handle && value.handle && value.handle !== args.handle ? ` (it now shows something else, under the new handle ${value.handle})` : ''} (${value.trusted ? 'trusted' : 'synthetic'} input): ${effects}.${newTab}${opened}` };
  },
});
