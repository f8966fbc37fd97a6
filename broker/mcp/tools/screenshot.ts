// screenshot: a bounded, downscaled image of the visible tab or of one element.
// Page side: extension/background/ops/screenshot.ts (capture, crop, scale) and content element_rect.
import { ScreenshotArgs } from '../../../shared/ops.js';
import type { ToolDefinition } from './types.js';
import { AT_MOST_ONE_ELEMENT, defineTool } from './define.js';
import { snapshot } from './snapshot.js';
import { AS_ARG, AS_USAGE } from './link.js';

export const screenshot: ToolDefinition = defineTool({
  name: 'screenshot',
  title: 'Capture the tab or one element as an image',
  description: () => `Image of the visible tab or an element, for canvas, charts, layout. For text and handles use ${snapshot.name}.`,
  usage:
    `format jpeg (default; quality) or png; max_width downscales (default 1280); ${AS_USAGE}`,
  notes: () =>
    `Returns a downscaled image (JPEG by default) of what the shared tab shows, or of one element named by a handle or a CSS selector (scrolled into view first). The tab must be the visible tab of its window. Secret fields and regions the user redacted are painted out; an image of one alone is refused. Use it for canvas, charts, images and layout questions; to read text, names and handles use ${snapshot.name}, which is far smaller.`,
  commonArgs: ['session', 'lease'],
  input: ScreenshotArgs.extend({ as: AS_ARG }),
  unlisted: ['as'],
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  capability: 'read',
  choose: [AT_MOST_ONE_ELEMENT],
  async handler(args, ctx) {
    const { as, ...pageArgs } = args;
    const value = await ctx.callPage('screenshot', pageArgs);
    const { data, ...meta } = value;
    const text = `Screenshot ${value.width}×${value.height} ${value.mime_type}, ${value.bytes} bytes${value.handle ? ` of ${value.handle}` : ''}.`;
    if (as === 'link') {
      const ext = value.mime_type === 'image/png' ? 'png' : 'jpg';
      const link = await ctx.linkResult({ kind: 'bytes', name: `screenshot-${value.width}x${value.height}.${ext}`, mimeType: value.mime_type, data: Buffer.from(data, 'base64'), description: text });
      return { structured: { ...meta, uri: link.uri }, text: `${text} Read it with resources/read: ${link.uri}`, link };
    }
    return { structured: meta, text, image: { data, mimeType: value.mime_type } };
  },
});
