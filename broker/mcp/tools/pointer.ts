// hover, scroll, drag: what a person's mouse does besides clicking. Page side: extension/content/actions/hover.ts,
// scroll.ts, drag.ts (pointer events in pointer.ts).
import { DragArgs, HoverArgs, ScrollArgs } from '../../../shared/input-ops.js';
import type { ToolDefinition } from './types.js';
import { defineTool, exactlyOne, oneElement } from './define.js';
import { click } from './click.js';
import { pressKey } from './keyboard.js';
import { snapshot } from './snapshot.js';
import { upload } from './upload.js';

const ACTS = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true } as const;

export const hover: ToolDefinition = defineTool({
  name: 'hover',
  title: 'Move the pointer onto an element',
  description: () => `Moves the pointer onto an element and leaves it there, to reveal menus or tooltips; then ${snapshot.name}.`,
  notes: () =>
    `Moves the pointer onto one element (handle from ${snapshot.name}, or a CSS selector) and leaves it there until the next pointer action, so menus, tooltips and row actions that appear on hover show in the next snapshot. Synthetic input emulates CSS :hover (the result says how). Rows have handles too. To press use ${click.name}.`,
  input: HoverArgs,
  unlisted: ['dialog', 'dialog_text', 'dialog_policy'],
  annotations: ACTS,
  capability: 'act',
  acting: true,
  choose: [oneElement(() => snapshot)],
  async handler(args, ctx) {
    const value = await ctx.callPage('hover', args);
    const how =
      value.hover_styles === 'native'
        ? 'trusted input: the browser applies :hover'
        : value.hover_styles === 'mirrored'
          ? `synthetic pointer events; CSS :hover emulated by mirroring ${value.rules} :hover rule(s) of the page`
          : 'synthetic pointer events; the page has no readable :hover rules';
    const unread = value.unreadable_sheets ? `; ${value.unreadable_sheets} cross-origin stylesheet(s) could not be read, so their :hover rules do not apply` : '';
    return { structured: value, text: `Hovering ${value.handle} (${how}${unread})${value.dom_changed ? ': page changed' : ''}. Take a snapshot to see what appeared.` };
  },
});

export const scroll: ToolDefinition = defineTool({
  name: 'scroll',
  title: 'Scroll the page or a list',
  description: () => `Scrolls the page or a container to reveal content, e.g. more rows of a long list. ${click.name} scrolls by itself.`,
  usage:
    'handle names the container (default the page); direction and amount in CSS pixels (default most of a screen down), or to an edge, or until_text: scroll on until that text shows and return its handle',
  notes: () =>
    `Scrolls the page, or the scroll container named by a handle (or any element inside it): by amount pixels in direction (default: most of a screen down), to an edge (to), or step by step until_text shows (virtualized lists render rows only as they scroll in; returns the found element's handle). Reports the position and whether more lies beyond. ${click.name} and ${snapshot.name} scroll by themselves; use this to reveal content.`,
  input: ScrollArgs,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  capability: 'act',
  acting: true,
  async handler(args, ctx) {
    const value = await ctx.callPage('scroll', args);
    const where = value.handle ? `Container ${value.handle}` : 'The page';
    const more = (['up', 'down', 'left', 'right'] as const).filter((d) => value[`more_${d}`]);
    const found = args.until_text === undefined ? '' : value.found ? ` Found "${args.until_text}": ${value.found}.` : ` "${args.until_text}" did not show before the end.`;
    return {
      structured: value,
      text: `${where} is scrolled to x=${value.x}, y=${value.y} (it scrolls at most to x=${value.max_x}, y=${value.max_y}); more content ${more.length ? more.join(', ') : 'nowhere'}.${found}`,
    };
  },
});

export const drag: ToolDefinition = defineTool({
  name: 'drag',
  title: 'Drag an element onto another',
  description: () => `Drags an element onto another, by HTML drag and drop or a held pointer. For sliders use ${pressKey.name}.`,
  usage:
    'the drop target is to_handle or to_selector',
  notes: () =>
    `Drags one element (handle or selector) onto another (to_handle or to_selector): HTML drag and drop when the source is draggable, else pointer moves with the button held (sortable lists, sliders). Returns which kind ran and whether the drop was accepted. To move a slider by steps use ${pressKey.name}; to choose files use ${upload.name}.`,
  input: DragArgs,
  unlisted: ['dialog', 'dialog_text', 'dialog_policy'],
  annotations: ACTS,
  capability: 'act',
  acting: true,
  choose: [
    exactlyOne(['handle', 'selector'], { about: 'for the source', next: () => snapshot }),
    exactlyOne(['to_handle', 'to_selector'], { about: 'for the drop target', next: () => snapshot }),
  ],
  async handler(args, ctx) {
    const value = await ctx.callPage('drag', args);
    const how = value.kind === 'html' ? `HTML drag and drop; the drop was ${value.dropped ? 'accepted' : 'refused by the target'}` : 'pointer moves with the button held';
    return { structured: value, text: `Dragged ${value.handle} onto ${value.to_handle} (${how}, synthetic input)${value.dom_changed ? ': page changed' : ': no visible change'}.` };
  },
});
