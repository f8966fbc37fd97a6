// Downloads an agent's action started in a shared tab, as the background reports them to the hub (a `download` event)
// and as the `downloads` tool shows them. Browser side: extension/background/downloads.ts; broker side:
// broker/hub/downloads.ts and broker/mcp/tools/downloads.ts. Documented in docs/tools.md ("downloads").
import { z } from 'zod';

/**
 * The folder agents' downloads go to: one folder name inside the browser's downloads folder (extensions can write
 * nowhere else), letters, digits, space, `.`, `_` and `-`, not starting with a dot. '' means downloads are off.
 */
export const DOWNLOAD_FOLDER_PATTERN = /^[A-Za-z0-9_-][A-Za-z0-9 ._-]{0,63}$/;

/** Whether `name` is a usable agents' download folder name ({@link DOWNLOAD_FOLDER_PATTERN}). */
export function isDownloadFolderName(name: string): boolean {
  return DOWNLOAD_FOLDER_PATTERN.test(name) && !name.endsWith('.') && !name.endsWith(' ');
}

/**
 * One download as the background knows it. `state`: the browser's (`in_progress`, `complete`, `interrupted`), or
 * `refused` when no folder is chosen (the browser's download was cancelled and nothing was saved). `path` is the file's
 * absolute path once the browser chose it, for the broker only (never shown to agents); `folder` the folder name it
 * was saved under. Sizes in bytes; `total` is absent while unknown. `started`: ms since the Unix epoch.
 */
export const DownloadInfoSchema = z.object({
  id: z.string().max(40),
  tab: z.number().int(),
  /** The agent's page call in whose window the download started. */
  call: z.number().int().optional(),
  /** Origin of the page that started it (reading the file counts as reading this origin). */
  origin: z.string().max(2000),
  url: z.string().max(2000),
  file: z.string().max(300),
  mime: z.string().max(200),
  state: z.enum(['in_progress', 'complete', 'interrupted', 'refused']),
  bytes: z.number().int().nonnegative(),
  total: z.number().int().nonnegative().optional(),
  path: z.string().max(4096).optional(),
  folder: z.string().max(64).optional(),
  /** Why it was interrupted or refused (the browser's reason, or `no_folder`). */
  error: z.string().max(200).optional(),
  started: z.number(),
});
export type DownloadInfo = z.infer<typeof DownloadInfoSchema>;

/** A download as agents see it: no filesystem path, its session instead of the tab. */
export interface DownloadView {
  id: string;
  session: string;
  origin: string;
  url: string;
  file: string;
  mime: string;
  state: DownloadInfo['state'];
  bytes: number;
  total?: number;
  /** The folder name inside the browser's downloads folder, when saved for agents. */
  folder?: string;
  error?: string;
  started: string;
}

/** URLs shown to agents: a data: URL's content is left out, others are cut at 300 characters. */
export function shownDownloadUrl(url: string): string {
  if (url.startsWith('data:')) return `${url.slice(0, Math.max(5, url.indexOf(',') + 1)).slice(0, 60)}…`;
  return url.length > 300 ? `${url.slice(0, 300)}…` : url;
}
