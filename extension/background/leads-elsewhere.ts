// The answer of a content script that did not carry out a click, a type or a key because its element leads to another
// origin (shared/call.ts `leads_from`): the pipeline's dispatch asks consent for that origin and sends the op again
// (./pipeline/dispatch.ts; docs/architecture.md, "Consent").

/** Thrown by ./frames.ts `sendToFrame` when the frame answered `leads_to`: nothing was done in the page. */
export class LeadsElsewhere extends Error {
  /** @param origin the http(s) origin the element leads to (scheme://host:port). */
  constructor(readonly origin: string) {
    super(`The element leads to ${origin}; nothing was done.`);
    this.name = 'LeadsElsewhere';
  }
}
