// The browser's hello on the wire (shared/protocol.ts): the popup address it may carry is kept when it has the shape
// of an extension page's address, and dropped — never the reason to refuse the hello — when it has not.
import { describe, expect, it } from 'vitest';
import { BrowserToHubSchema, WIRE_VERSION } from '../../shared/protocol.js';

const hello = (popup_url?: unknown) => ({
  t: 'hello',
  wire: WIRE_VERSION,
  browser: { name: 'firefox', version: '153.0', instance: 'abc123', extension_id: 'oriel@oriel.dev', ...(popup_url !== undefined && { popup_url }) },
  tabs: [],
});

describe('hello.browser.popup_url', () => {
  it('keeps an extension page address', () => {
    const url = 'moz-extension://0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d/extension/ui/popup.html';
    expect(BrowserToHubSchema.parse(hello(url))).toMatchObject({ browser: { popup_url: url } });
  });

  it('drops an address of another shape and still accepts the hello', () => {
    for (const bad of ['javascript:alert(1)', 'moz-extension://x/a b.html', `chrome-extension://${'a'.repeat(400)}/p.html`, 42, 'http://evil.example/\u202Epopup.html', 'http://evilexample/popup.html']) {
      const parsed = BrowserToHubSchema.parse(hello(bad)) as { browser: Record<string, unknown> };
      expect(parsed.browser.popup_url, String(bad)).toBeUndefined();
      expect(parsed.browser.extension_id).toBe('oriel@oriel.dev');
    }
  });
});
