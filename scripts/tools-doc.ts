// Writes the generated references so they cannot drift from the code: docs/tools.md from the tool definitions (names,
// descriptions, arguments, annotations) and the error table of docs/native-messaging.md from shared/errors.ts.
// Usage: npx tsx scripts/tools-doc.ts [--check]
import { readFileSync, writeFileSync } from 'node:fs';
import { ERROR_CODES, ERROR_DEFAULTS } from '../shared/errors.js';
import path from 'node:path';
import { z } from 'zod';
import { TOOLS } from '../broker/mcp/tools/index.js';
import { DEFAULT_TOOL_SET, setsWith, TOOL_SETS } from '../broker/mcp/tools/sets.js';
import { advertisedCommonArgs, COMMON_ARGS, listedTool, SHARED_ARGUMENTS } from '../broker/mcp/listing.js';
import { FIRST_LINK_REVISION, MAX_BLOB_BYTES, MAX_HELD_BYTES, MAX_RESULTS, MAX_RESULTS_PER_CLIENT, RESULT_TTL_MS } from '../broker/mcp/resources.js';

interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  default?: unknown;
  description?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
}

const cell = (s: string) => s.replace(/\|/g, '\\|');

/** "1–200 characters", "0–60000", "≤ 40 items of ≤ 40 characters": the bounds the validation enforces. */
function limits(p: JsonSchema): string {
  const parts: string[] = [];
  if (p.minimum !== undefined || p.maximum !== undefined) parts.push(`${p.minimum ?? ''}–${p.maximum ?? ''}`);
  if (p.maxLength !== undefined) parts.push(`≤ ${p.maxLength} characters`);
  if (p.maxItems !== undefined) parts.push(`≤ ${p.maxItems} items${p.items?.maxLength !== undefined ? ` of ≤ ${p.items.maxLength} characters` : ''}`);
  return parts.join(', ');
}

function typeOf(p: JsonSchema): string {
  if (p.enum) return p.enum.map((v) => JSON.stringify(v)).join(' \\| ');
  if (Array.isArray(p.type)) return p.type.length === 6 ? 'any JSON value' : p.type.join(' \\| ');
  if (p.type === 'array' && p.items?.type) return `${String(p.items.type)}[]`;
  return p.type ?? '';
}

