// Whether an agent may read what a shared tab gave it earlier (a downloaded file, a result kept as a resource link):
// docs/tools.md, "downloads" and "Results as resource links". Used by context.ts and resources.ts.
import type { Hub } from '../hub/hub.js';
import { orielError } from '../../shared/errors.js';

/**
 * Reading `what`, which came from session `session` while it showed `origin`, is reading that origin: the tab must
 * still be shared and connected, show that origin, and hold an allowance there (sharing's own included) with no
 * denial of reading. Asks nobody: a read the person did not allow fails.
 * @throws OrielError `permission_denied`.
 */
export function mayReadOrigin(hub: Hub, session: string, origin: string, what: string): void {
  const s = hub.sessions.get(session);
  if (!s || !s.connected || s.info.origin !== origin) {
    throw orielError('permission_denied', `Reading ${what} is reading ${origin}: the tab it came from is no longer shared or shows another site now.`, { next: 'navigate the tab back to that site, or ask the user to share it again' });
  }
  const grants = s.info.grants ?? [];
  const allowed = grants.some((g) => g.effect === 'allow' && !g.exact_code) && !grants.some((g) => g.effect === 'deny' && g.capability === 'read');
  if (!allowed) throw orielError('permission_denied', `The user has not allowed reading ${origin}.`, { next: 'snapshot the tab first (the user is asked), then read again' });
}
