// The HTTP transport's first check of a request, on the raw Node request before anything parses it: exactly one
// `Host` header in plain `host[:port]` form, and a request target in origin form. A Host that a URL parser would
// rewrite (`2130706433` → 127.0.0.1, `x@evil.com` → evil.com), a doubled Host, or an absolute-form target (whose
// authority replaces Host, https://www.rfc-editor.org/rfc/rfc9112#section-3.2.2) would let a request choose what
// the loopback check sees; such requests are malformed (400), not judged. Wired in ./http.ts.
import type { IncomingMessage } from 'node:http';

/** Why `req` is refused as malformed (a sentence for the 400 answer), or undefined when it is well-formed. */
export function malformedTarget(req: Pick<IncomingMessage, 'rawHeaders' | 'url'>): string | undefined {
  let hosts = 0;
  let host = '';
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i]!.toLowerCase() === 'host') {
      hosts++;
      host = req.rawHeaders[i + 1] ?? '';
    }
  }
  // https://www.rfc-editor.org/rfc/rfc9112#section-3.2: exactly one Host field; 400 for none or more.
  if (hosts !== 1) return hosts === 0 ? 'The request has no Host header.' : 'The request has more than one Host header.';
  if (!canonicalHost(host)) return 'The Host header is not a plain host[:port].';
  // https://www.rfc-editor.org/rfc/rfc9112#section-3.2.1: origin form, an absolute path (and query).
  if (!req.url?.startsWith('/') || req.url.startsWith('//')) return 'The request target must be a path (origin form).';
  return undefined;
}

/**
 * Whether `host` is `host[:port]` exactly as the WHATWG URL parser would write it back: no user info, no path, and a
 * host name that is not rewritten (numbers that are IPv4 addresses in another notation, percent-escapes, uppercase).
 * https://url.spec.whatwg.org/#host-parsing
 */
export function canonicalHost(host: string): boolean {
  if (host === '' || host.length > 300 || /[\s/?#@\\]/.test(host)) return false;
  let url: URL;
  try {
    url = new URL(`http://${host}`);
  } catch {
    return false;
  }
  if (url.username || url.password || url.pathname !== '/' || url.search || url.hash) return false;
  // The parser drops the scheme's default port: "localhost:80" is written back as "localhost".
  return url.host === host || (url.port === '' && `${url.hostname}:80` === host);
}
