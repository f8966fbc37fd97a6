// The parts of a tool's answer that several tools share, added in one place after the tool's own text
// (docs/tools.md, "Results"): the notes every acting tool carries, the downloads a call started, and how page
// content is labelled. Tools build their own sentence; defineTool (./define.ts) finishes it here.
import { quote } from '../../../shared/snapshot/escape.js';
import { UNTRUSTED_LABEL } from '../../../shared/page-text.js';
import type { DialogSeen } from '../../../shared/act.js';
import { dialogNote, noteOf } from './dialogs.js';
import type { ToolContext, ToolOutput } from './types.js';
import { changesPart } from '../changes.js';

/** What a part may read: the tool's answer so far (its structured result is the page's, for page tools) and the call. */
export interface PartInput {
  /** The answer as the tool built it, with the parts before this one added. */
  answer: Readonly<ToolOutput>;
  ctx: ToolContext;
}

/** What a part adds: text appended as is (with its own leading space or line break), structured fields merged in. */
export interface PartOutput {
  text?: string;
  structured?: Record<string, unknown>;
}

/** One shared piece of an answer. Returns nothing when it has nothing to say for this call. */
export interface ResponsePart {
  /** Its name, for tests and docs. */
  name: string;
  add(input: PartInput): PartOutput | undefined | Promise<PartOutput | undefined>;
}

/** The page result's fields the acting parts read (shared/act.ts; `note` says why input was not trusted). */
interface ActingFields {
  note?: unknown;
  dialogs?: readonly DialogSeen[];
}

/** " Not trusted input: <note>." when the person asked for trusted input and the action could not use it. */
export const untrustedInputPart: ResponsePart = {
  name: 'input_note',
  add({ answer }) {
    const { note } = answer.structured as ActingFields;
    return typeof note === 'string' ? { text: noteOf(note) } : undefined;
  },
};

/** " Answered confirm with accept (its text: …)." for each JavaScript dialog the action answered (./dialogs.ts). */
export const dialogsPart: ResponsePart = {
  name: 'dialogs',
  add({ answer }) {
    const text = dialogNote((answer.structured as ActingFields).dialogs);
    return text ? { text } : undefined;
  },
};

/** One line per download the call's page actions started (docs/tools.md, "downloads"), and `downloads` in the data. */
export const downloadsPart: ResponsePart = {
  name: 'downloads',
  add({ ctx }) {
    const started = ctx.startedDownloads;
    if (started.length === 0) return undefined;
    const lines = started.map((d) => `Download ${d.id}: ${quote(d.file)} (${d.mime}) ${d.state === 'refused' ? 'refused: no downloads folder chosen for agents' : d.state}${d.folder ? ` in ${quote(d.folder)}` : ''}`);
    return { text: `\n${lines.join('\n')}`, structured: { downloads: started } };
  },
};

/**
 * The parts every acting tool's answer carries (definitions with `acting: true`), in this order, after the tool's own
 * text. **A part every action should carry is added here, once.**
 */
export const ACTING_PARTS: readonly ResponsePart[] = [untrustedInputPart, dialogsPart];

/**
 * The parts every tool's answer carries, after the acting parts: what the call's action changed in the page (only
 * operations the browser reports changes for carry it: ../changes.ts), then the downloads it started.
 */
export const CALL_PARTS: readonly ResponsePart[] = [changesPart, downloadsPart];

/**
 * Adds the shared parts to a tool's answer: {@link ACTING_PARTS} when the tool acts, then {@link CALL_PARTS}. Each part
 * sees the answer with the earlier parts added.
 */
export async function finishAnswer(answer: ToolOutput, ctx: ToolContext, acting: boolean): Promise<ToolOutput> {
  let out = answer;
  for (const part of acting ? [...ACTING_PARTS, ...CALL_PARTS] : CALL_PARTS) {
    const added = await part.add({ answer: out, ctx });
    if (!added) continue;
    out = { ...out, text: out.text + (added.text ?? ''), structured: added.structured ? { ...out.structured, ...added.structured } : out.structured };
  }
  return out;
}

/** How the text a model reads labels page content (shared/page-text.ts, where messages built in the browser get it too). */
export { UNTRUSTED_LABEL };

/** `head`, the {@link UNTRUSTED_LABEL}, then one page-content item per line. */
export function untrustedLines(head: string, items: readonly string[]): string {
  return [`${head} ${UNTRUSTED_LABEL}`, ...items].join('\n');
}
