// The match pattern that names every page of one scheme and host, for registering Oriel's page script by host
// (./page-hooks.ts). Pure: no browser API, so it is tested on its own.

/**
 * The match pattern of the scheme and host of `url` (https://developer.chrome.com/docs/extensions/develop/concepts/match-patterns),
 * or undefined for URLs a host pattern cannot name safely (file:, data:, about:, extension pages).
 */
export function hostPattern(url: string | undefined): string | undefined {
  if (!url) return undefined;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
  return `${u.protocol}//${u.hostname}/*`;
}