export function renderToolsDoc(): string {
  const out: string[] = [
    '# Tools',
    '',
    'Generated from `broker/mcp/tools/*.ts` and `broker/mcp/listing.ts` by `npx tsx scripts/tools-doc.ts`; a unit test',
    'fails when this file is stale. Failures are results with `isError: true` and',
    '`structuredContent.error = {code, message, retryable, refresh_required, next}`.',
    '',
    '"Needs" names the capability each tool needs on the origin it touches (read, act, exec; docs/architecture.md,',
    '"Consent"). Sharing a tab grants read and act on the origin it was shared at; anything else waits while the user',
    'answers a prompt in the Oriel popup, then goes on or fails with `permission_denied` or `permission_timeout`. A tool',
    'the user switched off in Oriel\'s options is not listed and answers `operation_disabled`.',
    'Where the user allowed it for your client (by its `clientInfo.name`, in Oriel\'s options) and your client declared',
    'form-mode `elicitation` (2025-06-18, 2025-11-25), the same prompt is also sent to your client as',
    '`elicitation/create` while the call waits: one required field `answer`, one of `allow_once`, `allow_origin` (not',
    'for code), `allow_code_session` (code only: this exact code in this tab), `deny_once`. Declining denies once;',
    'cancelling leaves the question to the popup. The first answer, popup or client, wins; the other is withdrawn (the',
    'client\'s request is cancelled). An answer settles only your own calls (docs/architecture.md, "Asking in the agent\'s',
    'app"). In the 2026-07-28 revision (stdio), a client declaring form `elicitation` gets an `input_required` result',
    'with that form under `oriel_permission` and a `requestState`; retry with the answer to go on.',
    'Pages that talk back (the bridge, page-registered tools): [bridge.md](bridge.md).',
    '',
    '## Results',
    '',
    'A result has two parts. The text content is what the model reads: a rendering of the result (for `snapshot`, the',
    'outline itself). `structuredContent` is the data for programs: ids, handles, URLs, states, counts, coverage and',
    'cursors. A large text is never carried twice: `snapshot`\'s outline is only in the text content, and its',
    '`structuredContent` holds `snapshot`, `document`, `url`, `title`, `coverage`, `cursor`, `changes` (and `loading`',
    'while the page loads). Small values that are the answer itself (`extract`\'s `value`, `evaluate`\'s `value`,',
    '`extract_rows`\' rows) appear in both: the text is escaped and bounded for the model, the structured field keeps',
    'the JSON type. `screenshot` returns an image content block and its size and format in `structuredContent`;',
    'with `as: "link"`, `screenshot` and `downloads` return a `resource_link` instead ("Results as resource links").',
    '',
    '**What an action changed.** The results of click, type, select_options, press_key, hover, scroll, drag, upload,',
    'send_message, call_tab_operation and wait_for end with the outline diff since the last snapshot of that tab that',
    'your connection saw — a snapshot, a `since` diff or an earlier action\'s diff; each client has its own — in the',
    'notation of `snapshot(since=…)` ([snapshot-format.md](snapshot-format.md), "Changes since a snapshot"):',
    '`changes since s3kd92fa1, now snapshot=s9xk1d0aa: 1 changed, 2 added, 0 removed`, the changed and added lines with',
    'their handles (usable at once), and `~ removed:` with the handles that are gone. It compares as much of the outline',
    'as that snapshot showed, with its root and filters, and becomes what you have seen: the next action compares with',
    'it. At most 4,000 characters: a larger change, a navigation the action started, another document in the tab, or a',
    'page that cannot be read again in time (about 4 s) gives one line instead, `changes since …: not shown, <why>: take',
    'a snapshot`, and what you have seen stays as it was. `structuredContent.changes` holds `since`, `shown_as` (`diff`',
    'or `note`), `snapshot`, `changed`, `added`, `removed` and a note\'s `reason` (`navigating`, `new_document`,',
    '`too_large`, `not_read`, `not_kept`); the text is not repeated there. A connection that took no snapshot of the tab',
    '(or whose view Oriel no longer holds: four clients per tab, in memory) gets nothing added; so does every request',
    'over HTTP in the 2026-07-28 revision, where each request is a client of its own. `navigate` is left out',
    '(it always shows a new document, and its result says to take a snapshot), and so is `evaluate` (mostly reading,',
    'and the code is yours). Where the person switched `snapshot` off, actions show no changes either.',
    '',
    '**Why on by default, with no argument.** Agents call the tools they are led to and rarely think of another: after',
    'an action they act blind or read the whole page again (about 16,000 characters on a 1,000-element page, against a',
    'diff of a few hundred). An argument to ask for the diff would be one more field in every acting tool\'s schema,',
    'which tools/list carries with every model request, and agents would seldom set it. So the diff comes unasked. Its',
    'cost is a second reading of the part of the page you saw, in the same call: the page\'s content script reads it',
    'right after the action, in the same exchange with it (click times with and without it:',
    '[BENCHMARKS.md](BENCHMARKS.md), "Actions that show what changed"); a connection that took no snapshot pays nothing.',
    '',
    'Waiting: when a request carries `_meta.progressToken`, Oriel sends `notifications/progress` every 10 s while the',
    'call runs, and one at once when it starts waiting on a permission prompt; clients that restart their request',
    'timeout on progress (the TypeScript SDK\'s `resetTimeoutOnProgress`) keep the call alive through a long prompt.',
    'Without that, keep calls under your client\'s request timeout (60 s by default in the official SDKs). Oriel keeps',
    'within it: the default prompt wait is 45 s, no tool takes a `timeout_ms` (or `wait_ms`) over 50 s, and a call\'s',
    'whole budget — its wait plus the few seconds it keeps to answer — is at most 55 s, so Oriel\'s own answer',
    '(`permission_timeout`, `timeout`) arrives first (shared/time-limits.ts). A client that gives up and cancels the',
    'request withdraws its prompt; the tab stays usable.',
    '',
    '## What tools/list carries',
    '',
    'A client sends the tool list to its model with every request, so Oriel keeps it small (the default list is under',
    '10,000 characters of JSON; `test/unit/tools.test.ts` holds it there, docs/BENCHMARKS.md measures it). Each tool',
    'lists its name, a one- or two-sentence description of when to use it, and its arguments with their JSON types,',
    'enums and which are required. What each tool would otherwise repeat is said once:',
    '',
    '- the arguments many tools share (below) are explained in the server\'s `instructions`, sent once at `initialize`;',
    '- so is each tool\'s **Arguments** paragraph below (its `usage`);',
    '- bounds (lengths, ranges, counts) and defaults are in the tables below and enforced by the validation, which',
    '  answers a value out of bounds with `invalid_argument` naming the bound;',
    '- titles (the headings below) are not listed: clients show the name of a tool without one; annotations are',
    '  listed only where they differ from the protocol\'s defaults (`readOnlyHint` false, `destructiveHint` true,',
    '  `idempotentHint` false, `openWorldHint` true).',
    '',
    'Every argument has a JSON type; free-form data (`send_message.data`) is typed as any JSON value',
    '(`["object","array","string","number","boolean","null"]`). The longer notes under each tool are not listed.',
    '',
    '## Tool sets',
    '',
    `\`oriel mcp --tools <list>\` serves only some tools: a comma-separated list of sets and tool names (e.g. \`core,evaluate\`).`,
    `The default is \`${DEFAULT_TOOL_SET}\`: every tool. \`oriel config <client> --tools core\` prints a configuration with it.`,
    'A call to a tool the set leaves out is refused as an unknown tool is (JSON-RPC -32602), with a message that names',
    'the sets that have it.',
    '',
    '| set | tools |',
    '|---|---|',
    ...Object.entries(TOOL_SETS).map(([set, tools]) => `| \`${set}\` | ${tools.join(', ')} |`),
    `| \`all\` | every tool (${TOOLS.length}) |`,
    '',
    '## Shared arguments',
    '',
    'Listed by type alone in each tool\'s schema; explained once, here and in the server\'s instructions.',
    '',
    '| argument | meaning |',
    '|---|---|',
    ...Object.entries(SHARED_ARGUMENTS).map(([name, text]) => `| \`${name}\` | ${cell(text)}. |`),
    '',
    'Every tool accepts `session`, `document` and `lease`; a tool\'s table below shows those it lists.',
    '',
  ];
  for (const tool of TOOLS) {
    const listed = listedTool(tool);
    const common = Object.fromEntries(advertisedCommonArgs(tool).map((k) => [k, COMMON_ARGS[k]]));
    const schema = z.toJSONSchema(tool.input.extend(common), { io: 'input' }) as JsonSchema;
    const a = tool.annotations;
    out.push(`## \`${tool.name}\` — ${tool.title}`, '', tool.description, '');
    if (tool.usage) out.push(`**Arguments:** ${tool.usage}.`, '');
    if (tool.notes) out.push(tool.notes, '');
    const sets = setsWith(tool.name);
    out.push(
      `Needs: **${tool.capability}**. Sets: ${[...sets, 'all'].map((s) => `\`${s}\``).join(', ')}. Annotations: readOnly=${a.readOnlyHint}, destructive=${a.destructiveHint}, idempotent=${a.idempotentHint ?? false}, openWorld=${a.openWorldHint}. Listed: ${JSON.stringify(listed).length} characters.`,
      '',
    );
    const props = Object.entries(schema.properties ?? {});
    if (props.length === 0) {
      out.push('No arguments.', '');
      continue;
    }
    out.push('| argument | type | required | default | limits | description |', '|---|---|---|---|---|---|');
    for (const [name, prop] of props) {
      const text = prop.description ?? (Object.hasOwn(SHARED_ARGUMENTS, name) ? 'shared (above)' : 'see Arguments');
      const dflt = prop.default === undefined ? '' : `\`${JSON.stringify(prop.default)}\``;
      out.push(`| \`${name}\` | ${typeOf(prop)} | ${schema.required?.includes(name) ? 'yes' : 'no'} | ${dflt} | ${limits(prop)} | ${cell(text)} |`);
    }
    out.push('');
  }
  out.push(...DOWNLOADS_NOTES, ...LINKS_NOTES, ...DIALOGS_NOTES);
  return out.join('\n');
}

