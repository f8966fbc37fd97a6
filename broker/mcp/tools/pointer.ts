// hover, scroll, drag: what a person's mouse does besides clicking. Page side: extension/content/actions/hover.ts,
// scroll.ts, drag.ts (pointer events in pointer.ts).
import { DragArgs, DragResult, HoverArgs, HoverResult, ScrollArgs, ScrollResult } from '../../../shared/input-ops.js';
import { orielError } from '../../../shared/errors.js';
import { dialogNote, noteOf } from './dialogs.js';
import { defineTool } from './types.js';
import { withChanges } from '../changes.js';

const ACTS = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true } as const;

export const hover = defineTool({
  name: 'hover',
  title: 'Move the pointer onto an element',
  description:
    'Moves the pointer onto an element and leaves it there, to reveal menus or tooltips; then snapshot.',
  notes:
    'Moves the pointer onto one element (handle from snapshot, or a CSS selector) and leaves it there until the next pointer action, so menus, tooltips and row actions that appear on hover show in the next snapshot. Synthetic input emulates CSS :hover (the result says how). Rows have handles too. To press use click.',
  input: HoverArgs,
  unlisted: ['dialog', 'dialog_text'],
  annotations: ACTS,
  capability: 'act',
  timeout: { default: 10_000, max: 65_000 },
  async handler(args, ctx) {
    if ((args.handle === undefined) === (args.selector === undefined)) throw orielError('invalid_argument', 'Give exactly one of handle or selector.', { next: 'snapshot' });
    const value = HoverResult.parse(await ctx.callPage('hover', args, { timeoutMs: (args.timeout_ms ?? 5_000) + 5_000 }));
    const how =
      value.hover_styles === 'native'
        ? 'trusted input: the browser applies :hover'
        : value.hover_styles === 'mirrored'
          ? `synthetic pointer events; CSS :hover emulated by mirroring ${value.rules} :hover rule(s) of the page`
          : 'synthetic pointer events; the page has no readable :hover rules';
    const unread = value.unreadable_sheets ? `; ${value.unreadable_sheets} cross-origin stylesheet(s) could not be read, so their :hover rules do not apply` : '';
    return withChanges(ctx, { structured: value, text: `Hovering ${value.handle} (${how}${unread})${value.dom_changed ? ': page changed' : ''}. Take a snapshot to see what appeared.${noteOf(value.note)}${dialogNote(value.dialogs)}` });
  },
});

export const scroll = defineTool({
  name: 'scroll',
  title: 'Scroll the page or a list',
  description:
    'Scrolls the page or a container to reveal content, e.g. more rows of a long list. click scrolls by itself.',
  usage:
    'handle names the container (default the page); direction and amount in CSS pixels (default most of a screen down), or to an edge, or until_text: scroll on until that text shows and return its handle',
  notes:
    'Scrolls the page, or the scroll container named by a handle (or any element inside it): by amount pixels in direction (default: most of a screen down), to an edge (to), or step by step until_text shows (virtualized lists render rows only as they scroll in; returns the found element\'s handle). Reports the position and whether more lies beyond. click and snapshot scroll by themselves; use this to reveal content.',
  input: ScrollArgs,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  capability: 'act',
  timeout: { default: 20_000, max: 65_000 },
  async handler(args, ctx) {
    const value = ScrollResult.parse(await ctx.callPage('scroll', args, { timeoutMs: (args.timeout_ms ?? 10_000) + 5_000 }));
    const where = value.handle ? `Container ${value.handle}` : 'The page';
    const more = (['up', 'down', 'left', 'right'] as const).filter((d) => value[`more_${d}`]);
    const found = args.until_text === undefined ? '' : value.found ? ` Found "${args.until_text}": ${value.found}.` : ` "${args.until_text}" did not show before the end.`;
    return withChanges(ctx, {
      structured: value,
      text: `${where} is scrolled to x=${value.x}, y=${value.y} (it scrolls at most to x=${value.max_x}, y=${value.max_y}); more content ${more.length ? more.join(', ') : 'nowhere'}.${found}`,
    });
  },
});

export const drag = defineTool({
  name: 'drag',
  title: 'Drag an element onto another',
  description:
    'Drags an element onto another, by HTML drag and drop or a held pointer. For sliders use press_key.',
  usage:
    'the drop target is to_handle or to_selector',
  notes:
    'Drags one element (handle or selector) onto another (to_handle or to_selector): HTML drag and drop when the source is draggable, else pointer moves with the button held (sortable lists, sliders). Returns which kind ran and whether the drop was accepted. To move a slider by steps use press_key; to choose files use upload.',
  input: DragArgs,
  unlisted: ['dialog', 'dialog_text'],
  annotations: ACTS,
  capability: 'act',
  timeout: { default: 15_000, max: 65_000 },
  async handler(args, ctx) {
    if ((args.handle === undefined) === (args.selector === undefined)) throw orielError('invalid_argument', 'Give exactly one of handle or selector for the source.', { next: 'snapshot' });
    if ((args.to_handle === undefined) === (args.to_selector === undefined)) throw orielError('invalid_argument', 'Give exactly one of to_handle or to_selector for the drop target.', { next: 'snapshot' });
    const value = DragResult.parse(await ctx.callPage('drag', args, { timeoutMs: (args.timeout_ms ?? 5_000) * 2 + 5_000 }));
    const how = value.kind === 'html' ? `HTML drag and drop; the drop was ${value.dropped ? 'accepted' : 'refused by the target'}` : 'pointer moves with the button held';
    return withChanges(ctx, { structured: value, text: `Dragged ${value.handle} onto ${value.to_handle} (${how}, synthetic input)${value.dom_changed ? ': page changed' : ': no visible change'}.${dialogNote(value.dialogs)}` });
  },
});
