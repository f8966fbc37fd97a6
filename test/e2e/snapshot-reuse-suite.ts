// The randomized reuse test (docs/architecture.md, "Warm snapshots"): a page over real HTTP in a shared tab is changed
// step by step from a seed — inserts, removals, attributes (`data-*` and `aria-*` ones among them), classes (some no
// sheet names), inline styles, text, form values and checkedness, scrolling (of the window alone, past fixed and sticky
// boxes, often), elements made fixed, sticky or absolute or static again, shadow roots, frames, style sheet rules
// (user-action pseudo-classes among them), focus, and real pointer moves and clicks — and after each step, once the page
// has settled (laid out and drawn two frames), the warm snapshot (reusing what earlier walks read) must equal a snapshot
// read afresh, through the real chain in one browser per file. The fresh one is asked for through the extension's
// private diagnostic switch (`freshWalks` in its local storage), which only the extension's own pages can set.
// ORIEL_REUSE_SEED=<n> replays a run; ORIEL_REUSE_STEPS=<n> sets its length. An attempt that fails writes its seed,
// step and outline difference to stderr, which vitest shows even when a retry then passes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import type { BrowserKind } from './harness.js';
import { body, snapshotSession, type SnapSession } from './snapshot-setup.js';

const STEPS = Number(process.env.ORIEL_REUSE_STEPS) || 250;

/** A small seeded generator (mulberry32): the same seed gives the same run of steps. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What one step does, decided test-side from the seed and applied in the page (all of it plain DOM/CSSOM calls). */
type Step = { op: string; a: number; b: number; c: number };

const OPS = ['insert', 'remove', 'attribute', 'class', 'style', 'text', 'value', 'checked', 'select', 'scroll', 'shadow', 'frame', 'sheet', 'focus', 'hover', 'click', 'window', 'window', 'pin'];

/**
 * A real pointer move to, or click at, the centre of an element the step picks (a checkbox, a button, a label, a
 * paragraph …: nothing that navigates), through the browser's input pipeline: hover, active and focus states change
 * with no DOM mutation, and a click ticks a checkbox.
 */
async function pointer(page: Page, step: Step): Promise<Point | undefined> {
  const at = await page.evaluate((s: Step) => {
    const pick = <T,>(list: ArrayLike<T>, r: number): T | undefined => (list.length ? list[Math.floor(r * list.length)] : undefined);
    const el = pick(Array.from(document.querySelectorAll('#root input[type="checkbox"], #root button, #root label, #root p, #root h2, #root .pointer, #root .cover')), s.a);
    const r = el?.getBoundingClientRect();
    const x = r ? r.left + r.width / 2 : s.b * innerWidth;
    const y = r ? r.top + r.height / 2 : s.c * innerHeight;
    // Outside the viewport: a click is left out (a point met by chance could be a link), a move goes to a point in it.
    return x > 0 && y > 0 && x < innerWidth && y < innerHeight ? { x, y } : s.op === 'click' ? null : { x: Math.floor(s.b * innerWidth), y: Math.floor(s.c * innerHeight) };
  }, step);
  if (!at) return undefined;
  if (step.op === 'click') await page.mouse.click(at.x, at.y);
  else await page.mouse.move(at.x, at.y);
  return at;
}

/** A point in the viewport, in CSS pixels. */
type Point = { x: number; y: number };

/**
 * Applies a step in the page; resolves once what it started has settled (a frame has loaded), with where a pointer
 * step left the pointer.
 */