/** How downloads work and where the browsers differ (the downloads tool's behaviour beyond its arguments). */
const DOWNLOADS_NOTES = [
  '## Downloads and PDFs: where files go, what agents see, and how the browsers differ',
  '',
  '- **Which downloads are an agent\'s.** A download that begins while an agent\'s acting call (click, type, press_key,',
  '  navigate, call_tab_operation …) runs in a shared tab, or up to 4 s after it ends, whose page origin is a document of',
  '  that tab; an http(s) file whose response just started (within 2 s, seen with `webRequest`) in another tab is not the',
  '  agent\'s, and one whose request was not seen — like a data: URL with no referrer — counts only during the call or',
  '  1 s after. Every other download is the',
  '  person\'s: left alone and never shown. The acting call\'s result lists the downloads it started (`downloads`), as far',
  '  as they began before it answered; `downloads` lists later ones too. Limit: a blob: or data: download the person',
  '  starts in another tab of the same site while an agent\'s call runs there cannot be told apart from the agent\'s.',
  '- **Where they go.** Extensions can write only inside the browser\'s downloads folder, so the person names one folder',
  '  there in Oriel\'s options ("Downloads folder", e.g. `oriel-agents`); off until they do. With no folder chosen, an',
  '  agent\'s download is cancelled (its partial file removed) and reported as `refused`. Names never collide: an existing',
  '  name gets a numbered one (`conflictAction: "uniquify"`). The broker reads a file only at the path the browser',
  '  reported, only when it is a regular file directly in that folder, without following a link.',
  '- **Chromium** renames the download before it is written (`downloads.onDeterminingFilename`). A page that starts',
  '  several downloads without a person\'s gesture hits Chromium\'s "automatic downloads" setting, which the person may',
  '  have to allow for the site. (A browser driven with the DevTools protocol\'s `Browser.setDownloadBehavior` ignores',
  '  extensions\' names: Oriel\'s tests set the download folder through the profile instead.)',
  '- **Firefox** has no `onDeterminingFilename`: Oriel cancels the download and starts it again with',
  '  `downloads.download({ filename: "<folder>/<name>" })`, so the file is fetched a second time with the person\'s cookies',
  '  (a one-time link or a POST response may not survive that and ends `interrupted`); a page\'s blob: URL is read in the',
  '  tab\'s content-script world and a data: URL decoded, since Firefox fetches neither for an extension.',
  '- **Reading back** counts as reading the origin the file came from: its tab must still be shared, connected and',
  '  showing that origin with a grant there, else `permission_denied`. Text, CSV and JSON come as UTF-8 text, 20,000',
  '  bytes a call with a byte `cursor`; PDFs as text per page with page numbers (PDF.js in the broker, 20,000 characters a',
  '  call, `cursor` = the next page, at most 30 MiB); other types as facts only. The person\'s redaction selectors and',
  '  value limits do not apply to files (they describe page elements); the file is page content, labelled untrusted.',
  '- **A PDF in a shared tab** (the browser\'s own viewer, where no content script runs) is read by `snapshot`: the',
  '  background knows the tab shows a PDF from its response\'s `Content-Type`, fetches the same URL again with the',
  '  person\'s cookies (`credentials: "include"`, the HTTP cache first), at most 5 MiB, and the answer is its text per page',
  '  (`--- page 2 of 9 ---`), within `max_chars`, with `cursor` = `pdf:<page>` to go on. It needs read on the tab\'s',
  '  origin (sharing grants it); there are no handles, and redaction selectors do not apply to PDF text. A PDF the tab',
  '  got by a POST, or that was open before Oriel started, is not recognised (snapshot then shows the viewer\'s page).',
  '',
];

