// The session-omission rule (docs/architecture.md, "Sessions"), ended sessions, and the error vocabulary. The
// per-session scheduler has its own file (scheduler.test.ts).
import { describe, expect, it } from 'vitest';
import { SessionTable } from '../../broker/hub/sessions.js';
import { OrielError } from '../../shared/errors.js';

const tab = (id: number, title = `Tab ${id}`) => ({ tab: id, title, url: `http://a.test/${id}`, origin: 'http://a.test', active: true });
const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return (e as OrielError).code;
  }
  return 'none';
};

describe('SessionTable', () => {
  it('fails with no_session when nothing is shared', () => {
    expect(codeOf(() => new SessionTable().resolve(undefined))).toBe('no_session');
  });

  it('lets session be omitted only when exactly one exists', () => {
    const t = new SessionTable();
    t.setTabs('abcd', 'chromium', [tab(1)]);
    expect(t.resolve(undefined).id).toBe('abcd-1');
    t.setTabs('abcd', 'chromium', [tab(1), tab(2, 'Second')]);
    let err: OrielError | undefined;
    try {
      t.resolve(undefined);
    } catch (e) {
      err = e as OrielError;
    }
    expect(err?.code).toBe('ambiguous_session');
    expect(err?.message).toContain('abcd-1');
    expect(err?.message).toContain('abcd-2 "Second"');
  });

  it('writes page titles in ambiguous_session and no_session messages through the escaper', () => {
    const t = new SessionTable();
    t.setTabs('abcd', 'chromium', [tab(1, 'Pay \u202Efdp.exe\u202C'), tab(2, 'Two\nlines "quoted"')]);
    const messages = [undefined, 'nope'].map((id) => {
      try {
        t.resolve(id);
      } catch (e) {
        return (e as OrielError).message;
      }
      return '';
    });
    for (const m of messages) {
      expect(m).toContain('abcd-1 "Pay \\u{202e}fdp.exe\\u{202c}"');
      expect(m).toContain('abcd-2 "Two\\nlines \\"quoted\\""');
      expect(m).not.toMatch(/[\u202a-\u202e\n]/);
    }
  });

  it('keeps the document a document event named when the browser resends its tab list without documents', () => {
    const t = new SessionTable();
    t.setTabs('abcd', 'chromium', [tab(1)]);
    t.setDocument('abcd', 1, 'newdoc01', 'http://a.test/next');
    // A title or load-state change resends the list; it names no document.
    t.setTabs('abcd', 'chromium', [{ ...tab(1), url: 'http://a.test/next' }]);
    expect(t.get('abcd-1')?.info.document).toBe('newdoc01');
    // A list that names one wins.
    t.setTabs('abcd', 'chromium', [{ ...tab(1), document: 'other001' }]);
    expect(t.get('abcd-1')?.info.document).toBe('other001');
  });

  it('a document of another origin drops the old origin\'s title and grants until the browser lists the tab again', () => {
    const t = new SessionTable();
    const share = [{ capability: 'read' as const, effect: 'allow' as const, scope: 'share' as const }];
    t.setTabs('abcd', 'chromium', [{ ...tab(1, 'Shared page'), grants: share }]);
    // The document event of the new origin can come before the tab list: never its address beside the old grants.
    t.setDocument('abcd', 1, 'doc2', 'http://b.test/inbox?token=x');
    expect(t.get('abcd-1')?.info).toMatchObject({ origin: 'http://b.test', title: '', url: 'http://b.test/inbox?token=x' });
    expect(t.get('abcd-1')?.info.grants).toBeUndefined();
    // Withheld by the browser: the origin alone, and ambiguous/no_session name it by id and origin only.
    t.setDocument('abcd', 1, 'doc3', 'http://c.test', true);
    expect(t.get('abcd-1')?.info).toMatchObject({ origin: 'http://c.test', title: '', url: 'http://c.test', withheld: true });
    t.setTabs('abcd', 'chromium', [{ ...tab(1, ''), url: 'http://c.test', origin: 'http://c.test', withheld: true }, tab(2, 'Second')]);
    let err: OrielError | undefined;
    try {
      t.resolve(undefined);
    } catch (e) {
      err = e as OrielError;
    }
    expect(err?.message).toContain('abcd-1 ("http://c.test", no read grant here');
    // Same origin: the title stays (the next list brings the new one).
    t.setTabs('abcd', 'chromium', [tab(1, 'Shared page')]);
    t.setDocument('abcd', 1, 'doc4', 'http://a.test/other');
    expect(t.get('abcd-1')?.info).toMatchObject({ title: 'Shared page', url: 'http://a.test/other', origin: 'http://a.test' });
  });

  it('answers session_gone for an unshared tab and reports it ended', () => {
    const t = new SessionTable();
    const ended: string[] = [];
    t.onEnded = (ids) => ended.push(...ids);
    t.setTabs('abcd', 'chromium', [tab(1), tab(2)]);
    t.setTabs('abcd', 'chromium', [tab(2)]);
    expect(ended).toEqual(['abcd-1']);
    expect(codeOf(() => t.resolve('abcd-1'))).toBe('session_gone');
    expect(codeOf(() => t.resolve('zzzz-9'))).toBe('no_session');
  });

  it('keeps sessions of two browsers apart', () => {
    const t = new SessionTable();
    t.setTabs('aaaa', 'chromium', [tab(1)]);
    t.setTabs('bbbb', 'firefox', [tab(1)]);
    expect(t.all().map((s) => s.id).sort()).toEqual(['aaaa-1', 'bbbb-1']);
    t.setTabs('aaaa', 'chromium', []);
    expect(t.all().map((s) => s.id)).toEqual(['bbbb-1']);
  });
});

describe('error vocabulary', () => {
  it('gives every code a next step, so no failure leaves the agent without one', async () => {
    const { ERROR_CODES, errorData } = await import('../../shared/errors.js');
    for (const code of ERROR_CODES) {
      const e = errorData(code, 'x');
      expect(e.next, code).toMatch(/\w{3,}/);
      expect(typeof e.retryable).toBe('boolean');
      expect(typeof e.refresh_required).toBe('boolean');
    }
  });
});
