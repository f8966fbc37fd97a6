// Pushes from content scripts, page → hub (docs/bridge.md): a bridge message the top document of a tab posted. The
// background checks each one again — its shape, that it comes from our own content script in the top frame of a tab
// the person shared, and a rate per tab — then forwards it to the hub as a `page_message` event. A content script is
// page-facing code, so nothing it sends is trusted: a hostile page cannot flood the native port past these bounds.
// Counterpart: extension/content/bridge.ts.
import { TokenBucket } from 'limiter';
import { BRIDGE_LIMITS, jsonBytes, type PagePush } from '../../shared/bridge.js';
import { post } from './native.js';
import { originOf } from '../consent/rules.js';
import { isShared } from './sharing.js';

/** Per tab: the rate buckets and the messages refused since the last one forwarded. */
interface TabBudget {
  messages: TokenBucket;
  bytes: TokenBucket;
  skipped: number;
}

const budgets = new Map<number, TabBudget>();
/** Forwarding, one push after another, so messages reach the hub in the order the page posted them. */
let forwarding: Promise<void> = Promise.resolve();

/** A full bucket: the `limiter` package starts its buckets empty. */
function fullBucket(size: number, perSecond: number): TokenBucket {
  const bucket = new TokenBucket({ bucketSize: size, tokensPerInterval: perSecond, interval: 'second' });
  bucket.content = size;
  return bucket;
}

function budgetOf(tab: number): TabBudget {
  let budget = budgets.get(tab);
  if (!budget) {
    budget = { messages: fullBucket(BRIDGE_LIMITS.burstMessages, BRIDGE_LIMITS.messagesPerSecond), bytes: fullBucket(BRIDGE_LIMITS.burstBytes, BRIDGE_LIMITS.bytesPerSecond), skipped: 0 };
    budgets.set(tab, budget);
  }
  return budget;
}

/** Forgets a closed tab's budget. */
export function forgetPushes(tab: number): void {
  budgets.delete(tab);
}

/**
 * Takes one content push (side message `page_push`, validated on arrival: extension/side-channel.ts). Answers at once
 * (so the content script can tell a lost push from a delivered one) and forwards asynchronously.
 */
export function acceptPush(push: PagePush, sender: chrome.runtime.MessageSender): null {
  const tab = sender.tab?.id;
  // Our own content script, in the top frame of a tab; the bridge is the top document's.
  if (tab === undefined || sender.frameId !== 0) return null;
  const budget = budgetOf(tab);
  budget.skipped += push.skipped;
  const bytes = jsonBytes(push.data);
  if (bytes > BRIDGE_LIMITS.messageBytes || !budget.messages.tryRemoveTokens(1) || !budget.bytes.tryRemoveTokens(bytes)) {
    budget.skipped++;
    return null;
  }
  const skipped = budget.skipped;
  budget.skipped = 0;
  forwarding = forwarding
    .then(async () => {
      // A tab that is not shared has no session: its messages, and what it refused, go nowhere.
      if (!(await isShared(tab))) return;
      post({ t: 'event', event: { kind: 'page_message', tab, document: push.document, origin: originOf(sender.url ?? ''), data: push.data, skipped } });
    })
    .catch(() => undefined);
  return null;
}
