// Every MCP tool Oriel registers, in the order clients list them. Add a tool here once it works end to end.
import type { ToolDefinition } from './types.js';
import { listSessions } from './sessions.js';
import { snapshot } from './snapshot.js';
import { click } from './click.js';
import { navigate } from './navigate.js';

export const TOOLS: readonly ToolDefinition[] = [listSessions, snapshot, click, navigate];
