// The `screenshot` operation: capture the tab (Firefox: any tab; Chromium: only the visible tab of its window), paint out what redaction hides (boxes from every frame's
// content script, ../masks.ts), optionally crop to one element (its box from the content script's element_rect),
// downscale and encode in the background with OffscreenCanvas. MCP side: broker/mcp/tools/screenshot.ts.
import type { ScreenshotArgs, ScreenshotResult } from '../../../shared/ops.js';
import { orielError } from '../../../shared/errors.js';
import { frameOfDocument, sendToFrame, type FrameCallOptions } from '../frames.js';
import { measureMasks, sameMasks, type Masks } from '../masks.js';

const DEFAULT_MAX_WIDTH = 1280;
const DEFAULT_QUALITY = 70;
/** Largest encoded image, bytes: quality and then size step down until it fits. */
const MAX_BYTES = 900_000;
/** Captures tried when the page moves between measuring its masks and capturing. */
const CAPTURE_ATTEMPTS = 3;
/** The colour redacted boxes are painted with. */
const MASK_COLOUR = '#6e7781';

interface ElementBox {
  handle: string;
  x: number;
  y: number;
  width: number;
  height: number;
  viewport: { width: number; height: number };
}

export async function screenshot(tab: number, args: ScreenshotArgs, frameCall: FrameCallOptions): Promise<ScreenshotResult> {
  if (args.handle !== undefined && args.selector !== undefined) throw orielError('invalid_argument', 'Give at most one of handle or selector.');

  let info: chrome.tabs.Tab;
  try {
    info = await chrome.tabs.get(tab);
  } catch {
    throw orielError('session_gone', 'The tab was closed.');
  }
  if (!info.active && !captureTabApi()) {
    throw orielError('not_actionable', 'The tab is not the visible tab of its window, and this browser captures only what is on screen. Ask the user to bring the tab to the front, or use snapshot, which works on background tabs.', {
      details: { reason: 'tab not visible' },
      next: 'snapshot, or ask the user to show the tab',
    });
  }
  const box = args.handle !== undefined || args.selector !== undefined ? await elementBox(tab, args.handle, args.selector, frameCall) : undefined;
  const { png, masks } = await maskedCapture(tab, info.windowId, !info.active, frameCall);
  const bitmap = paintMasks(await createImageBitmap(png), masks);
  try {
    let sx = 0;
    let sy = 0;
    let sw = bitmap.width;
    let sh = bitmap.height;
    if (box) {
      // The capture is in device pixels; the box in CSS pixels of the same viewport.
      const scale = bitmap.width / box.viewport.width;
      sx = clamp(Math.floor(box.x * scale), 0, bitmap.width - 1);
      sy = clamp(Math.floor(box.y * scale), 0, bitmap.height - 1);
      sw = clamp(Math.ceil(box.width * scale), 1, bitmap.width - sx);
      sh = clamp(Math.ceil(box.height * scale), 1, bitmap.height - sy);
    }
    const format = args.format ?? 'jpeg';
    let width = Math.min(sw, args.max_width ?? DEFAULT_MAX_WIDTH);
    let quality = (args.quality ?? DEFAULT_QUALITY) / 100;
    for (;;) {
      const height = Math.max(1, Math.round((sh * width) / sw));
      const canvas = new OffscreenCanvas(width, height);
      const g = canvas.getContext('2d');
      if (!g) throw orielError('unsupported', 'This browser cannot draw images in the extension background.');
      g.imageSmoothingQuality = 'high';
      g.drawImage(bitmap, sx, sy, sw, sh, 0, 0, width, height);
      const blob = await canvas.convertToBlob(format === 'png' ? { type: 'image/png' } : { type: 'image/jpeg', quality });
      if (blob.size <= MAX_BYTES || width <= 100) {
        const result: ScreenshotResult = { data: await base64(blob), mime_type: blob.type || `image/${format}`, width, height, bytes: blob.size };
        if (box) result.handle = box.handle;
        return result;
      }
      if (format === 'jpeg' && quality > 0.4) quality -= 0.15;
      else width = Math.max(100, Math.floor(width * 0.75));
    }
  } finally {
    if (bitmap instanceof ImageBitmap) bitmap.close();
  }
}

