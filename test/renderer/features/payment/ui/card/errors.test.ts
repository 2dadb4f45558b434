// Declines and refusals in the form: a message of our own per code in both languages, else main's refusal by its code, else a generic one.
import { describe, expect, it } from 'vitest';
import {
  describeCardError,
  errorMessageKey,
  EXPLAINED_CODES,
  refusesTheCard,
  toCardError,
} from '../../../../../../renderer/src/features/payment/ui/card/errors';
import { translate, type PlainKey } from '../../../../../../renderer/src/i18n/catalogue';

const SPEC_CODES = [
  'card_declined',
  'insufficient_funds',
  'expired_card',
  'incorrect_cvc',
  'processing_error',
  'invalid_card',
];
const inSpanish = (key: PlainKey): string => translate('es-MX', key);
const inEnglish = (key: PlainKey): string => translate('en-US', key);

describe('errorMessageKey', () => {
  it('explains every decline code of the spec', () => {
    for (const code of SPEC_CODES) expect(EXPLAINED_CODES).toContain(code);
  });

  it.each(EXPLAINED_CODES)('%s has its own message, different from every other code’s, in both languages', (code) => {
    const key = errorMessageKey(code);
    expect(key).toBe(`card.error.${code}`);
    if (!key) return;
    for (const other of EXPLAINED_CODES.filter((c) => c !== code)) {
      const otherKey = errorMessageKey(other);
      if (!otherKey) throw new Error(`no key for ${other}`);
      expect(inSpanish(key)).not.toBe(inSpanish(otherKey));
      expect(inEnglish(key)).not.toBe(inEnglish(otherKey));
    }
    expect(inSpanish(key)).not.toBe(inEnglish(key));
  });

  it('has no message of its own for other codes, nor for names on the object prototype', () => {
    expect(errorMessageKey('rate_limited')).toBeUndefined();
    expect(errorMessageKey('constructor')).toBeUndefined();
    expect(errorMessageKey('toString')).toBeUndefined();
  });
});

describe('describeCardError', () => {
  it('uses the code’s message in the screen’s language', () => {
    expect(
      describeCardError({ code: 'card_declined', message: 'The card was declined by the issuer.' }, inSpanish),
    ).toBe('El banco emisor rechazó la tarjeta. Pida al huésped otra tarjeta.');
    expect(describeCardError({ code: 'incorrect_cvc', message: 'x' }, inEnglish)).toMatch(
      /security code \(CVV\) is incorrect/,
    );
  });

  it('words a code main can emit from the catalogues, never with main’s English message', () => {
    expect(describeCardError({ code: 'rate_limited', message: 'Too many requests: wait a minute.' }, inSpanish)).toBe(
      'El servicio de pagos está ocupado. Intente de nuevo en un momento.',
    );
  });

  it('falls back to a generic message for a code nobody words, whatever message came with it', () => {
    expect(describeCardError({ code: 'weird', message: 'Weird things happened.' }, inSpanish)).toBe(
      translate('es-MX', 'card.error.unexpected'),
    );
    expect(describeCardError({ code: 'weird' }, inEnglish)).toBe(translate('en-US', 'card.error.unexpected'));
  });
});

describe('toCardError', () => {
  it('keeps the code and message of what was thrown, nothing else', () => {
    const thrown = Object.assign(new Error('The card was declined by the issuer.'), {
      code: 'card_declined',
      field: 'number',
      card: { number: '4000000000000002' },
    });
    expect(toCardError(thrown)).toEqual({ code: 'card_declined', message: 'The card was declined by the issuer.' });
  });

  it('makes an unexpected error of anything without a code', () => {
    expect(toCardError(new Error('boom'))).toEqual({ code: 'unexpected', message: 'boom' });
    expect(toCardError('a string')).toEqual({ code: 'unexpected', message: '' });
    expect(toCardError(undefined)).toEqual({ code: 'unexpected', message: '' });
    expect(toCardError({ code: 42, message: 7 })).toEqual({ code: 'unexpected', message: '' });
  });
});

describe('refusesTheCard', () => {
  it('sends the agent back for another card on a decline, keeps the card on a passing fault', () => {
    for (const code of [
      'card_declined',
      'insufficient_funds',
      'expired_card',
      'incorrect_cvc',
      'invalid_card',
      'authentication_failed',
    ]) {
      expect(refusesTheCard(code)).toBe(true);
    }
    for (const code of ['processing_error', 'unavailable', 'invalid_amount', 'unexpected'])
      expect(refusesTheCard(code)).toBe(false);
  });
});