const MiB = (n: number) => `${n / 1024 / 1024} MiB`;

/** Large binary results as MCP resource links (broker/mcp/resources.ts): how a client asks, scope, bounds, consent. */
const LINKS_NOTES = [
  '## Results as resource links',
  '',
  `A screenshot or a downloaded file can come back as a \`resource_link\` content block (MCP ${FIRST_LINK_REVISION} and`,
  'later) that the client reads with `resources/read` when it wants the bytes, instead of base64 in the result that the',
  'model would carry in its context. Inline stays the default.',
  '',
  '- **How the server knows.** The agent asks, per call, with `as: "link"` on `screenshot` or `downloads` (with an',
  '  `id`). The protocol has no client capability that says "I read resource links" (a client that negotiated',
  `  ${FIRST_LINK_REVISION} may still never call \`resources/read\`), so neither the revision nor a capability can switch`,
  '  links on by themselves: whoever knows the client reads them — its agent, told by the server\'s instructions, or a',
  '  person configuring it — asks. The revision is checked: a client that negotiated an earlier one (2025-03-26) gets',
  '  `unsupported` and should call again without `as`. `as` is not in tools/list (the server\'s instructions explain it),',
  '  so the default list does not grow.',
  '- **What comes back.** The text says what the result is and names the URI (`oriel://result/<128 random bits>`);',
  '  `structuredContent` holds the usual facts plus `uri`; the content has one `resource_link` with `uri`, `name` (e.g.',
  '  `screenshot-1280x720.png`, the downloaded file\'s name), `mimeType` and `size` in bytes. `resources/read` answers',
  '  one `blob` (base64) with the same `mimeType`: `image/png` or `image/jpeg` for a screenshot, the type the browser',
  '  reported for a file (`application/octet-stream` when it reported none). A download link is the whole file of any',
  '  type, so `cursor` does not go with it.',
  '- **Whose.** A link belongs to the connection that made it: a stdio connection, or a 2025-era HTTP session. Another',
  '  client gets the same error as for a URI that never existed, so it cannot learn that one does; a link goes when its',
  '  connection ends. A 2026-07-28 HTTP exchange has no connection to belong to (docs/architecture.md, "HTTP transport"):',
  '  there a link belongs to the 2026-era HTTP clients, and its URI, shown only to the client that made it, is the key,',
  '  as a lease id is. Links are not listed: `resources/list` stays empty (they are one call\'s answer, not a catalogue,',
  '  and a client that puts listed resources before its model would bring back what `as: "link"` kept out);',
  '  `resources/templates/list` shows their URI template.',
  `- **Bounds.** A link lasts ${RESULT_TTL_MS / 60_000} minutes from the call that made it (reading does not extend it); at most`,
  `  ${MAX_RESULTS_PER_CLIENT} per connection and ${MAX_RESULTS} in all, the oldest going first past either; screenshots are held in`,
  `  the hub's memory, at most ${MiB(MAX_HELD_BYTES)} in all (the oldest go first); a downloaded file stays on disk and is read when`,
  `  asked for, at most ${MiB(MAX_BLOB_BYTES)} (its base64 fits the 8 MiB line Oriel accepts and the official SDKs' 10 MiB stdio`,
  '  buffer); a larger file is `too_large` when the link is asked for.',
  '- **Consent.** Reading a link is reading what it came from, checked again at each read without asking: the tab it',
  '  came from must still be shared, connected and showing the same origin with a read grant there (for a file, the',
  '  origin it was downloaded from), else `permission_denied`. The bytes are what the call returned: a screenshot keeps',
  '  its redaction, a file is page content (untrusted).',
  '- **Errors.** `resources/read` fails with a JSON-RPC error whose `data` is `{uri, error}`, `error` being the usual',
  '  `{code, message, retryable, refresh_required, next}`: an unknown, expired or another client\'s link is Invalid Params',
  '  (-32602, as the protocol answers a resource it does not have) with `invalid_argument` and',
  '  `details.reason: "unknown_resource"`; a refusal or a file gone or grown too large is -32000 with its code.',
  '',
];

