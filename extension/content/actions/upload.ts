// The `upload` page operation: set files on a file input as a person's file picker does — the files the broker read
// (broker/mcp/tools/upload.ts) become File objects in one DataTransfer, then input and change fire
// (https://html.spec.whatwg.org/multipage/input.html#file-upload-state-(type=file)).
import type { UploadResult } from '../../../shared/input-ops.js';
import { orielError } from '../../../shared/errors.js';
import { workMs, type ContentHandler } from '../handlers.js';
import { nextTask } from './actionability.js';
import { watchEffects } from './effects.js';
import { changeEvent } from './keyboard.js';
import { whenActionable, type Unfit } from './ready.js';
import { checkTarget } from './target.js';


/**
 * The file input an element stands for: itself, the control of a label, or the one file input inside it (drop zones
 * wrap a hidden input).
 */
function fileInputOf(el: Element): HTMLInputElement | undefined {
  const isFile = (n: Element | null | undefined): n is HTMLInputElement => n instanceof HTMLInputElement && n.type === 'file';
  if (isFile(el)) return el;
  if (el instanceof HTMLLabelElement && isFile(el.control)) return el.control;
  const inside = el.querySelectorAll('input[type="file"]');
  return inside.length === 1 && isFile(inside[0]) ? inside[0] : undefined;
}

function notFileInput(el: Element): Unfit | undefined {
  return fileInputOf(el) ? undefined : { reason: `it is not a file input (a <${el.localName}>; hidden file inputs can be named by selector, e.g. "input[type=file]")`, permanent: true };
}

function bytesOf(base64: string): Uint8Array {
  const raw = atob(base64);
  const out = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

export const upload: ContentHandler<'upload'> = async (args, ctx) => {
  const redactor = ctx.redactor();
  checkTarget(args, 'the file input');
  const watch = watchEffects();
  try {
    let input!: HTMLInputElement;
    let files: File[] = [];
    // File inputs are usually hidden behind a styled button: attached and enabled is enough.
    await whenActionable(args, ctx, { timeoutMs: workMs(ctx), hitTest: false, visible: false, extra: notFileInput, redactor }, (el) => {
      input = fileInputOf(el)!;
      if (input.disabled) throw orielError('not_actionable', 'The file input is disabled.', { details: { reason: 'it is disabled' } });
      if (args.files.length > 1 && !input.multiple) {
        throw orielError('invalid_argument', `This file input takes one file (it has no "multiple" attribute); ${args.files.length} were given.`);
      }
      files = args.files.map((f) => new File([bytesOf(f.data) as BlobPart], f.name, { type: f.type }));
      const transfer = new DataTransfer();
      for (const f of files) transfer.items.add(f);
      watch.start();
      input.files = transfer.files;
      input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
      changeEvent(input);
    });
    await nextTask();
    const seen = watch.stop();
    const result: UploadResult = {
      handle: ctx.registry.handleFor(input),
      files: Array.from(input.files ?? [], (f) => ({ name: f.name, size: f.size, type: f.type })),
      trusted: false,
      dom_changed: seen.mutated,
    };
    return result;
  } finally {
    watch.stop();
  }
};
