// End-to-end harness: a real browser (Chromium or Firefox) with the built extension, the native host installed by
// `oriel install` into a temporary profile, a private hub, fixture pages over local HTTP, and official MCP clients.
import { cpSync, mkdirSync, mkdtempSync, openSync, closeSync, realpathSync, renameSync, rmSync, existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { execFileSync, spawn } from 'node:child_process';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { Client, type ClientOptions } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { CHROMIUM_EXTENSION_ID, GECKO_ID } from '../../shared/extension-ids.js';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const CLI = path.join(ROOT, 'dist/broker/oriel.mjs');
/**
 * How long the harness waits for a page, popup or browser to show what it waits for, ms. Generous: on a loaded
 * machine those signals come late but do come; only a broken behaviour runs into it.
 */
const SIGNAL_TIMEOUT_MS = 30_000;
export const FIXTURES = path.join(ROOT, 'test/fixtures');
export type BrowserKind = 'chromium' | 'firefox';
export const BROWSERS: BrowserKind[] = (process.env.ORIEL_TEST_BROWSERS ?? 'chromium,firefox').split(',').filter(Boolean) as BrowserKind[];
/** Fixed moz-extension UUID so tests can open the Firefox build's pages. */
const FIREFOX_UUID = '6f1c2a0e-0b7d-4a55-9c1e-0a11e0e1a0e1';

const FIREFOX = '/usr/bin/firefox-esr';

/**
 * A Firefox profile folder Firefox has started on once (made at most once per Firefox build, shared by every test
 * file): Firefox's first start on an empty profile builds its databases, about 1.4 s of every rig's launch here. Each
 * rig starts from a copy of it ({@link firefoxProfile}); what the rig sets (prefs, the extension) it sets as before.
 */
async function firefoxProfileTemplate(): Promise<string> {
  const build = statSync(realpathSync(FIREFOX));
  const dir = path.join(os.tmpdir(), `oriel-firefox-profile-${build.size}-${Math.round(build.mtimeMs)}`);
  if (existsSync(path.join(dir, 'prefs.js'))) return dir;
  const making = mkdtempSync(`${dir}-making-`);
  try {
    const b = await puppeteer.launch({ browser: 'firefox', protocol: 'webDriverBiDi', executablePath: FIREFOX, headless: true, userDataDir: making, args: ['--remote-allow-system-access'] });
    await b.close();
    renameSync(making, dir);
  } catch (err) {
    // Another test runner made it meanwhile (the rename found it there), or Firefox failed to start.
    if (!existsSync(path.join(dir, 'prefs.js'))) throw err;
  } finally {
    rmSync(making, { recursive: true, force: true });
  }
  return dir;
}

/**
 * Makes the folder `profile` a copy of the started-once profile, without its lock, its last session or its prefs
 * (puppeteer keeps a profile's own prefs.js aside while it runs and puts it back when it closes: a copied one would
 * replace, at a restart, the prefs the rig's first run left).
 */
async function firefoxProfile(profile: string): Promise<void> {
  const skip = new Set(['lock', '.parentlock', 'sessionstore.jsonlz4', 'sessionstore-backups', 'user.js', 'prefs.js']);
  cpSync(await firefoxProfileTemplate(), profile, { recursive: true, verbatimSymlinks: true, filter: (from) => !skip.has(path.basename(from)) });
}

/** Serves `dir` over HTTP on 127.0.0.1 with an ephemeral port. Extra routes may answer first. */
export async function serveFixtures(
  dir = FIXTURES,
  routes: Record<string, (req: http.IncomingMessage, res: http.ServerResponse) => void> = {},
): Promise<{ url: string; origin: string; close(): Promise<void> }> {
  const types: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png' };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const route = routes[url.pathname];
    if (route) return route(req, res);
    const file = path.join(dir, path.normalize(decodeURIComponent(url.pathname)).replace(/^(\.\.[/\\])+/, ''));
    if (!file.startsWith(dir) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end('not found');
      return;
    }
    const headers: Record<string, string> = { 'content-type': types[path.extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' };
    const csp = url.searchParams.get('csp');
    if (csp) headers['content-security-policy'] = csp;
    res.writeHead(200, headers).end(readFileSync(file));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return { url: origin, origin, close: () => new Promise((r) => server.close(() => r())) };
}

/** Builds the project once per test run unless ORIEL_SKIP_BUILD=1 (the test script builds first). */
export function ensureBuilt(): void {
  if (existsSync(CLI) && existsSync(path.join(ROOT, 'dist/chrome/manifest.json')) && existsSync(path.join(ROOT, 'dist/firefox/manifest.json'))) return;
  execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
}

/** A running test rig: browser, private Oriel folders, and helpers. */
export interface Rig {
  kind: BrowserKind;
  /** The running browser (another object after {@link restart}). */
  readonly browser: Browser;
  /** Environment for every Oriel process of this rig (private hub socket and data folders). */
  env: Record<string, string>;
  tmp: string;
  /** The extension's own pages live under this URL (chrome-extension://… or moz-extension://…). */
  extensionBase: string;
  /** Where downloads land (the audit log's export). */
  downloads: string;
  /** An extension page (`popup` or `options`), opened as a tab once, kept for the rig's life, brought to the front. */
  extensionPage(name: 'popup' | 'options'): Promise<Page>;
  /** Quits the browser and starts it again on the same profile (same extension id); MCP clients stay connected. */
  restart(): Promise<void>;
  /** Opens `url` in a new tab and waits for it to load. */
  open(url: string): Promise<Page>;
  /** Shares (or unshares) the tab whose URL contains `urlPart`, through the popup's real UI. */
  share(urlPart: string, shared?: boolean): Promise<void>;
  /**
   * Saves the user's redaction settings through the options page's real form (selectors one per line, value limit)
   * and returns what the page says ("Saved." or why not). `direct` writes `settings` straight into storage.local from
   * the options page instead, skipping the form's validation (settings the form would refuse, e.g. an invalid selector).
   */
  setRedaction(selectors: string[], limit?: number, options?: { direct?: boolean }): Promise<string>;
  /**
   * Switches user scripts for Oriel on (or off) the way a person does, so `evaluate` works on pages whose CSP forbids
   * eval. Chromium: flips the real "Allow User Scripts" toggle on Oriel's chrome://extensions page. Firefox: clicks the
   * options page's button, which requests the optional `userScripts` permission; the rig must have been launched with
   * `firefoxPrefs: USER_SCRIPTS_PREFS` so the permission prompt is accepted without a dialog. Returns the options
   * page's state text in Firefox, the toggle row's text in Chromium.
   */
  allowUserScripts(allowed?: boolean): Promise<string>;
  /** The options page (opened once, kept for the rig's life), brought to the front, to change settings as a person does. */
  options(): Promise<Page>;
  /** Connects an official MCP client to `oriel mcp` in the given era. */
  client(era?: 'legacy' | 'modern', name?: string, options?: Omit<ClientOptions, 'versionNegotiation'>): Promise<Client>;
  /** Runs the oriel CLI with this rig's environment; returns stdout. */
  cli(args: string[]): string;
  /** What the CLI printed when it registered the native host, before the browser started. */
  registered: string;
  /** Browsers the hub sees connected right now (0 when the hub is not running). */
  connectedBrowsers(): number;
  /**
   * Stops the extension's background the way the browser itself can. Chromium: closes the service worker's target
   * through the test's CDP connection (as the browser stops an idle, crashed or updated worker). Firefox: kills the
   * extension process (named WebExtensions), as a crash does — Firefox never suspends an event page that holds a
   * native port, so that is how a connected Oriel loses its background there. Content scripts live on in both.
   */
  stopBackground(): Promise<void>;
  /**
   * Reloads the extension as an update or a developer's reload does (`runtime.reload()`, called from the service worker
   * in Chromium and from an extension page in Firefox), and waits for the new background to load. Extension pages
   * opened before are closed by the browser; {@link extensionPage} opens them again.
   */
  reloadExtension(): Promise<void>;
  close(): Promise<void>;
}

/** Launches `kind` with the built extension and the native host installed into a temporary profile. */
export async function launchRig(
  kind: BrowserKind,
  options: {
    hubIdleMs?: number;
    headless?: boolean;
    /** Extra Firefox preferences for the temporary profile. */
    firefoxPrefs?: Record<string, unknown>;
    /** Extra Chromium command-line switches (e.g. `--enable-features=WebMCP`). */
    chromiumArgs?: string[];
    /**
     * Another Oriel than this checkout's dist/ (test/e2e/package.test.ts: an installed npm package). `command` runs as
     * `oriel` for every CLI call and MCP client, from the rig's temporary folder; `register` gives the arguments that
     * register the native host for `profile` (the browser's profile folder); `extension` reads the unpacked
     * extension's folder from what that registration printed.
     */
    oriel?: { command: string; register(profile: string): string[]; extension(registered: string): string };
    /**
     * Changes the rig's environment (given the rig's temporary folder) before anything starts; a variable set to
     * `undefined` is removed. E.g. a desktop-like session: no ORIEL_RUNTIME_DIR, an XDG_RUNTIME_DIR instead.
     */
    env?: (tmp: string) => Record<string, string | undefined>;
    /**
     * Chromium: downloads go to the rig's folder by the profile's own preference instead of the DevTools protocol's
     * download behaviour, which overrides the names extensions give (`downloads.onDeterminingFilename`).
     */
    profileDownloads?: boolean;
  } = {},
): Promise<Rig> {
  ensureBuilt();
  const tmp = mkdtempSync(path.join(os.tmpdir(), `oriel-${kind}-`));
  const home = path.join(tmp, 'home');
  const profile = path.join(tmp, 'profile');
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    HOME: home,
    ORIEL_RUNTIME_DIR: path.join(tmp, 'run'),
    ORIEL_DATA_DIR: path.join(tmp, 'data'),
    ORIEL_CONFIG_DIR: path.join(tmp, 'config'),
    ORIEL_HUB_IDLE_MS: String(options.hubIdleMs ?? 60_000),
  };
  for (const [name, value] of Object.entries(options.env?.(tmp) ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  const oriel = options.oriel;
  /** The program and leading arguments that run `oriel`. */
  const [program, ...lead] = oriel ? [oriel.command] : [process.execPath, CLI];
  const cli = (args: string[]) => execFileSync(program!, [...lead, ...args], { env, cwd: tmp, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const registered = cli(
    oriel?.register(profile) ?? (kind === 'chromium' ? ['install', '--browser', 'chromium', '--chromium-profile', profile] : ['install', '--browser', 'firefox']),
  );
  const extensionDir = oriel?.extension(registered) ?? path.join(ROOT, kind === 'chromium' ? 'dist/chrome' : 'dist/firefox');

  const downloads = path.join(tmp, 'downloads');
  const extensionBase = kind === 'chromium' ? `chrome-extension://${CHROMIUM_EXTENSION_ID}` : `moz-extension://${FIREFOX_UUID}`;
  /** Starts the browser on the rig's profile (again after {@link Rig.restart}: same profile, same extension id). */
  const startBrowser = async (): Promise<Browser> => {
    if (kind === 'chromium') {
      const ext = extensionDir;
      if (options.profileDownloads) {
        mkdirSync(path.join(profile, 'Default'), { recursive: true });
        writeFileSync(path.join(profile, 'Default', 'Preferences'), JSON.stringify({
            download: { default_directory: downloads, prompt_for_download: false },
            // A page may start several downloads without a person's gesture (agents' clicks are synthetic).
            profile: { default_content_setting_values: { automatic_downloads: 1 } },
          }));
      }
      const b = await puppeteer.launch({
        executablePath: '/usr/bin/chromium',
        headless: options.headless ?? true,
        userDataDir: profile,
        env,
        ...(!options.profileDownloads && { downloadBehavior: { policy: 'allow' as const, downloadPath: downloads } }),
        ignoreDefaultArgs: ['--disable-extensions'],
        args: [
          `--load-extension=${ext}`,
          `--disable-extensions-except=${ext}`,
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          ...(options.chromiumArgs ?? []),
        ],
      });
      await b.waitForTarget((t) => t.type() === 'service_worker' && t.url().startsWith(`chrome-extension://${CHROMIUM_EXTENSION_ID}/`), { timeout: SIGNAL_TIMEOUT_MS });
      return b;
    }
    if (!existsSync(profile)) await firefoxProfile(profile);
    const b = await puppeteer.launch({
      browser: 'firefox',
      protocol: 'webDriverBiDi',
      executablePath: FIREFOX,
      headless: true,
      userDataDir: profile,
      env,
      // Firefox 153+ lets WebDriver open moz-extension:// pages (our popup) only with system access.
      args: ['--remote-allow-system-access'],
      extraPrefsFirefox: {
        'xpinstall.signatures.required': false,
        'extensions.webextensions.uuids': JSON.stringify({ [GECKO_ID]: FIREFOX_UUID }),
        // A temporary add-on is uninstalled when Firefox quits; an installed one keeps its storage across restarts.
        // These keep it for the reinstalled temporary add-on (same id, same UUID), as for an installed one.
        'extensions.webextensions.keepStorageOnUninstall': true,
        'extensions.webextensions.keepUuidOnUninstall': true,
        // Downloads (the audit export) go straight to the rig's folder.
        'browser.download.folderList': 2,
        'browser.download.dir': downloads,
        'browser.download.useDownloadDir': true,
        'browser.download.always_ask_before_handling_new_types': false,
        ...options.firefoxPrefs,
      },
    });
    await b.installExtension(extensionDir);
    return b;
  };
  // The hub starts while the browser does, as the first relay to find none would start it (broker/hub/spawn.ts: same
  // command, environment and log): otherwise the browser's native host and the first client each start one and wait
  // for it, a second or two of every rig on a loaded machine. Not for another Oriel, nor where the environment leaves
  // the hub's folders to be derived (what a test of those may look at).
  if (!oriel && env.ORIEL_DATA_DIR && env.ORIEL_RUNTIME_DIR) {
    mkdirSync(env.ORIEL_DATA_DIR, { recursive: true });
    const log = openSync(path.join(env.ORIEL_DATA_DIR, 'hub.log'), 'a', 0o600);
    spawn(program!, [...lead, 'hub'], { env, cwd: tmp, detached: true, stdio: ['ignore', 'ignore', log] }).unref();
    closeSync(log);
  }
  let browser: Browser;
  try {
    browser = await startBrowser();
  } catch (err) {
    stopHub(env);
    rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
    throw err;
  }

  const clients: Client[] = [];
  let extensionPages = new Map<string, Page>();
  let extensionsPage: Page | undefined;
  /** An extension page (popup, options), opened as a tab once and kept for the rig's life. */
  const extensionPage = async (name: 'popup' | 'options'): Promise<Page> => {
    let page = extensionPages.get(name);
    if (!page) {
      const opened = await browser.newPage();
      page = opened;
      extensionPages.set(name, opened);
      const url = `${extensionBase}/extension/ui/${name}.html`;
      if (kind === 'firefox') {
        // Firefox reports no navigation event for moz-extension pages opened over WebDriver BiDi, so goto would only
        // end at its timeout. Start the navigation and wait for the page's own signal instead: its document, loaded.
        void opened.goto(url, { waitUntil: 'load', timeout: 3_000 }).catch(() => undefined);
        await until(() => opened.evaluate((u) => location.href === u && document.readyState === 'complete', url).catch(() => false), SIGNAL_TIMEOUT_MS, `the ${name} page to load`);
      } else {
        await opened.goto(url, { waitUntil: 'load', timeout: SIGNAL_TIMEOUT_MS });
      }
    }
    // Background tabs get no animation frames and throttled timers: work with the page in front, poll by time.
    await page.bringToFront();
    return page;
  };
  const rig: Rig = {
    kind,
    get browser() {
      return browser;
    },
    env,
    tmp,
    extensionBase,
    downloads,
    cli,
    registered,
    extensionPage,
    async restart() {
      await browser.close();
      extensionPages = new Map();
      extensionsPage = undefined;
      browser = await startBrowser();
    },
    connectedBrowsers() {
      try {
        const status = JSON.parse(cli(['status', '--json'])) as { browsers?: Array<{ connected: boolean }> };
        return (status.browsers ?? []).filter((b) => b.connected).length;
      } catch {
        return 0;
      }
    },
    async stopBackground() {
      if (kind === 'chromium') {
        const cdp = await browser.target().createCDPSession();
        try {
          const { targetInfos } = await cdp.send('Target.getTargets');
          const worker = targetInfos.find((t) => t.type === 'service_worker' && t.url.startsWith(`${extensionBase}/`));
          if (!worker) throw new Error('no Oriel service worker is running');
          await cdp.send('Target.closeTarget', { targetId: worker.targetId });
        } finally {
          await cdp.detach();
        }
        return;
      }
      // Firefox cancels an event page's suspension while it holds a native port (Oriel always does), so idle
      // suspension cannot happen to a connected Oriel; what can is its extension process dying. Kill it as a crash would.
      const extensionProcess = firefoxProcesses(browser.process()?.pid).find((p) => p.name === 'WebExtensions');
      if (!extensionProcess) throw new Error("no Firefox extension process (WebExtensions) under this rig's browser");
      process.kill(extensionProcess.pid, 'SIGKILL');
    },
    async reloadExtension() {
      const workers = async () => {
        const cdp = await browser.target().createCDPSession();
        try {
          const { targetInfos } = await cdp.send('Target.getTargets');
          return targetInfos.filter((t) => t.type === 'service_worker' && t.url.startsWith(`${extensionBase}/`)).map((t) => t.targetId);
        } finally {
          await cdp.detach();
        }
      };
      const before = kind === 'chromium' ? await workers() : [];
      if (kind === 'chromium') {
        // Chromium reloads an unpacked extension only in developer mode (else it disables it as "corrupted"): switch it
        // on as a developer has it, on the real chrome://extensions page.
        if (!extensionsPage) {
          extensionsPage = await browser.newPage();
          await extensionsPage.goto(`chrome://extensions/?id=${CHROMIUM_EXTENSION_ID}`, { waitUntil: 'load' });
        }
        await extensionsPage.bringToFront();
        await extensionsPage.waitForSelector('pierce/#devMode', { timeout: SIGNAL_TIMEOUT_MS });
        if (!(await extensionsPage.$eval('pierce/#devMode', (el) => (el as HTMLElement & { checked: boolean }).checked))) await extensionsPage.click('pierce/#devMode');
        await until(() => extensionsPage!.$eval('pierce/#devMode', (el) => (el as HTMLElement & { checked: boolean }).checked), SIGNAL_TIMEOUT_MS, 'developer mode');
      }
      const page = await extensionPage('popup');
      // Called after the evaluation returns: the page goes away with the extension.
      await page.evaluate(() => void setTimeout(() => chrome.runtime.reload(), 10));
      extensionPages = new Map();
      if (kind === 'chromium') {
        await until(async () => (await workers()).some((id) => !before.includes(id)), SIGNAL_TIMEOUT_MS, 'the reloaded service worker');
      }
    },
    async open(url) {
      const page = await browser.newPage();
      await page.goto(url, { waitUntil: 'load' });
      return page;
    },
    async share(urlPart, shared = true) {
      // The popup, opened as a tab and kept for the rig's life; its list follows tabs as they open and change.
      const manager = await extensionPage('popup');
      const selector = `label.tab[data-url*="${urlPart.replace(/"/g, '\\"')}"] input`;
      await manager.waitForSelector(selector, { timeout: SIGNAL_TIMEOUT_MS });
      // The live list re-renders as tabs open and change. A mouse click at the coordinates the switch had a moment
      // before can land on another tab's switch once the list has moved (and unshare that tab), so the switch is found
      // and clicked in one task of the popup; if a re-render replaced it before the popup handled the click, the look
      // below sees the old state and clicks again.
      for (let attempt = 0; ; attempt++) {
        try {
          const checked = await manager.$eval(selector, (el) => (el as HTMLInputElement).checked);
          if (checked === shared) break;
          await manager.$eval(selector, (el) => (el as HTMLInputElement).click());
          // Done when the popup drew the background's answer (the row's `shared` class), not when the box ticked: the
          // background answers once the tab's hosts are registered, so a page reloaded next has Oriel's page script.
          await manager.waitForFunction(
            (sel, want) => {
              const box = document.querySelector(sel) as HTMLInputElement | null;
              return box?.checked === want && box.closest('label')?.classList.contains('shared') === want;
            },
            { timeout: attempt < 3 ? 5_000 : SIGNAL_TIMEOUT_MS, polling: 50 },
            selector,
            shared,
          );
          break;
        } catch (err) {
          if (attempt >= 3) throw err;
        }
      }
      // Like a person who shares the tab they are looking at, end with the shared tab in front.
      const target = (await browser.pages()).find((p) => p.url().includes(urlPart));
      await target?.bringToFront();
    },
    async setRedaction(selectors, limit = 200, { direct = false } = {}) {
      // The options page, reloaded each time so the form shows the stored settings and an empty status. It stays in
      // front afterwards: bring back the tab you need.
      const fresh = !extensionPages.has('options');
      const page = await extensionPage('options');
      if (!fresh) {
        await page.evaluate(() => {
          (window as unknown as { stale: boolean }).stale = true;
          location.reload();
        });
      }
      // The reloaded page has filled the form from storage.
      await page.waitForFunction(() => !(window as unknown as { stale?: boolean }).stale && (document.getElementById('limit') as HTMLInputElement | null)?.value !== '', { timeout: SIGNAL_TIMEOUT_MS, polling: 50 });
      if (direct) {
        await page.evaluate(async (s) => {
          const { settings } = await chrome.storage.local.get('settings');
          await chrome.storage.local.set({ settings: { ...(settings as object | undefined), ...s } });
        }, { redactSelectors: selectors, valueLimit: limit });
        return 'Stored.';
      }
      await page.$eval('#selectors', (el, v) => void ((el as HTMLTextAreaElement).value = v), selectors.join('\n'));
      await page.$eval('#limit', (el, v) => void ((el as HTMLInputElement).value = v), String(limit));
      await page.click('button[type="submit"]');
      await page.waitForFunction(() => document.getElementById('result')?.textContent !== '', { timeout: SIGNAL_TIMEOUT_MS, polling: 50 });
      return page.$eval('#result', (el) => el.textContent ?? '');
    },
    options() {
      return extensionPage('options');
    },
    async allowUserScripts(allowed = true) {
      if (kind === 'chromium') {
        // chrome://extensions renders the switch inside nested shadow roots; `pierce/` reaches through them.
        const toggle = 'pierce/extensions-toggle-row#allow-user-scripts';
        if (!extensionsPage) {
          extensionsPage = await browser.newPage();
          await extensionsPage.goto(`chrome://extensions/?id=${CHROMIUM_EXTENSION_ID}`, { waitUntil: 'load' });
        }
        await extensionsPage.bringToFront();
        await extensionsPage.waitForSelector(toggle, { visible: true, timeout: SIGNAL_TIMEOUT_MS });
        const checked = () => extensionsPage!.$eval(toggle, (el) => (el as HTMLElement & { checked: boolean }).checked);
        if ((await checked()) !== allowed) await extensionsPage.click(toggle);
        await until(async () => (await checked()) === allowed, SIGNAL_TIMEOUT_MS, `"Allow User Scripts" to be ${allowed ? 'on' : 'off'}`);
        return extensionsPage.$eval(toggle, (el) => (el.textContent ?? '').replace(/\s+/g, ' ').trim());
      }
      // A click is a user gesture only for the page in front (extensionPage brings it there).
      const page = await extensionPage('options');
      const want = allowed ? 'on' : 'off';
      await page.waitForSelector('#us-state[data-state]', { timeout: SIGNAL_TIMEOUT_MS });
      if ((await page.$eval('#us-state', (el) => (el as HTMLElement).dataset.state)) !== want) {
        await page.click(allowed ? '#us-allow' : '#us-revoke');
        await page.waitForFunction((w) => (document.getElementById('us-state') as HTMLElement | null)?.dataset.state === w, { timeout: SIGNAL_TIMEOUT_MS, polling: 50 }, want);
      }
      return page.$eval('#us-state', (el) => el.textContent ?? '');
    },
    async client(era = 'legacy', name = 'test', options = {}) {
      const transport = new StdioClientTransport({ command: program!, args: [...lead, 'mcp'], env: { ...env, ORIEL_CLIENT_NAME: name }, cwd: tmp, stderr: 'pipe' });
      const client = new Client(
        { name, version: '1.0.0' },
        { ...options, versionNegotiation: era === 'legacy' ? { mode: 'legacy' } : { mode: { pin: '2026-07-28' } } },
      );
      await client.connect(transport);
      clients.push(client);
      return client;
    },
    async close() {
      await Promise.allSettled(clients.map((c) => c.close()));
      await browser.close().catch(() => undefined);
      stopHub(env);
      rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
    },
  };
  return rig;
}

/** Stops the hub of a rig's environment, so that no process outlives the test (nothing when none runs). */
function stopHub(env: Record<string, string>): void {
  const runtime = env.ORIEL_RUNTIME_DIR ?? (env.XDG_RUNTIME_DIR && path.join(env.XDG_RUNTIME_DIR, 'oriel'));
  try {
    const pid = Number(readFileSync(path.join(runtime!, 'hub.pid'), 'utf8'));
    if (pid) process.kill(pid, 'SIGTERM');
  } catch {
    /* no hub */
  }
}

/** Processes descending from `root` (Firefox starts its content processes from a fork server): pid and name. */
function firefoxProcesses(root: number | undefined): Array<{ pid: number; name: string }> {
  if (root === undefined) return [];
  const parentOf = (pid: string) => {
    try {
      // /proc/<pid>/stat: "pid (comm) state ppid ..."; comm may hold spaces, so split after its closing parenthesis.
      return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]!;
    } catch {
      return '0';
    }
  };
  const out: Array<{ pid: number; name: string }> = [];
  for (const pid of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    let p = pid;
    for (let depth = 0; depth < 8 && p !== '0' && p !== '1'; depth++) {
      p = parentOf(p);
      if (p === String(root)) {
        try {
          out.push({ pid: Number(pid), name: readFileSync(`/proc/${pid}/comm`, 'utf8').trim() });
        } catch {
          /* gone */
        }
        break;
      }
    }
  }
  return out;
}

/** Firefox preferences for `launchRig(..., { firefoxPrefs })` under which `rig.allowUserScripts()` works headless. */
export const USER_SCRIPTS_PREFS: Record<string, unknown> = {
  // permissions.request() grants optional permissions without showing the prompt (the prompt is browser chrome that
  // WebDriver cannot click). The user gesture and the optional-only rules for userScripts are still enforced.
  'extensions.webextOptionalPermissionPrompts': false,
};

/** The parsed outcome of one tool call: structured content and whether it failed. */
export interface ToolCall {
  isError: boolean;
  structured: Record<string, unknown>;
  text: string;
  error?: { code: string; message: string; retryable?: boolean; refresh_required?: boolean; next?: string; details?: Record<string, unknown> };
}

/** Calls a tool and returns its structured outcome (never throws on an `isError` result). */
export async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolCall> {
  const result = (await client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    structuredContent?: Record<string, unknown>;
    content?: Array<{ type: string; text?: string }>;
  };
  const structured = result.structuredContent ?? {};
  const text = (result.content ?? []).filter((c) => c.type === 'text').map((c) => c.text ?? '').join('\n');
  return { isError: result.isError === true, structured, text, ...(result.isError ? { error: structured.error as ToolCall['error'] } : {}) };
}

/**
 * Least time {@link until} gives a condition before failing, ms. The condition is a signal from the page, browser or
 * hub that does arrive when the behaviour works; on a loaded machine it can take long to, so a short deadline would
 * fail a working test. A broken behaviour fails all the same, only later.
 */
const UNTIL_FLOOR_MS = 30_000;

/** Polls `check` until it returns a truthy value, giving up after `timeoutMs` (at least {@link UNTIL_FLOOR_MS}). */
export async function until<T>(check: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = UNTIL_FLOOR_MS, what = 'condition'): Promise<T> {
  const deadline = Date.now() + Math.max(timeoutMs, UNTIL_FLOOR_MS);
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Adds to `page` a button far below the fold under a fixed cover: a click on it scrolls it into view, then waits for
 * it to be uncovered until its timeout. `underWay` resolves when the page saw that scroll — the click is then running
 * in the page, whatever the machine's speed (a test can act on a pending click without guessing how long to sleep).
 */
export async function stuckClickTarget(page: Page): Promise<{ selector: string; underWay: Promise<unknown> }> {
  await page.evaluate(() => {
    const button = Object.assign(document.createElement('button'), { id: 'oriel-test-stuck', textContent: 'Far and covered' });
    button.style.cssText = 'display: block; margin-top: 4000px';
    const cover = document.createElement('div');
    cover.style.cssText = 'position: fixed; inset: 0; z-index: 2147483647; background: rgba(0, 0, 0, 0.05)';
    document.body.append(button, cover);
    (window as unknown as { orielClickUnderWay: Promise<void> }).orielClickUnderWay = new Promise<void>((resolve) =>
      window.addEventListener('scroll', () => resolve(), { once: true }),
    );
  });
  return { selector: '#oriel-test-stuck', underWay: page.evaluate(() => (window as unknown as { orielClickUnderWay: Promise<void> }).orielClickUnderWay) };
}

/** Finds the handle of the first outline line matching `pattern` (e.g. /button "Add"/). */
export function handleOf(outline: string, pattern: RegExp): string {
  const line = outline.split('\n').find((l) => pattern.test(l));
  const m = line && /@([a-z0-9]+\.[0-9a-z]+)/.exec(line);
  if (!m) throw new Error(`no handle for ${pattern} in:\n${outline}`);
  return m[1]!;
}
