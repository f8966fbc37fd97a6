// Action handlers (click, type, wait_for, extract, extract_rows, and the element rectangle screenshots crop by)
// contributed to the content operation table.
import type { ContentHandlers } from '../handlers.js';
import { click } from './click.js';
import { extract } from './extract.js';
import { elementRect } from './rect.js';
import { extractRows } from './rows.js';
import { type } from './type.js';
import { waitFor } from './wait.js';

export const actionHandlers: ContentHandlers = {
  click,
  type,
  wait_for: waitFor,
  extract,
  extract_rows: extractRows,
  element_rect: elementRect,
};
