// The audit log's words (extension/consent/audit.ts): answers as their buttons say them, errors as what they mean,
// and a use whose code never reached the page said to be "not run".
import { describe, expect, it } from 'vitest';
import { auditOutcomeWords, auditVerb, type AuditEntry } from '../../extension/consent/audit.js';

const base: AuditEntry = { time: 0, kind: 'use', session: 's', origin: 'https://a.example', client: 'c', client_id: '1', tool: 'evaluate', outcome: 'ok' };

describe('audit log words', () => {
  it('says "not run" only for a use that never reached the page; older entries without the flag read "ran"', () => {
    expect(auditVerb({ ...base, ran: false, outcome: 'cancelled' })).toBe('not run');
    expect(auditVerb({ ...base, ran: true })).toBe('ran');
    expect(auditVerb(base)).toBe('ran');
    expect(auditVerb({ ...base, kind: 'grant', outcome: 'allow_once' })).toBe('allowed');
  });

  it('writes answers as the prompt buttons say them, errors by their meaning, and leaves unknown codes as they are', () => {
    expect(auditOutcomeWords({ ...base, kind: 'grant', outcome: 'allow_code_session' })).toBe('Allow this exact code in this tab');
    expect(auditOutcomeWords({ ...base, kind: 'grant', outcome: 'allow_code_session', operation: 'add {}' })).toBe('Allow this exact call in this tab');
    expect(auditOutcomeWords({ ...base, outcome: 'ok' })).toBe('finished');
    expect(auditOutcomeWords({ ...base, outcome: 'permission_timeout' })).toBe('the user did not answer the permission prompt in time (permission_timeout)');
    expect(auditOutcomeWords({ ...base, outcome: 'something_new' })).toBe('something_new');
  });
});
