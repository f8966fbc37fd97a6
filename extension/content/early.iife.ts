// Oriel's early watcher: the one script the manifest declares, in every frame of every tab (isolated world,
// document_start). It keeps the two facts about a page that only a watcher present from the start can know, for a tab
// shared later (docs/redaction.md, "Before sharing"): the secret fields a form submitted (their values are then in
// the URL, which Oriel must show without them), told to the background at once; and the fields that stopped being
// secret or took a secret field's place ("show password"), kept until the content script arrives and takes them
// (./secret-watch.ts). It adds nothing a page can see (isolated-world listeners and observers are invisible to pages)
// and stays a few KB, so a page that is never shared pays almost nothing (docs/architecture.md, "What a page can see").
import { CONTENT_MARK, EARLY_MARK, marks } from './marks.js';
import { FLIP_OPTIONS, SECRET_CANDIDATES, judgeSecret, takersOfSecretPlaces, wasSecretBefore } from './secret-rule.js';
import { watchSecretSubmissions } from './form-watch.js';

/** Most fields kept; beyond it the oldest go (a page flipping thousands of fields is not a login form). */
const MAX_FLIPPED = 1_000;

/** Whether a live content script of this extension already watches this frame (it ran first). */
function contentScriptLive(): boolean {
  try {
    return marks[CONTENT_MARK]?.() === true;
  } catch {
    return false;
  }
}

if (!contentScriptLive()) {
  // An early watcher of an earlier install of the extension may be here already: its facts are taken over too.
  const inherited = marks[EARLY_MARK]?.handOver() ?? [];
  const flipped = new WeakSet<Element>();
  let refs: Array<WeakRef<Element>> = [];
  const keep = (el: Element): void => {
    if (flipped.has(el)) return;
    flipped.add(el);
    refs.push(new WeakRef(el));
    if (refs.length > MAX_FLIPPED) refs = refs.filter((r) => r.deref() !== undefined).slice(-MAX_FLIPPED);
  };
  const secret = (el: Element): boolean => flipped.has(el) || judgeSecret(el, (n) => el.getAttribute(n));
  const holdsSecret = (el: Element): boolean =>
    secret(el) || Array.from(el.querySelectorAll(SECRET_CANDIDATES)).some(secret) || refs.some((r) => el.contains(r.deref() ?? null));
  const note = (records: MutationRecord[]): void => {
    // Flips first: a field flipped, then replaced, was secret.
    for (const r of records) {
      const el = wasSecretBefore(r);
      if (el) keep(el);
    }
    takersOfSecretPlaces(records, holdsSecret).forEach(keep);
  };
  inherited.forEach(keep);
  const observer = new MutationObserver(note);
  observer.observe(document, FLIP_OPTIONS);
  const stopForms = watchSecretSubmissions((el) => {
    note(observer.takeRecords()); // a field flipped in the task that submits it
    return secret(el);
  });
  marks[EARLY_MARK] = {
    handOver() {
      note(observer.takeRecords());
      observer.disconnect();
      stopForms();
      delete marks[EARLY_MARK];
      return refs.map((r) => r.deref()).filter((el): el is Element => el !== undefined);
    },
  };
}
