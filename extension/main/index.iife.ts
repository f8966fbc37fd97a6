// The one page-world script (MAIN world): the page-facing halves of Oriel's features, one module each. Only shared tabs
// receive it — extension/background/page-hooks.ts injects it into their documents as early as the browser allows — so
// a page in a tab that is not shared sees nothing of Oriel (docs/architecture.md, "What a page can see"). It runs with
// the page's privileges and holds nothing an agent or the person entrusted to Oriel; the content script
// (extension/content/) talks to it only through the events of shared/page-channel.ts and treats all it hears as page
// content.
import { installBridge } from './bridge.js';
import { installDialogs } from './dialogs.js';
import { installInternals } from './internals.js';
import { greetContentScript } from './hello.js';
import { installModelContext } from './webmcp.js';

// A document gets this script once: a second injection (the tab shared while the document was loading, a background
// that restarted and injects again) finds it there and does nothing.
if (greetContentScript()) {
  installDialogs();
  installBridge();
  installModelContext();
  installInternals();
}
