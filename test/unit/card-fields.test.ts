// The card-name half of the secret-field rule (shared/card-fields.ts, docs/redaction.md "What is redacted"): the names
// payment forms use for card numbers and security codes are caught, ordinary names are not.
import { describe, expect, it } from 'vitest';
import { isCardFieldName } from '../../shared/card-fields.js';

describe('card field names', () => {
  it('catches card numbers and security codes however they are spelled', () => {
    for (const name of ['cardnumber', 'card-number', 'card_number', 'cardNumber', 'CardNumber', 'card-num', 'cardno', 'ccnum', 'cc-number', 'ccNo', 'creditcard', 'credit_card_number', 'payment[cardnumber]', 'billing.card.number', 'cvc', 'CVC', 'cvc2', 'cvv', 'cvv2', 'payment[cvv2]', 'csc', 'cvn', 'securityCode', 'security-code', 'card_cvc', 'cardCode', 'x-card-number-1']) {
      expect(isCardFieldName(name), name).toBe(true);
    }
  });

  it('leaves other names alone', () => {
    for (const name of [null, undefined, '', 'number', 'phone-number', 'phoneNumber', 'accnum', 'account-number', 'cardholder', 'card-holder-name', 'card', 'cc', 'discs', 'cvcx', 'code', 'zip', 'email', 'cardnumberx', 'a'.repeat(201) + '-cvc']) {
      expect(isCardFieldName(name), String(name)).toBe(false);
    }
  });
});
