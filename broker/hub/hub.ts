// The hub's state: connected browsers, the session table, the scheduler (queues and leases) and who owns each pending
// page call (docs/architecture.md); the calls' timers and settling are ./pending.ts. Socket plumbing lives in
// server.ts; MCP connections in broker/mcp.
import { errorData, OrielError } from '../../shared/errors.js';
import type { BrowserEvent, BrowserInfo, BrowserToHub, HubToBrowser, PromptInfo, TabInfo } from '../../shared/protocol.js';
import { OPS, survivesDisconnect, type OpArgs, type PublicOpName } from '../../shared/ops.js';
import { parsePageAnswer, type PageAnswer } from '../../shared/page-answer.js';
import type { Caller } from '../../shared/call.js';
import type { Logger } from '../common/log.js';
import { NO_TAB_SHARED, RECONNECT_GRACE_MS, SessionTable, sessionId, type Session } from './sessions.js';
import { Scheduler, type Slot } from './scheduler.js';
import { expiresAt, type Lease, type LeaseInfo } from './leases.js';
import { HubEvents } from './events.js';
import { ClientTable } from './clients.js';
import { BridgeBuffers } from './bridge.js';
import { AppAsks, type AppAsk } from './app-asks.js';
import { DownloadStore } from './downloads.js';
import { PendingCalls } from './pending.js';

/** How long after the hub starts a browser that was already running may take to connect, ms (it reconnects within seconds). */
const BROWSER_CONNECT_MS = 15_000;
/** Why a session may be missing while a browser's reconnect grace runs. */
const RECONNECTING = `the browser is reconnecting to Oriel, and its shared tabs come back if it does within ${RECONNECT_GRACE_MS / 1000} s. Retry in a few seconds.`;
/** Why a session may be missing just after the hub started. */
const JUST_STARTED =
  'the hub has just started, and a running browser with the Oriel extension connects within seconds. Retry in a few seconds; if this stays, ask the user to open the browser with the Oriel extension (`oriel doctor` checks the setup).';

/** A connected browser as the hub sees it: a way to send frames, and who it is. */
export interface BrowserLink {
  info: BrowserInfo;
  /** Sends one frame; throws RangeError if it exceeds the browser's 1 MB cap. */
  send(message: HubToBrowser): void;
  close(): void;
}

/** One page call as a client asks it of the hub ({@link Hub.callPage}); the hub adds the session's tab and the id. */
export interface PageRequest<N extends PublicOpName = PublicOpName> {
  /** Session id; may be omitted when exactly one session exists. */
  session?: string;
  op: N;
  /** The operation's own arguments, already validated against its schema. */
  args: OpArgs<N>;
  caller: Caller;
  /** The lease the call runs under (it names the session when `session` is omitted). */
  lease?: string;
  /** Guard: the top document id the caller expects (stale_document otherwise). */
  document?: string;
  /** Absolute deadline (covering the wait for its turn), ms since the Unix epoch. */
  deadline: number;
  /** Aborted when the client cancels the request. */
  signal?: AbortSignal;
  /** Called when the call starts waiting on the person's permission prompt, with when that wait ends (ms since the epoch). */
  onPrompt?: (until: number) => void;
  /**
   * Given when the call waits on a prompt that the person lets this client's app ask too (docs/architecture.md,
   * "Asking in the agent's app"); the client's transport decides whether it can ask and passes this only then.
   */
  onAsk?: (ask: AppAsk) => void;
}

/** A lease request ({@link Hub.acquireLease}). */
export interface LeaseRequest {
  session?: string;
  caller: Caller;
  /** Quoting a lease the caller holds renews it. */
  lease?: string;
  /** Inactivity TTL, ms (default and bounds: ./leases.ts). */
  ttlMs?: number;
  /** Until when to wait for a session another client holds, ms since the Unix epoch. */
  deadline: number;
  signal?: AbortSignal;
}

/** A lease as its holder sees it. */
export interface LeaseView {
  lease: string;
  session: string;
  ttlMs: number;
  /** When it lapses without further calls, ms since the Unix epoch. */
  expiresAt: number;
  /** Its hard end, ms since the Unix epoch. */
  maxUntil: number;
}

