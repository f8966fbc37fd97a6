// Action handlers (click, type, wait_for, extract, extract_rows) contributed to the content operation table.
import type { ContentHandler } from '../handlers.js';
import { click } from './click.js';
import { type } from './type.js';

export const actionHandlers: Record<string, ContentHandler> = { click, type };
