// Whether a page's Content-Security-Policy lets code run from strings, known without trying: trying `eval` where the
// policy forbids it fires a `securitypolicyviolation` on the page and sends the site a report. The policy comes from
// the document's response headers (seen here as they arrive) and its <meta http-equiv> elements
// (https://w3c.github.io/webappsec-csp/#can-compile-strings). Used by ./ops/evaluate.ts.

/** Enforced policies of each tab's top document, with the URL they came with. */
const headers = new Map<number, { url: string; policies: string[] }>();

chrome.webRequest.onHeadersReceived.addListener(
  (details) => {
    if (details.frameId !== 0 || details.tabId < 0) return;
    const policies = (details.responseHeaders ?? []).filter((h) => h.name.toLowerCase() === 'content-security-policy').map((h) => h.value ?? '');
    headers.set(details.tabId, { url: details.url, policies });
  },
  { urls: ['<all_urls>'], types: ['main_frame'] },
  ['responseHeaders'],
);
chrome.tabs.onRemoved.addListener((tab) => headers.delete(tab));

/**
 * Whether one serialized policy list (a header value may hold several, comma-separated) forbids compiling strings:
 * its `script-src`, else its `default-src`, lacks 'unsafe-eval', or it requires Trusted Types for scripts.
 */
export function forbidsEval(policyList: string): boolean {
  return policyList.split(',').some((policy) => {
    const directives = new Map<string, string[]>();
    for (const part of policy.split(';')) {
      const [name, ...tokens] = part.trim().split(/\s+/);
      if (name && !directives.has(name.toLowerCase())) directives.set(name.toLowerCase(), tokens.map((t) => t.toLowerCase()));
    }
    if (directives.get('require-trusted-types-for')?.includes("'script'")) return true;
    const sources = directives.get('script-src') ?? directives.get('default-src');
    return sources !== undefined && !sources.includes("'unsafe-eval'");
  });
}

/**
 * Whether the top document of `tab` may compile strings: `true`, `false`, or `undefined` when Oriel did not see its
 * headers (it loaded before Oriel started).
 */
export async function evalAllowed(tab: number): Promise<boolean | undefined> {
  const frame = await chrome.webNavigation.getFrame({ tabId: tab, frameId: 0 }).catch(() => null);
  const seen = headers.get(tab);
  if (!frame || !seen || seen.url.split('#')[0] !== frame.url.split('#')[0]) return undefined;
  const [meta] = await chrome.scripting
    .executeScript({
      target: { tabId: tab, frameIds: [0] },
      // Runs in the content scripts' world: reads the page's policy <meta> elements, compiles nothing.
      func: () => Array.from(document.querySelectorAll('meta[http-equiv]'), (m) => (m.getAttribute('http-equiv')?.toLowerCase() === 'content-security-policy' ? m.getAttribute('content') ?? '' : '')).filter(Boolean),
    })
    .catch(() => [undefined]);
  const metas = (meta?.result as string[] | undefined) ?? [];
  return ![...seen.policies, ...metas].some(forbidsEval);
}