export class Hub {
  readonly sessions = new SessionTable();
  /** Connected MCP clients: id → name (known callers). */
  readonly clients = new ClientTable();
  /** What happens in the hub, for whoever listens (MCP connections, the control channel). */
  readonly events = new HubEvents();
  /** Per session, the messages its page posted on the bridge (docs/bridge.md). */
  readonly bridge = new BridgeBuffers();
  /** The downloads agents' actions started, as the browsers report them (shared/downloads.ts). */
  readonly downloads = new DownloadStore();
  readonly startedAt = new Date();
  private readonly browsers = new Map<string, BrowserLink>();
  private readonly graceTimers = new Map<string, NodeJS.Timeout>();
  /** When this hub started (ms since the epoch): a browser that was already running connects within seconds of it. */
  private readonly started = Date.now();
  /** When each browser connection was attached, ms since the Unix epoch. */
  private readonly since = new WeakMap<BrowserLink, number>();
  /** Who runs next on each session: arrival order, leases, bounds. */
  readonly scheduler = new Scheduler();
  /** Page calls sent to a browser and not answered yet. */
  private readonly pending = new PendingCalls({
    send: (instance, frame) => this.browsers.get(instance)?.send(frame),
    ended: (id) => this.appAsks.withdraw(id),
  });
  /** Per browser instance: the folder the person lets agents upload files from (policy events). */
  private readonly uploadFolders = new Map<string, string>();
  /** Each browser's tool policy (kept through its reconnect grace). */
  private readonly policies = new Map<string, readonly string[]>();
  /** Each browser's waiting permission prompts. */
  private readonly prompts = new Map<string, PromptInfo[]>();
  /** Per browser instance: the client names the person lets ask permission questions in their app (policy events). */
  private readonly askInApp = new Map<string, readonly string[]>();
  /** Permission questions out with agents' apps. */
  readonly appAsks = new AppAsks((instance, frame) => {
    try {
      this.browsers.get(instance)?.send(frame);
    } catch {
      /* the browser went away: its prompts went with it */
    }
  });
  private disabled: ReadonlySet<string> = new Set();
  private holds = 0;

  constructor(private readonly log: Logger) {
    this.sessions.onEnded = (ids, why) => {
      const ended = new Set(ids);
      for (const call of this.pending.values()) {
        if (ended.has(call.session)) this.settle(call.id, new OrielError(errorData('session_gone', `Session ${call.session} ended while "${call.op}" was running: ${why}.`)));
      }
      for (const id of ids) this.scheduler.sessionEnded(id, why);
      this.bridge.end(ids, why);
    };
    this.sessions.noSessionText = () => this.noSessionText();
    this.sessions.unknownSessionText = (id) => this.unknownSessionText(id);
    // A client that leaves loses its leases at once; its waiting calls leave the queues, its running ones are cancelled,
    // and every browser withdraws the permission prompts its calls wait on.
    this.events.on('client_gone', (caller) => {
      this.scheduler.clientGone(caller.id);
      for (const call of this.pending.values()) {
        if (call.client === caller.id) this.settle(call.id, new OrielError(errorData('cancelled', `The client disconnected while "${call.op}" was running.`)));
      }
      for (const link of this.browsers.values()) {
        try {
          link.send({ t: 'client_gone', client: caller.id });
        } catch {
          /* best effort */
        }
      }
    });
  }

  /** Browsers currently connected or within their reconnect grace. */
  browserList(): Array<BrowserInfo & { connected: boolean; since: string }> {
    const out: Array<BrowserInfo & { connected: boolean; since: string }> = [];
    for (const [instance, link] of this.browsers) {
      out.push({ ...link.info, connected: !this.graceTimers.has(instance), since: new Date(this.since.get(link) ?? 0).toISOString() });
    }
    return out;
  }

  /** Whether anything still needs the hub (for the idle exit). */
  get busy(): boolean {
    return this.browsers.size > 0 || this.clients.size > 0 || this.holds > 0;
  }

  /** Keeps the hub from its idle exit (e.g. while it serves HTTP) until the returned function is called. */
  hold(): () => void {
    this.holds++;
    let released = false;
    return () => {
      if (!released) this.holds--;
      released = true;
    };
  }

  /**
   * Tools hidden from every client and refused if called: those any connected browser's policy switches off (the
   * strictest policy wins — a person who switched a tool off in one browser does not want agents to use it anywhere).
   */
  disabledTools(): ReadonlySet<string> {
    return this.disabled;
  }

  /** Permission prompts waiting in every browser, each with the browser's product name. */
  promptList(): Array<PromptInfo & { browser: string }> {
    const out: Array<PromptInfo & { browser: string }> = [];
    for (const [instance, list] of this.prompts) {
      const browser = this.browsers.get(instance)?.info.name ?? 'browser';
      for (const p of list) out.push({ ...p, browser });
    }
    return out;
  }

