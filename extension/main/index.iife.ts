// The one MAIN-world script (every frame, document_start, before the page's own scripts): the page-facing halves of
// Oriel's features, one module each. It runs with the page's privileges and holds nothing an agent or the person
// entrusted to Oriel; the content script (extension/content/) talks to it only through the events of
// shared/page-channel.ts and treats all it hears as page content.
import { installBridge } from './bridge.js';
import { installDialogs } from './dialogs.js';
import { installInternals } from './internals.js';
import { installModelContext } from './webmcp.js';

installDialogs();
installBridge();
installModelContext();
installInternals();
