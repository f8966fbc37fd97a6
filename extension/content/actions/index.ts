// Action handlers (click, type, select_options, press_key, hover, scroll, drag, upload, wait_for, extract,
// extract_rows, the element rectangle screenshots crop by) contributed to the content
// operation table.
import type { ContentHandlers } from '../handlers.js';
import { click } from './click.js';
import { drag } from './drag.js';
import { extract } from './extract.js';
import { hover } from './hover.js';
import { pressKey } from './press.js';
import { elementRect } from './rect.js';
import { extractRows } from './rows.js';
import { scroll } from './scroll.js';
import { selectOptions } from './select.js';
import { type } from './type.js';
import { upload } from './upload.js';
import { waitFor } from './wait.js';

export const actionHandlers: ContentHandlers = {
  click,
  type,
  select_options: selectOptions,
  press_key: pressKey,
  hover,
  scroll,
  drag,
  upload,
  wait_for: waitFor,
  extract,
  extract_rows: extractRows,
  element_rect: elementRect,
};
