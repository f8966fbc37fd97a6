// Random identifiers minted on either side: document namespaces (handle prefixes) and browser instance ids.
// Uses the Web Crypto CSPRNG (globalThis.crypto, present in browsers and Node 20).

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A random id of `length` characters from [a-z0-9] (first one a letter), from the platform CSPRNG. */
export function mintNamespace(length = 8): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[bytes[i]! % (i === 0 ? 26 : 36)];
  return out;
}