  /** Sets (or, with undefined, drops) one browser's disabled tools and tells listeners when the union changed. */
  private setDisabled(instance: string, disabled: readonly string[] | undefined): void {
    if (disabled) this.policies.set(instance, disabled);
    else this.policies.delete(instance);
    const next = new Set([...this.policies.values()].flat());
    const changed = next.size !== this.disabled.size || [...next].some((n) => !this.disabled.has(n));
    this.disabled = next;
    if (changed) this.events.emit('tools_changed');
  }

  /**
   * A browser said hello: adopt it (replacing an older link of the same instance) and its shared tabs. Its policy
   * follows as an event; a browser coming back keeps the one it had until then.
   */
  attachBrowser(link: BrowserLink, tabs: TabInfo[]): void {
    const { instance } = link.info;
    const grace = this.graceTimers.get(instance);
    if (grace) clearTimeout(grace);
    this.graceTimers.delete(instance);
    const old = this.browsers.get(instance);
    if (old && old !== link) {
      // The background restarted before its old connection was seen to close: that connection's calls are lost.
      this.failInFlight(instance);
      old.close();
    }
    this.browsers.set(instance, link);
    this.since.set(link, Date.now());
    this.prompts.delete(instance);
    this.sessions.setTabs(instance, link.info.name, tabs);
    this.resumeNavigations(instance, tabs);
    this.log.info('browser connected', { browser: link.info.name, instance, tabs: tabs.length });
  }

  /**
   * What an agent is told when no tab is shared: that no browser with Oriel is connected (the person has to open one),
   * that one is reconnecting, or that the hub has just started and a running browser has yet to connect — not only
   * that nothing is shared, which sends the person to a popup they may not have.
   */
  noSessionText(): string {
    const connected = [...this.browsers.keys()].some((instance) => !this.graceTimers.has(instance));
    if (connected) return NO_TAB_SHARED;
    if (this.graceTimers.size > 0) return `No tab is shared right now: ${RECONNECTING}`;
    if (this.justStarted()) return `No browser is connected to Oriel yet: ${JUST_STARTED}`;
    return 'No browser with the Oriel extension is connected to Oriel. Ask the user to open it and share a tab (the Oriel toolbar button, "Share this tab"); if the browser is open, `oriel doctor` checks the setup.';
  }

  /** Whether the hub is within {@link BROWSER_CONNECT_MS} of its start, when a running browser has yet to connect. */
  private justStarted(): boolean {
    return Date.now() - this.started < BROWSER_CONNECT_MS;
  }

  /**
   * Why session `id`, unknown to the hub, may still come (the words after "There is no session … yet:"), or undefined
   * when it will not: its browser is connected (its hello listed every tab it shares), and the hub neither has just
   * started nor waits for a browser to reconnect. An agent quoting an id from before a hub restart is told to retry,
   * not that nothing is shared.
   */
  private unknownSessionText(id: string): string | undefined {
    // Only an id of the form sessions have (`<browser instance>-<tab id>`) can be one a browser brings back.
    const instance = /^([a-z0-9]{4,12})-\d+$/.exec(id)?.[1];
    if (instance === undefined) return undefined;
    if (this.browsers.has(instance) && !this.graceTimers.has(instance)) return undefined;
    if (this.graceTimers.size > 0) return RECONNECTING;
    if (this.justStarted()) return JUST_STARTED;
    return undefined;
  }

  /** Handles one validated frame from a browser. */
  fromBrowser(link: BrowserLink, message: BrowserToHub): void {
    const { instance } = link.info;
    switch (message.t) {
      case 'tabs':
        this.sessions.setTabs(instance, link.info.name, message.tabs);
        return;
      case 'result': {
        if (!this.pending.of(instance, message.id)) return;
        if (message.ok) this.settle(message.id, undefined, message.value);
        else this.settle(message.id, new OrielError(message.error ?? errorData('internal', 'The browser reported a failure without details.')));
        return;
      }
      case 'event':
        this.onBrowserEvent(instance, message.event);
        return;
      case 'hello':
      case 'pong':
        return;
    }
  }

  /**
   * The browser's connection closed. Ordinary pending calls fail with `browser_disconnected` (never replayed); a
   * pending `navigate` waits for the tab's next document. Sessions keep their ids for {@link RECONNECT_GRACE_MS}.
   */
  detachBrowser(link: BrowserLink): void {
    const { instance } = link.info;
    if (this.browsers.get(instance) !== link) return;
    this.failInFlight(instance);
    this.sessions.disconnect(instance);
    // Its prompts went with it (a reconnected background has none); its policy stays through the grace.
    this.prompts.delete(instance);
    this.graceTimers.set(
      instance,
      setTimeout(() => {
        this.graceTimers.delete(instance);
        this.browsers.delete(instance);
        this.setDisabled(instance, undefined);
        this.uploadFolders.delete(instance);
        for (const call of this.pending.values()) {
          if (call.instance === instance) this.settle(call.id, new OrielError(errorData('browser_disconnected', 'The browser did not come back.')));
        }
        this.sessions.endInstance(instance);
      }, RECONNECT_GRACE_MS).unref(),
    );
    this.log.info('browser disconnected', { instance });
  }

