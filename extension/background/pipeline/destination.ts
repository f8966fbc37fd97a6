// Where an agent's click or key would take the tab, read from the target frame before the call acts, so the consent
// stage can ask about the destination first (docs/architecture.md, "Consent": navigation is an act on the destination).
import { activationOf, elementOf } from '../../../shared/ops.js';
import { originOf } from '../../consent/rules.js';
import { sendToFrame } from '../frames.js';
import { secretParams } from '../secret-params.js';
import { redactionOf, type CallState } from './types.js';

/**
 * The http(s) origin the call's element leads to when it differs from the origin of the frame it is in, else
 * undefined. A target that cannot be read now (a selector still to appear, a frame mid-navigation) leads nowhere known:
 * the network guard (../nav-guard.ts) still stops a navigation to an origin without a grant.
 */
export async function destinationOrigin(state: CallState): Promise<string | undefined> {
  // The op map says which calls can follow a link or submit a form, and whether they do it as Enter does.
  const how = activationOf(state.op, state.args);
  if (!how) return undefined;
  const t = state.target!;
  const target = elementOf(state.op, state.args);
  if (!target) return undefined;
  try {
    const redaction = redactionOf(state.settings, await secretParams(state.tab));
    const reply = await sendToFrame(state.tab, t.frame, 'destination', { ...target, ...(how === 'enter' && { enter: true }) }, { redaction, budget: { deadline: state.clock.deadline, slack_ms: 0 } });
    const url = reply.value.url;
    if (url === undefined || !/^https?:/i.test(url)) return undefined;
    const origin = originOf(url);
    return origin === t.origin ? undefined : origin;
  } catch {
    return undefined;
  }
}