async function apply(page: Page, step: Step, frameUrl: string): Promise<Point | undefined> {
  if (step.op === 'hover' || step.op === 'click') return pointer(page, step);
  await page.evaluate(
    async (s: Step, frameUrl: string) => {
      const root = document.getElementById('root')!;
      const pick = <T,>(list: ArrayLike<T>, r: number): T | undefined => (list.length ? list[Math.floor(r * list.length)] : undefined);
      const all = () => Array.from(root.querySelectorAll('*')).filter((e) => !e.closest('iframe'));
      const shadows = () => Array.from(document.querySelectorAll('[data-shadow], #host')).map((h) => h.shadowRoot).filter((r): r is ShadowRoot => r !== null);
      /** Elements of the light DOM and of the open shadow roots. */
      const everywhere = () => [...all(), ...shadows().flatMap((r) => Array.from(r.querySelectorAll('*')))];
      const n = Math.floor(s.c * 1000);
      switch (s.op) {
        case 'insert': {
          const at = pick(everywhere().filter((e) => !['input', 'select', 'textarea', 'option', 'br', 'iframe', 'slot'].includes(e.localName)), s.a) ?? root;
          const kinds = [
            `<button type="button">New ${n}</button>`,
            `<a href="/n${n}">Link ${n}</a>`,
            `<p>Text ${n} <i>more</i></p>`,
            `<li class="sib">Item ${n}</li>`,
            `<label><input type="checkbox"> Box ${n}</label>`,
            `<div class="pointer">Click ${n}</div>`,
            `<label for="t${n}">Field ${n}</label><input id="t${n}" type="text" value="v${n}">`,
            `<div class="flag">Flag ${n}</div>`,
            `<span id="s2name">Renamed ${n}</span>`,
            `<div class="cover">Cover ${n}</div>`,
          ];
          const t = document.createElement('template');
          t.innerHTML = pick(kinds, s.b)!;
          const before = pick(Array.from(at.childNodes), s.c) ?? null;
          at.insertBefore(t.content, before);
          return;
        }
        case 'remove': {
          // Not the fixture's pinned control and its clipping box either: other steps hide and position them.
          const el = pick(everywhere().filter((e) => !['section', 'h2', 'iframe'].includes(e.localName) && e.id !== 'host' && e.id !== 'scroller' && !e.closest('#pinbox')), s.a);
          el?.remove();
          return;
        }
        case 'attribute': {
          const el = pick(everywhere(), s.a);
          if (!el) return;
          const attrs: Array<[string, string | null]> = [
            ['aria-label', `Label ${n}`], ['aria-label', null], ['hidden', ''], ['hidden', null], ['aria-hidden', 'true'], ['aria-hidden', null],
            ['title', `Title ${n}`], ['role', 'button'], ['role', null], ['tabindex', '0'], ['tabindex', null], ['disabled', ''], ['disabled', null],
            ['aria-expanded', 'true'], ['id', 's2name'], ['id', `i${n}`], ['aria-labelledby', 's2name'], ['draggable', 'true'], ['inert', ''], ['inert', null],
            // `data-n` no sheet names; `data-flag` one sheet rule may hide.
            ['data-n', String(n)], ['data-n', null], ['data-flag', ''], ['data-flag', null],
          ];
          const [name, value] = pick(attrs, s.b)!;
          if (value === null) el.removeAttribute(name);
          else el.setAttribute(name, value);
          return;
        }
        case 'class': {
          const el = pick(everywhere(), s.a);
          // `plain` and `changed` no sheet names.
          el?.classList.toggle(pick(['hide', 'ghost', 'pointer', 'clip', 'big', 'flag', 'mark', 'kid', 'sib', 'plain', 'changed'], s.b)!);
          return;
        }
        case 'style': {
          const el = pick(everywhere(), s.a) as HTMLElement | undefined;
          if (!el) return;
          const styles: Array<[string, string]> = [
            ['display', 'none'], ['display', ''], ['opacity', '0'], ['opacity', ''], ['visibility', 'hidden'], ['visibility', ''], ['position', 'fixed'],
            ['position', 'sticky'], ['position', 'absolute'], ['position', ''], ['width', '0px'], ['width', ''], ['pointer-events', 'none'], ['pointer-events', ''],
            ['content-visibility', 'auto'], ['content-visibility', ''],
          ];
          const [p, v] = pick(styles, s.b)!;
          el.style.setProperty(p, v);
          return;
        }
        case 'text': {
          const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
          const texts: Text[] = [];
          for (let t = walker.nextNode(); t; t = walker.nextNode()) if ((t as Text).data.trim()) texts.push(t as Text);
          const t = pick(texts, s.a);
          // Short text (its box often stays as it was: ../../extension/content/snapshot/text-moves.ts), or lines of it.
          if (t) t.data = s.b < 0.6 ? `Changed ${n}` : `Changed ${n} `.repeat(40);
          return;
        }
        case 'value': {
          const el = pick(everywhere().filter((e): e is HTMLInputElement | HTMLTextAreaElement => (e.localName === 'input' && (e as HTMLInputElement).type === 'text') || e.localName === 'textarea'), s.a);
          if (el) el.value = `typed ${n}`;
          return;
        }
        case 'checked': {
          const el = pick(everywhere().filter((e): e is HTMLInputElement => e.localName === 'input' && (e as HTMLInputElement).type === 'checkbox'), s.a);
          if (el) el.checked = !el.checked;
          return;
        }
        case 'select': {
          const el = pick(everywhere().filter((e): e is HTMLSelectElement => e.localName === 'select'), s.a);
          if (el) el.selectedIndex = Math.floor(s.b * el.options.length);
          return;
        }
        case 'scroll': {
          if (s.b < 0.5) window.scrollTo(0, Math.floor(s.a * document.documentElement.scrollHeight));
          else document.getElementById('scroller')?.scrollTo(0, Math.floor(s.a * 300));
          // Scrolling is applied before the next frame; the snapshot comes after it.
          await new Promise((r) => requestAnimationFrame(() => r(undefined)));
          return;
        }
        case 'window': {
          // The window alone scrolls, by less than a viewport or by more, either way: boxes keep their place in the
          // document but fixed and sticky ones (and what they hold), and controls come into the viewport or leave it.
          window.scrollBy(0, Math.round((s.b - 0.5) * (s.a < 0.5 ? innerHeight : 3 * innerHeight)));
          await new Promise((r) => requestAnimationFrame(() => r(undefined)));
          return;
        }
        case 'pin': {
          // Positioned as the flow puts it, or fixed, sticky or absolute again: the sticky bar, the band that covers
          // and the pinned control in its clipping box all at once (then nothing may be fixed or sticky), one of
          // them, or any element.
          const pinned = Array.from(document.querySelectorAll<HTMLElement>('#bar, #cover, #pinbox > button'));
          if (s.b < 0.3) {
            for (const e of pinned) e.style.setProperty('position', s.c < 0.5 ? 'static' : e.id === 'bar' ? 'sticky' : 'fixed');
            return;
          }
          const el = (s.b < 0.6 ? pick(pinned, s.a) : pick(everywhere(), s.a)) as HTMLElement | undefined;
          if (!el) return;
          const now = getComputedStyle(el).position;
          el.style.setProperty('position', now === 'static' || now === 'relative' ? pick(['fixed', 'sticky', 'absolute'], s.c)! : 'static');
          if (s.c < 0.3) el.style.setProperty('top', `${Math.floor(s.c * 400)}px`);
          return;
        }
        case 'shadow': {
          const roots = shadows();
          if (s.b < 0.4 || roots.length === 0) {
            const host = document.createElement('div');
            host.dataset.shadow = '1';
            host.attachShadow({ mode: 'open' }).innerHTML = `<h3>Shadow ${n}</h3><button type="button">In shadow ${n}</button><slot></slot>`;
            host.textContent = `Slotted ${n}`;
            const at = pick(all().filter((e) => e.localName === 'section'), s.a) ?? root;
            at.append(host);
          } else {
            const r = pick(roots, s.a)!;
            const b = document.createElement('button');
            b.type = 'button';
            b.textContent = `Shadow added ${n}`;
            if (s.c < 0.5) r.append(b);
            else r.querySelector('button')?.remove();
          }
          return;
        }
        case 'frame': {
          const frames = Array.from(document.querySelectorAll('iframe'));
          if (s.b < 0.5 && frames.length) {
            pick(frames, s.a)!.remove();
            return;
          }
          const f = document.createElement('iframe');
          f.title = `Frame ${n}`;
          f.src = frameUrl;
          const loaded = new Promise((r) => f.addEventListener('load', r, { once: true }));
          // The last section (#s4 in the fixture) by its place: an `attribute` step may have given it another id.
          root.querySelector(':scope > section:last-of-type')!.append(f);
          await loaded;
          return;
        }
        case 'sheet': {
          const sheet = (document.getElementById('sheet') as HTMLStyleElement).sheet!;
          const rules: string[] = [
            '.box h2 { display: none; }', '.box li { visibility: hidden; }', 'button { opacity: 0; }', 'a { cursor: pointer; }', '#s3 { display: none; }',
            '[data-flag] { display: none; }', '.box:hover li { visibility: hidden; }', ':focus + * { display: none; }', '.changed { font-size: 40px; }',
          ];
          if (s.b < 0.5 && sheet.cssRules.length > 12) sheet.deleteRule(sheet.cssRules.length - 1);
          else if (s.b < 0.8) sheet.insertRule(pick(rules, s.a)!, sheet.cssRules.length);
          else {
            const rule = sheet.cssRules[Math.floor(s.a * sheet.cssRules.length)] as CSSStyleRule | undefined;
            // A rule's declaration changed in place: no DOM mutation at all.
            rule?.style?.setProperty('display', rule.style.getPropertyValue('display') === 'none' ? '' : 'none');
          }
          return;
        }
        case 'focus': {
          const el = pick(everywhere().filter((e) => (e as HTMLElement).tabIndex >= 0), s.a) as HTMLElement | undefined;
          if (el) el.focus();
          else (document.activeElement as HTMLElement | null)?.blur();
          return;
        }
      }
    },
    step,
    frameUrl,
  );
}