  /** Ordinary calls in flight on `instance` fail (never replayed); a pending navigate waits for the tab's next document. */
  private failInFlight(instance: string): void {
    for (const call of this.pending.values()) {
      if (call.instance !== instance) continue;
      if (survivesDisconnect(call.op)) call.survived = true;
      else this.settle(call.id, new OrielError(errorData('browser_disconnected', `The browser disconnected while "${call.op}" was running; it was not replayed. Check whether it took effect (snapshot) before retrying.`)));
    }
  }

  /** One event the browser pushed: session facts, policy and deadlines are updated here; all are published on {@link events}. */
  private onBrowserEvent(instance: string, event: BrowserEvent): void {
    switch (event.kind) {
      case 'document': {
        const s = this.sessions.setDocument(instance, event.tab, event.document, event.url, event.withheld);
        this.resumeNavigations(instance, [{ tab: event.tab, document: event.document, url: event.url, title: s?.info.title ?? '', ...(event.withheld && { withheld: true }) }]);
        break;
      }
      case 'page_message': {
        const session = this.sessions.get(sessionId(instance, event.tab));
        // Only shared tabs feed the bridge; the background checks too, and an ended session's messages have no reader.
        if (!session) return;
        const stored = this.bridge.append(session.id, event);
        if ('refused' in stored) this.log.warn('refused a bridge message', { session: session.id, reason: stored.refused });
        break;
      }
      case 'policy':
        if (event.upload_folder) this.uploadFolders.set(instance, event.upload_folder);
        else this.uploadFolders.delete(instance);
        this.setDisabled(instance, event.disabled);
        this.askInApp.set(instance, event.ask_in_app ?? []);
        break;
      case 'prompts':
        this.prompts.set(instance, event.prompts);
        this.appAsks.prune(instance, new Set(event.prompts.map((p) => p.id)));
        break;
      case 'download':
        this.downloads.update(instance, event.download);
        break;
      case 'call_suspended': {
        // The call waits on the person, under the prompt's budget, and the tab's other calls run meanwhile (./pending.ts).
        const suspended = this.pending.suspend(instance, event.call, event.until);
        if (!suspended) break;
        const { call, until } = suspended;
        // The calling client's app asks too where the person allows it; a question still out for the call is withdrawn.
        this.appAsks.withdraw(call.id);
        if (event.prompt && call.onAsk && this.mayAskInApp(instance, call.caller.id)) this.appAsks.start(call.id, call.caller, instance, event.prompt, until, call.onAsk);
        break;
      }
      case 'call_resumed': {
        // Allowed: the call goes on with the budget it had left, never more than its own, once it has its turn again.
        if (!this.pending.of(instance, event.call)) break;
        this.appAsks.withdraw(event.call);
        this.pending.resume(instance, event.call, event.deadline);
        break;
      }
    }
    this.events.emit('browser', { instance, event });
  }

  /**
   * Whether browser `instance`'s person lets client `clientId` ask in its app: its given name (`clientInfo.name`, not
   * the numbered label) is on their list.
   */
  private mayAskInApp(instance: string, clientId: string): boolean {
    const name = this.clients.givenName(clientId);
    return name !== undefined && (this.askInApp.get(instance) ?? []).includes(name);
  }

  /** The folder the person chose in the options of browser `instance` for uploads, if any. */
  uploadFolder(instance: string): string | undefined {
    return this.uploadFolders.get(instance);
  }

  /**
   * Runs one page operation in a session, after the session's earlier calls (in arrival order, one at a time), and
   * answers the browser's answer checked against the op map (shared/page-answer.ts): the op's typed value, and what
   * the background put beside it.
   * @throws OrielError: session errors, `browser_disconnected`, `timeout`, `cancelled`, `too_large`, `busy` (the
   * session's queue is full), the page's error, or `internal` when the answer does not fit the op's result schema.
   */
  async callPage<N extends PublicOpName>(request: PageRequest<N>): Promise<PageAnswer<N>> {
    const session = this.resolveSession(request);
    const { caller, lease, deadline, signal, op } = request;
    const raw = await this.scheduler.run({ session: session.id, caller, deadline, label: op, ...(lease !== undefined && { lease }), ...(signal && { signal }) }, (slot) =>
      this.dispatch(session.id, request, slot),
    );
    // The answer came from the browser over native messaging: an external boundary, checked once here.
    const checked = parsePageAnswer(op, raw);
    if (!checked.ok) {
      this.log.warn('a page answer did not fit its op', { op, message: checked.message });
      throw new OrielError(errorData('internal', checked.message));
    }
    return checked.answer;
  }