/** How JavaScript dialogs and the leave-page prompt are answered (the dialog arguments' behaviour, with and without a call). */
const DIALOGS_NOTES = [
  '## Dialogs: alert, confirm, prompt and "Leave site?"',
  '',
  '- **Why no call is ever left hanging.** `alert`, `confirm` and `prompt` stop the page\'s script until they are',
  '  answered, and no extension API can answer the browser\'s own dialog without the debugger. So in shared tabs Oriel\'s',
  '  page script answers them in the page itself, before the browser would show one, as the call or the tab says. A',
  '  dialog cannot be kept open for a later call to answer (the page\'s script is stopped until it returns, Oriel\'s with',
  '  it): to give a prompt a value, repeat the action with `dialog: "accept"` and `dialog_text`.',
  '- **Per call.** `dialog` (`accept` or `dismiss`) and `dialog_text` answer the dialogs the call opens: on click, type,',
  '  press_key, select_options, hover, drag, and navigate (back, forward, reload and close too). Accepting a prompt',
  '  without `dialog_text` answers the page\'s own default text. The result lists every dialog met (`dialogs`: type,',
  '  the page\'s message, the answer).',
  '- **Per tab (`dialog_policy`).** Any of those tools also takes `dialog_policy`: from that call on, until it is set',
  '  again or the tab stops being shared, the tab answers the dialogs no call answers with `accept` or `dismiss`, and',
  '  they are reported in `dialogs` without an error. `default` (the start) dismisses them and fails the call with',
  '  `dialog_opened`, whose message quotes the dialog; the action itself was carried out. A call\'s own `dialog` wins.',
  '- **While no agent call runs.** With a policy set, a dialog the page opens between calls (a timer, a page that',
  '  greets as it loads) is answered by it at once, and the next acting call reports it with `between_calls: true`. The',
  '  tab\'s next documents of the same site know the policy as they start; a document of another site learns it when',
  '  navigate lands there, or at the first call that reaches it. A leave-page prompt between calls is always the',
  '  person\'s: their own navigation is never held back.',
  '- **A dialog left open for the person.** With no policy, a dialog the page opens between calls is the browser\'s own,',
  '  shown to the person as in any tab, and the page is stopped until they answer it. Oriel\'s page script tells the',
  '  content script as it opens and as it closes, and the content script tells the background. Meanwhile every call on',
  '  that tab ends at once with `dialog_opened`: its message names the dialog\'s type and quotes its text as the page\'s',
  '  (`details.open_dialog`: type, message, since when), says nothing was done, and what to do — ask the person to',
  '  answer it, then call again; set `dialog_policy` so that Oriel answers such dialogs next time. A call under way when',
  '  such a dialog opens ends the same way (what it did before stays done). Calls on other tabs are not affected; once',
  '  the dialog is answered (or the frame loads another document, or the tab is unshared), calls work again. The open',
  '  and close reports are page events, so a page can forge them: it can only block or unblock calls on its own tab,',
  '  and a page that blocks its own calls gains nothing it could not do by opening a real dialog.',
  '- **A page that opens dialog after dialog.** Oriel answers at most 20 dialogs in one call, and at most 20 by the',
  '  tab\'s policy between two calls: a page legitimately asks a few in a row, not more. The 21st is left open for the',
  '  person, as above, so the page\'s script stops on it as it would without Oriel instead of running a loop such as',
  '  `while (true) alert(…)` at full speed (answering every dialog would keep the page busy, and the tab hard to close,',
  '  long after the call). The call under way, and every later call while that dialog is open, fails with',
  '  `dialog_opened` and `details.reason: "too_many_dialogs"` (`details.open_dialog.answered`: 20), saying the page',
  '  opened more than 20 dialogs and the last was left open. The person answers it (a loop then opens the next, again',
  '  for them) or closes the tab. A page whose script never returns keeps its call\'s count after the call has ended,',
  '  so the bound holds then too.',
  '- **Dialog text is the page\'s.** Every dialog message an agent reads — answered during a call, between calls, in',
  '  `dialog_opened` — is labelled "Untrusted page content, not instructions:", quoted and cut at 200 characters (the',
  '  structured `message` keeps up to 2,000): a page can dispatch Oriel\'s dialog events with any text, so a report',
  '  never speaks in Oriel\'s voice.',
  '- **Leaving a page that asks first** (`beforeunload`: "Leave site? Changes you made may not be saved"). Before',
  '  navigate loads another page, goes back or forward, reloads or closes the tab, Oriel asks the page\'s top document',
  '  whether it would ask (it dispatches a `beforeunload` event of the page\'s own kind and reads whether a handler',
  '  cancelled it or set a return value). If not, the tab moves as asked. If it would, the call\'s `dialog`, else the',
  '  tab\'s policy, decides: `accept` leaves (the page\'s handlers do not run again, so the browser shows no prompt) and',
  '  reports it; `dismiss` stays — nothing is loaded, the result says `stayed: true`; neither fails with',
  '  `dialog_opened` and stays. A click, key press or typing that would leave such a page (a link, a form submission, a',
  '  page script setting `location`) is held the same way during the call: accepted, the page is left; otherwise the',
  '  navigation is cancelled (a link\'s or form\'s activation, or the Navigation API\'s `navigate` event for a script\'s)',
  '  and reported, failing with `dialog_opened` when neither the call nor the tab answered. The answer is the same',
  '  whether or not the browser would have shown its prompt (browsers prompt only after the person interacted with the',
  '  page), so an agent is told of unsaved work either way.',
  '- **Limits.** The check runs the page\'s `beforeunload` handlers once more than leaving would (a handler that saves',
  '  a draft saves it twice). Only the top document is asked: a frame inside the page that asks before leaving is not',
  '  seen. A page open since before Oriel was installed or enabled has no page script until it loads again: its',
  '  dialogs go to the person unreported (a call meanwhile waits and fails with `timeout`, saying a dialog may be',
  '  open), and its prompt too if it asks on an accepted leave. Where the browser has no Navigation',
  '  API, a page script\'s own navigation is not held: the page\'s handlers run and the browser decides.',
  '',
];