/**
 * Resolves once the page has laid out what a step changed, the pointer (where a pointer step left it, `at`) has been
 * moved away and back, and two frames have been drawn. Content that moves or scrolls under a pointer that stays put
 * changes what it hovers only later: the engines synthesize a mouse move after layout at a later frame, and after
 * scrolling later still (in Firefox, past two frames). Without this, the hover state, and all a `:hover` rule hides, could change between
 * the warm snapshot and the fresh one: two true readings of two different pages (in Firefox, seed 882091179 steps
 * 212/219/220 and seed 2051168562 step 89: focus and select steps moved content, and by the fresh reading the pointer
 * was over another section). The move again is a real one through the input pipeline: the page gets the same
 * `mouseover`/`pointerover` events a synthesized move would send, at once.
 */
async function settled(page: Page, at: Point | undefined): Promise<void> {
  await page.evaluate(() => void document.documentElement.getBoundingClientRect());
  if (at) {
    // Away by a pixel and back: a move to where the pointer already is sends nothing (WebDriver's pointerMove).
    await page.mouse.move(at.x + 1, at.y);
    await page.mouse.move(at.x, at.y);
  }
  await page.evaluate(async () => {
    for (let i = 0; i < 2; i++) await new Promise((r) => requestAnimationFrame(r));
  });
}