  /**
   * Gives the session to the caller across calls: at once when no other lease holds it, else when that lease ends
   * (in turn with the session's other calls), unless `deadline` passes first.
   * @throws OrielError: session errors, `timeout` (naming the holder), `cancelled`, `busy`, `lease_expired` or
   *   `lease_invalid` (renewing a lease that is not the caller's).
   */
  async acquireLease(request: LeaseRequest): Promise<LeaseView> {
    const session = this.resolveSession(request);
    const { caller, lease, deadline, signal } = request;
    const granted = await this.scheduler.acquire(
      { session: session.id, caller, deadline, label: 'acquire_lease', ...(lease !== undefined && { lease }), ...(signal && { signal }) },
      request.ttlMs,
    );
    return leaseView(granted);
  }

  /**
   * Ends a lease the caller holds; the session's waiting calls go on.
   * @throws OrielError `lease_expired`, `lease_invalid`.
   */
  releaseLease(id: string, caller: Caller): LeaseView {
    return leaseView(this.scheduler.release(id, caller));
  }

  /** Who holds `session` and until when, if anyone. */
  leaseOf(session: string): LeaseInfo | undefined {
    return this.scheduler.leases.info(session);
  }

  /** The session a request names, or the one its lease is for when it names none. */
  private resolveSession(request: { session?: string; lease?: string; caller: Caller }): Session {
    if (request.session === undefined && request.lease !== undefined) {
      return this.sessions.resolve(this.scheduler.leases.check(request.lease, request.caller).session);
    }
    return this.sessions.resolve(request.session);
  }

  private dispatch<N extends PublicOpName>(sessionIdValue: string, request: PageRequest<N>, slot: Slot): Promise<unknown> {
    const { op } = request;
    const session: Session | undefined = this.sessions.get(sessionIdValue);
    if (!session) throw new OrielError(errorData('session_gone', `Session ${sessionIdValue} has ended.`));
    const link = this.browsers.get(session.instance);
    if (!link || !session.connected) throw new OrielError(errorData('browser_disconnected', 'The browser holding this tab is not connected right now; it may be restarting. Retry in a few seconds.'));
    const envelope = {
      op,
      args: request.args,
      session: session.id,
      tab: session.tab,
      client: request.caller,
      deadline: request.deadline,
      capability: OPS[op].capability,
      ...(request.document !== undefined && { document: request.document }),
    };
    return this.pending.start(envelope, {
      instance: session.instance,
      slot,
      ...(session.info.document !== undefined && { documentBefore: session.info.document }),
      ...(request.signal && { signal: request.signal }),
      ...(request.onPrompt && { onPrompt: request.onPrompt }),
      ...(request.onAsk && { onAsk: request.onAsk }),
    });
  }

  /** Settles a pending call once (./pending.ts). */
  private settle(id: number, error: OrielError | undefined, value?: unknown): void {
    this.pending.settle(id, error, value);
  }

  /**
   * A navigate that was pending when the browser went away completes with the tab's next document, reported by the
   * reconnected background (its hello, or a document event) — docs/architecture.md, "Disconnects".
   */
  private resumeNavigations(instance: string, tabs: Array<Pick<TabInfo, 'tab' | 'url' | 'document' | 'withheld'> & { title?: string }>): void {
    for (const call of this.pending.values()) {
      if (call.instance !== instance || !survivesDisconnect(call.op) || !call.survived) continue;
      const tab = tabs.find((t) => t.tab === call.tab);
      if (!tab?.document || tab.document === call.documentBefore) continue;
      const title = tab.title ?? this.sessions.get(call.session)?.info.title ?? '';
      this.settle(call.id, undefined, { document: tab.document, url: tab.url, title: tab.withheld ? '' : title, ...(tab.withheld && { withheld: true }) });
    }
  }
}

function leaseView(lease: Lease): LeaseView {
  return { lease: lease.id, session: lease.session, ttlMs: lease.ttlMs, expiresAt: expiresAt(lease), maxUntil: lease.maxUntil };
}
