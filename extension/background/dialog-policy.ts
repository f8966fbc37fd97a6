// The standing answer of each shared tab to the JavaScript dialogs no call answers (shared/act.ts DialogPolicy,
// docs/tools.md "Dialogs"): an acting call's `dialog_policy` sets it, every later acting call of the tab carries it to
// the page (extension/content/dialogs.ts), and it ends with the tab's sharing. Kept in session storage, so a restarted
// background keeps it.
import type { DialogAnswer, DialogPolicy } from '../../shared/act.js';
import { onSharingChanged, sharedTabIds } from './sharing.js';

const KEY = 'dialogPolicies';

async function read(): Promise<Record<string, DialogAnswer>> {
  const stored = (await chrome.storage.session.get(KEY))[KEY] as unknown;
  return stored && typeof stored === 'object' ? (stored as Record<string, DialogAnswer>) : {};
}

/** The tab's standing answer, undefined when none was set. */
export async function dialogPolicyOf(tab: number): Promise<DialogAnswer | undefined> {
  return (await read())[String(tab)];
}

/** Changes to the stored answers, one after another (each reads what the one before wrote). */
let writes: Promise<void> = Promise.resolve();

function update(change: (all: Record<string, DialogAnswer>) => boolean): Promise<void> {
  const run = async () => {
    const all = await read();
    if (change(all)) await chrome.storage.session.set({ [KEY]: all });
  };
  writes = writes.then(run, run);
  return writes;
}

function setPolicy(tab: number, policy: DialogPolicy): Promise<void> {
  return update((all) => {
    if (policy === 'default') delete all[String(tab)];
    else all[String(tab)] = policy;
    return true;
  });
}

/**
 * The arguments an acting call of `tab` runs with: a `dialog_policy` it gives becomes the tab's (and goes on to the
 * page as given); without one, the tab's standing answer is added, so the page answers as the tab was told.
 */
export async function withDialogPolicy<A extends { dialog_policy?: DialogPolicy }>(tab: number, args: A): Promise<A> {
  const given = args.dialog_policy;
  if (given !== undefined) {
    await setPolicy(tab, given);
    return args;
  }
  const standing = await dialogPolicyOf(tab);
  return standing ? { ...args, dialog_policy: standing } : args;
}

// A tab that stops being shared forgets its answer: sharing it again starts a new session.
onSharingChanged(() => {
  void sharedTabIds().then((shared) => {
    const keep = new Set(shared.map(String));
    return update((all) => {
      const stale = Object.keys(all).filter((t) => !keep.has(t));
      for (const t of stale) delete all[t];
      return stale.length > 0;
    });
  });
});
