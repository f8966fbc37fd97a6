// The page-world script as registered by host (extension/background/page-hooks.ts): documents of a host a shared tab
// shows load it before their own scripts, in shared and unshared tabs alike. It first checks, reading one session
// storage key and touching nothing else of the page, whether its tab is shared, and does nothing when it is not
// (docs/architecture.md, "What a page can see").
import { SHARED_MARK } from '../../shared/page-channel.js';
import { installPageWorld } from './install.js';

/** Whether the background marked this tab shared in its session storage (per tab and origin, HTML "sessionStorage"). */
function tabShared(): boolean {
  try {
    return window.sessionStorage.getItem(SHARED_MARK) === '1';
  } catch {
    // Storage refused (a sandboxed or storage-blocked document): not known to be shared.
    return false;
  }
}

if (tabShared()) installPageWorld();
