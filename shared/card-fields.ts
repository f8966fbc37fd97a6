// Which `name`/`id` values name a payment card's number or security code: the card-name half of the secret-field rule
// (docs/redaction.md, "What is redacted"), pure so it can be tested on its own. The content script applies it to inputs.

/**
 * Card words, tested on the value split into lower-case words joined by `-`. A word must match whole: `accnum`,
 * `number` or `discs` are not card fields.
 */
const CARD_WORDS = /(^|-)(card-?(number|num|no)|cc-?(number|num|no)|credit-?card(-?(number|num|no))?|security-?code|card-?(code|cvc|cvv|csc)|cvc2?|cvv2?|csc|cvn)(-|$)/;

/** Values longer than this are not judged (no real field name is that long). */
const MAX_LENGTH = 200;

/**
 * Whether `value` (an input's `name` or `id`) names a card number or security code: `cardnumber`, `card_number`,
 * `cardNumber`, `payment[card-number]`, `ccnum`, `cc-no`, `creditcard`, `cvc`, `cvv2`, `csc`, `securityCode`…
 * The value is split into words at every character other than ASCII letters and digits and at camelCase humps.
 */
export function isCardFieldName(value: string | null | undefined): boolean {
  if (!value || value.length > MAX_LENGTH) return false;
  const words = value
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '')
    .join('-');
  return CARD_WORDS.test(words);
}
