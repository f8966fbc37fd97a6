// Every MCP tool Oriel registers, in the order clients list them. Add a tool here once it works end to end.
import type { ToolDefinition } from './types.js';
import { listSessions } from './sessions.js';
import { snapshot } from './snapshot.js';
import { click } from './click.js';
import { navigate } from './navigate.js';
import { type, selectOptions } from './input.js';
import { pressKey } from './keyboard.js';
import { hover, scroll, drag } from './pointer.js';
import { upload } from './upload.js';
import { downloads } from './downloads.js';
import { waitFor, extract, extractRows } from './read.js';
import { evaluate } from './evaluate.js';
import { screenshot } from './screenshot.js';
import { awaitMessage, sendMessage } from './bridge.js';
import { callTabOperation, listTabOperations } from './page-tools.js';
import { acquireLease, releaseLease } from './lease.js';

export const TOOLS: readonly ToolDefinition[] = [
  listSessions,
  snapshot,
  click,
  navigate,
  type,
  selectOptions,
  pressKey,
  hover,
  scroll,
  drag,
  upload,
  downloads,
  waitFor,
  extract,
  extractRows,
  evaluate,
  screenshot,
  sendMessage,
  awaitMessage,
  acquireLease,
  releaseLease,
  listTabOperations,
  callTabOperation,
];