/**
 * Measures the masks, captures, and measures again; when the page moved in between (scrolling, layout, animation),
 * the masks might not sit where the capture shows the secrets, so it tries again and finally refuses.
 */
async function maskedCapture(tab: number, windowId: number, background: boolean, frameCall: FrameCallOptions): Promise<{ png: Blob; masks: Masks }> {
  for (let attempt = 1; ; attempt++) {
    const before = await measureMasks(tab, frameCall, true);
    const png = await capture(tab, windowId, background);
    const after = await measureMasks(tab, frameCall, false);
    if (sameMasks(before, after)) return { png, masks: after };
    if (attempt >= CAPTURE_ATTEMPTS) {
      throw orielError('not_actionable', 'The page kept moving while the screenshot was taken, so Oriel could not be sure the redacted parts were covered. Try again once the page is still.', {
        retryable: true,
        details: { reason: 'page moving' },
      });
    }
  }
}

/**
 * Paints every mask over the capture, in device pixels (the capture's width over the viewport's CSS width), rounded
 * outwards so a box never leaves a partly covered pixel. Returns a new bitmap and closes the old one.
 */
function paintMasks(bitmap: ImageBitmap, masks: Masks): ImageBitmap | OffscreenCanvas {
  if (masks.boxes.length === 0) return bitmap;
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const g = canvas.getContext('2d');
  if (!g) throw orielError('unsupported', 'This browser cannot draw images in the extension background.');
  g.drawImage(bitmap, 0, 0);
  bitmap.close();
  const scale = canvas.width / masks.viewport.width;
  g.fillStyle = MASK_COLOUR;
  for (const b of masks.boxes) {
    const x = Math.floor(b.x * scale);
    const y = Math.floor(b.y * scale);
    g.fillRect(x, y, Math.ceil((b.x + b.width) * scale) - x, Math.ceil((b.y + b.height) * scale) - y);
  }
  return canvas;
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.min(Math.max(v, lo), Math.max(lo, hi));
}

/** The element's box from the content script of its frame; only top-frame elements can be cropped from the tab. */
async function elementBox(tab: number, handle: string | undefined, selector: string | undefined, frameCall: FrameCallOptions): Promise<ElementBox> {
  let frameId = 0;
  if (handle !== undefined) {
    const found = await frameOfDocument(tab, handle.slice(0, handle.indexOf('.')));
    if (found === undefined) throw orielError('unknown_handle', `Handle ${handle} does not belong to any document now shown in this tab. Take a new snapshot.`);
    frameId = found;
  }
  if (frameId !== 0) throw orielError('unsupported', 'Element screenshots work for elements of the top frame; capture the whole tab instead (screenshot without handle).');
  const reply = await sendToFrame(tab, frameId, 'element_rect', handle !== undefined ? { handle } : { selector: selector! }, frameCall);
  return reply.value;
}

/** Firefox's `tabs.captureTab(tabId, options)`, which captures a tab whether or not it is the visible one; Chromium has none. */
function captureTabApi(): ((tab: number, options: { format: 'png' }) => Promise<string>) | undefined {
  const api = (chrome.tabs as unknown as { captureTab?: (tab: number, options: { format: 'png' }) => Promise<string> }).captureTab;
  return typeof api === 'function' ? api.bind(chrome.tabs) : undefined;
}

/**
 * Captures the tab: the visible tab of its window with captureVisibleTab, retried once past Chromium's
 * two-captures-per-second quota; a background tab (`background`) with Firefox's captureTab.
 */
async function capture(tab: number, windowId: number, background: boolean): Promise<Blob> {
  const captureTab = background ? captureTabApi() : undefined;
  for (let attempt = 0; ; attempt++) {
    try {
      const url = captureTab ? await captureTab(tab, { format: 'png' }) : await chrome.tabs.captureVisibleTab(windowId, { format: 'png' });
      return await (await fetch(url)).blob();
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (attempt < 2 && /MAX_CAPTURE_VISIBLE_TAB_CALLS_PER_SECOND|quota/i.test(message)) {
        await new Promise((r) => setTimeout(r, 600));
        continue;
      }
      throw orielError('unsupported', `The browser refused to capture the tab (${message.slice(0, 200)}). The window may be minimised or the page may be a protected browser page.`);
    }
  }
}

async function base64(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}
