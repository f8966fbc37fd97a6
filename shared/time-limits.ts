// The longest any tool call may take, so that Oriel's own answer (`timeout`, `permission_timeout`) reaches a client that
// waits the official SDKs' default before it gives up (docs/tools.md, "Waiting"). Every tool's `timeout_ms` and every
// operation's budget (shared/ops.ts `OpBudget`) stays within these; test/unit/op-map.test.ts checks them all.

/**
 * How long the official MCP SDKs (TypeScript v1 and v2, Python) wait for a request's answer by default before they give
 * up with their own error (`-32001 Request timed out`, nothing structured), ms.
 */
export const CLIENT_REQUEST_TIMEOUT_MS = 60_000;

/**
 * The longest whole budget of any call (work and slack, shared/ops.ts `OpBudget`), ms: Oriel's own `timeout` answer arrives
 * under {@link CLIENT_REQUEST_TIMEOUT_MS}, with 5 s to spare for it to travel (docs/tools.md, "Waiting").
 */
export const LONGEST_CALL_MS = CLIENT_REQUEST_TIMEOUT_MS - 5_000;

/**
 * The largest `timeout_ms` any tool takes, ms: its wait plus the slack an operation keeps (at most 5 s) still fits
 * {@link LONGEST_CALL_MS}.
 */
export const MAX_TIMEOUT_MS = 50_000;
