// The state one page call carries through the background's pipeline (./index.ts), stage by stage.
import type { PageCall } from '../../../shared/call.js';
import { isNavigatingOp, OPS, type NavigatingOpName, type OpArgs, type OpResult, type OpSite, type PublicOpName, type RedactionPolicy, type SiteOpName } from '../../../shared/ops.js';
import type { Settings } from '../../settings.js';
import type { CallClock } from './deadline.js';
import type { BegunComparison } from '../action-changes.js';

/** The frames a call touches, as the target stage found them. */
export interface CallTarget {
  /** The frame the call acts in or reads first (0 = top frame). */
  frame: number;
  /** Origin (scheme://host:port, or "null" for opaque origins) of the document `frame` shows. */
  origin: string;
  /** Origin of the tab's top document (the page the person sees). */
  topOrigin: string;
  /**
   * False when the top frame has no Oriel content script: it shows no page Oriel can work in (the browser's error page
   * after a failed load, or a page extensions may not touch).
   */
  topReachable: boolean;
  /** True when the call reads every frame of the tab (snapshot, wait_for by selector or text). */
  everyFrame: boolean;
  /**
   * Origin of the page a call takes the top frame to, when it navigates it on purpose: navigate's URL, the page back
   * or forward leads to, the page reloaded ("null" when it is not an http(s) page).
   */
  destination?: string;
}

/**
 * One call in flight. Stages fill in what they learn; `dispatch` reads it. Everything here was validated on arrival:
 * `args` against the op's schema, the envelope against shared/call.ts.
 */
export interface CallState<N extends PublicOpName = PublicOpName> {
  readonly call: PageCall;
  readonly op: N;
  readonly args: OpArgs<N>;
  readonly tab: number;
  /** The user's settings, read once per call. */
  readonly settings: Settings;
  /** Aborted when the hub cancels the call. */
  readonly signal: AbortSignal;
  /** The call's deadline; stopped while the call waits on a permission prompt. */
  readonly clock: CallClock;
  /** Set by the target stage. */
  target?: CallTarget;
  /** Set by the consent stage for exec calls: what the audit log records about the use. */
  exec?: { origin: string; code?: string; codeHash: string; operation?: string };
  /** Set once every stage passed and the call is carried out: the audit log says whether an exec call ran. */
  dispatched?: boolean;
  /**
   * Set by dispatch for an action whose comparison with what its caller saw began with it (../action-changes.ts
   * `beginComparison`): the comparison, and the first lines the action's exchange read, if any.
   */
  begun?: { comparison: BegunComparison; read?: OpResult<'snapshot.lines'> };
  /**
   * Set by the navigation guard (./guarded.ts) as the call is carried out: settles once the guard is narrowed to the
   * origins the person always denies. The answer leaves after it; the call's result is completed meanwhile.
   */
  guardReleased?: Promise<void>;
}

/** A stage: checks or enriches the call, or stops it by throwing OrielError. */
export type Stage = (state: CallState) => Promise<void>;

/** The redaction policy every content call of an agent's operation carries, from the user's settings. */
export function redactionOf(settings: Settings, urlParams: readonly string[] = []): RedactionPolicy {
  const policy: RedactionPolicy = { selectors: settings.redactSelectors, value_limit: settings.valueLimit };
  if (urlParams.length) policy.url_params = [...urlParams];
  return policy;
}

/** Whether the call's op runs on `site` (the op map's `site`), narrowing the state to that site's ops. */
export function runsOn<S extends OpSite, N extends PublicOpName>(state: CallState<N>, site: S): state is CallState<N> & CallState<N & SiteOpName<S>> {
  return OPS[state.op].site === site;
}

/** Whether the call's op takes the top frame to another page on purpose (the op map's `navigates`). */
export function navigates<N extends PublicOpName>(state: CallState<N>): state is CallState<N> & CallState<N & NavigatingOpName> {
  return isNavigatingOp(state.op);
}