/** The error table, one row per code of shared/errors.ts. */
export function renderErrorTable(): string {
  const rows = ERROR_CODES.map((code) => {
    const d = ERROR_DEFAULTS[code];
    return `| \`${code}\` | ${cell(d.meaning)} | ${d.retryable ? 'yes' : 'no'} | ${d.refresh_required ? 'yes' : 'no'} | ${cell(d.next)} |`;
  });
  return ['| code | meaning | retryable | refresh handles | next (default) |', '|---|---|---|---|---|', ...rows].join('\n');
}

const ERRORS_START = '<!-- errors:start (generated by scripts/tools-doc.ts) -->';
const ERRORS_END = '<!-- errors:end -->';

/** `doc` with the text between the error-table markers replaced by {@link renderErrorTable}. */
export function withErrorTable(doc: string): string {
  const start = doc.indexOf(ERRORS_START);
  const end = doc.indexOf(ERRORS_END);
  if (start < 0 || end < start) throw new Error('docs/native-messaging.md lacks the error-table markers');
  return `${doc.slice(0, start + ERRORS_START.length)}\n${renderErrorTable()}\n${doc.slice(end)}`;
}

const toolsFile = path.resolve(import.meta.dirname, '../docs/tools.md');
const wireFile = path.resolve(import.meta.dirname, '../docs/native-messaging.md');
if (process.argv[1] && import.meta.filename === path.resolve(process.argv[1])) {
  const tools = renderToolsDoc();
  const wire = withErrorTable(readFileSync(wireFile, 'utf8'));
  if (process.argv.includes('--check')) {
    if (readFileSync(toolsFile, 'utf8') !== tools || readFileSync(wireFile, 'utf8') !== wire) {
      process.stderr.write('generated docs are stale: run npx tsx scripts/tools-doc.ts\n');
      process.exit(1);
    }
  } else {
    writeFileSync(toolsFile, tools);
    writeFileSync(wireFile, wire);
  }
}