/** Runs the randomized reuse-versus-fresh comparison in `kind`. */
export function reuseSuite(kind: BrowserKind): void {
  describe(`warm snapshots against fresh ones in ${kind}`, () => {
    let s: SnapSession;
    beforeAll(async () => {
      s = await snapshotSession(kind);
    });
    afterAll(async () => {
      await s?.close();
    });

    let options: Page | undefined;
    /** Sets the extension's private switch for fresh walks from its options page (opened once, then left behind). */
    async function freshWalks(on: boolean): Promise<void> {
      options ??= await s.rig.options();
      await options.evaluate((v) => chrome.storage.local.set({ freshWalks: v }), on);
    }

    it('sees controls that new text pushed under a cover, and those it did not move', { timeout: 60_000 }, async () => {
      await s.load('reuse.html');
      await freshWalks(false);
      await s.page.bringToFront();
      const before = body(await s.snapshot({ max_chars: 200_000 }));
      // A block's text grows by lines: the controls after it move down into the band #cover lies over.
      await s.page.evaluate(() => {
        document.querySelector('#s1 p')!.firstChild!.textContent = 'Grown '.repeat(120);
      });
      const warm = body(await s.snapshot({ max_chars: 200_000 }));
      await freshWalks(true);
      const fresh = body(await s.snapshot({ max_chars: 200_000 }));
      await freshWalks(false);
      expect(fresh.match(/\bcovered\b/g)?.length ?? 0, 'the grown text moves some control under the cover').not.toBe(before.match(/\bcovered\b/g)?.length ?? 0);
      expect(warm).toBe(fresh);
      // Short text in the same block leaves its box, and every other box, where they were.
      await s.page.evaluate(() => {
        document.querySelector('#s1 p')!.firstChild!.textContent = 'Short ';
      });
      const warmShort = body(await s.snapshot({ max_chars: 200_000 }));
      await freshWalks(true);
      const freshShort = body(await s.snapshot({ max_chars: 200_000 }));
      await freshWalks(false);
      expect(warmShort).toBe(freshShort);
    });

    it(`gives the same outline as a fresh walk after each of ${STEPS} random changes`, { timeout: Math.max(240_000, STEPS * 1_000) }, async ({ onTestFailed, task }) => {
      const seed = Number(process.env.ORIEL_REUSE_SEED) || Math.floor(Math.random() * 2 ** 31);
      const random = generator(seed);
      let at = -1;
      let last: Step | undefined;
      // Whatever ends an attempt (a differing outline, a timeout, a failed call), its seed and step go to stderr as it
      // fails: vitest shows a test's console output in every run, where a failed attempt's errors vanish once a retry
      // (vitest.config.ts, under CI) passes.
      onTestFailed(() => {
        const errors = (task.result?.errors ?? []).map((e) => `${e.message}${e.diff ? `\n${e.diff}` : ''}`).join('\n');
        console.error(
          `[snapshot-reuse ${kind}] attempt ${(task.result?.retryCount ?? 0) + 1} failed: ORIEL_REUSE_SEED=${seed} ORIEL_REUSE_STEPS=${STEPS}, ` +
            `at step ${at} ${JSON.stringify(last)}\n${errors}`,
        );
      });
      await s.load('reuse.html');
      // The options page opens once, then stays behind the shared tab: switching tabs at each step would blur the page,
      // which voids every reading (focus styles) and would leave nothing to test.
      await freshWalks(false);
      await s.page.bringToFront();
      const frameUrl = `${s.a}/frame-child.html`;
      let pointerAt: Point | undefined;
      for (let i = 0; i < STEPS; i++) {
        const step: Step = { op: OPS[Math.floor(random() * OPS.length)]!, a: random(), b: random(), c: random() };
        at = i;
        last = step;
        pointerAt = (await apply(s.page, step, frameUrl)) ?? pointerAt;
        await settled(s.page, pointerAt);
        const warm = await s.snapshot({ max_chars: 200_000 });
        await freshWalks(true);
        const fresh = await s.snapshot({ max_chars: 200_000 });
        await freshWalks(false);
        if (body(warm) !== body(fresh)) {
          // The seed and the step replay the failure (ORIEL_REUSE_SEED).
          expect.soft(body(warm), `seed ${seed}, step ${i}: ${JSON.stringify(step)}`).toBe(body(fresh));
          throw new Error(`warm and fresh outlines differ: ORIEL_REUSE_SEED=${seed}, step ${i} (${step.op})`);
        }
      }
    });
  });
}
