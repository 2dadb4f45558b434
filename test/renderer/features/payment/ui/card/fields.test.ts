// The card fields as pure functions: digits and groups as typed, MM/YY, and each field's state and message.
import { describe, expect, it } from 'vitest';
import {
  buildCardInput,
  caretAfterDigits,
  checkCvc,
  checkExpiry,
  checkNumber,
  cvcMaxLength,
  deletionOf,
  editCardNumber,
  editCvc,
  editExpiry,
  formatCardNumber,
  formatExpiry,
  isNumberFinished,
  numberMaxLength,
  parseExpiry,
  type CardFields,
} from '../../../../../../renderer/src/features/payment/ui/card/fields';

const VISA = '4242424242424242';
const AMEX = '378282246310005';
const MASTERCARD = '5555555555554444';
const TYPING: { left: boolean; submitted: boolean } = { left: false, submitted: false };
const LEFT = { left: true, submitted: false };
const SUBMITTED = { left: true, submitted: true };
const NOW = Date.UTC(2025, 5, 15); // 15 June 2025

describe('formatCardNumber', () => {
  it.each([
    ['', ''],
    ['4242', '4242'],
    ['42424', '4242 4'],
    [VISA, '4242 4242 4242 4242'],
    ['4242424242424242424', '4242 4242 4242 4242 424'],
    [AMEX, '3782 822463 10005'],
    [MASTERCARD, '5555 5555 5555 4444'],
    ['36227206271667', '3622 720627 1667'],
  ])('%s → "%s"', (digits, text) => {
    expect(formatCardNumber(digits)).toBe(text);
  });
});

describe('numberMaxLength', () => {
  it('is the brand’s longest number, 19 while the brand is unknown', () => {
    expect(numberMaxLength('34')).toBe(15);
    expect(numberMaxLength('55')).toBe(16);
    expect(numberMaxLength('42')).toBe(19);
    expect(numberMaxLength('')).toBe(19);
    expect(numberMaxLength('1')).toBe(19);
  });
});

describe('editCardNumber', () => {
  it('groups the digits as they are typed and keeps the caret after the typed digit', () => {
    // "4242" + "4" typed at the end: the space is inserted before the new digit.
    expect(editCardNumber('4242', '42424', 5, undefined)).toEqual({ digits: '42424', text: '4242 4', caret: 6 });
  });

  it('keeps the caret in place when a digit is typed in the middle', () => {
    // "4242 4242" with "9" typed after the second digit.
    const next = editCardNumber('42424242', '429424242', 3, undefined);
    expect(next.digits).toBe('429424242');
    expect(next.text).toBe('4294 2424 2');
    expect(next.caret).toBe(3);
  });

  it('deletes the digit before a space when backspace removes only the space', () => {
    // "4242 4|" → backspace over the space at index 4 leaves "42424" with the caret at 4.
    const next = editCardNumber('42424', '42424', 4, 'backward');
    expect(next.digits).toBe('4244');
    expect(next.text).toBe('4244');
    expect(next.caret).toBe(3);
  });

  it('deletes the digit after a space when Delete removes only the space', () => {
    const next = editCardNumber('42425', '42425', 4, 'forward');
    expect(next.digits).toBe('4242');
    expect(next.caret).toBe(4);
  });

  it('keeps only the digits of a pasted number', () => {
    expect(editCardNumber('', '4242-4242 4242.4242', 19, undefined)).toEqual({
      digits: VISA,
      text: '4242 4242 4242 4242',
      caret: 19,
    });
  });

  it('stops at the brand’s length (15 for American Express)', () => {
    expect(editCardNumber(AMEX, `${AMEX}9`, 16, undefined).digits).toBe(AMEX);
    expect(editCardNumber('', '42424242424242424242424', 23, undefined).digits).toHaveLength(19);
  });

  it('ignores letters', () => {
    expect(editCardNumber('42', '42a', 3, undefined)).toEqual({ digits: '42', text: '42', caret: 2 });
  });
});

describe('caretAfterDigits and deletionOf', () => {
  it('finds the place after the n-th digit', () => {
    expect(caretAfterDigits('4242 4242', 0)).toBe(0);
    expect(caretAfterDigits('4242 4242', 4)).toBe(4);
    expect(caretAfterDigits('4242 4242', 5)).toBe(6);
    expect(caretAfterDigits('12/34', 3)).toBe(4);
    expect(caretAfterDigits('12', 9)).toBe(2);
  });

  it('reads the direction of a deletion from the input type', () => {
    expect(deletionOf('deleteContentBackward')).toBe('backward');
    expect(deletionOf('deleteWordBackward')).toBe('backward');
    expect(deletionOf('deleteContentForward')).toBe('forward');
    expect(deletionOf('insertText')).toBeUndefined();
    expect(deletionOf(undefined)).toBeUndefined();
  });
});

describe('expiry', () => {
  it('shows the slash with the third digit', () => {
    expect(formatExpiry('1')).toBe('1');
    expect(formatExpiry('12')).toBe('12');
    expect(formatExpiry('123')).toBe('12/3');
    expect(formatExpiry('1234')).toBe('12/34');
  });

  it('takes four typed digits as MM/YY', () => {
    let digits = '';
    let text = '';
    for (const key of '1230') {
      const next = editExpiry(digits, text + key, text.length + 1, undefined);
      digits = next.digits;
      text = next.text;
    }
    expect(digits).toBe('1230');
    expect(text).toBe('12/30');
  });

  it('reads a first digit 2–9 as the month 02–09', () => {
    expect(editExpiry('', '4', 1, undefined)).toEqual({ digits: '04', text: '04', caret: 2 });
    expect(editExpiry('', '1', 1, undefined)).toEqual({ digits: '1', text: '1', caret: 1 });
    expect(editExpiry('', '0', 1, undefined).digits).toBe('0');
  });

  it('does not re-add the zero while deleting', () => {
    expect(editExpiry('04', '4', 0, 'backward').digits).toBe('4');
  });

  it('deletes the month’s last digit when backspace removes only the slash', () => {
    // "12/|3" → backspace over the slash.
    expect(editExpiry('123', '123', 2, 'backward')).toEqual({ digits: '13', text: '13', caret: 1 });
  });

  it('keeps at most four digits, from a paste too', () => {
    expect(editExpiry('', '12/2030', 7, undefined).digits).toBe('1220');
  });

  it('parses MMYY into month and four-digit year', () => {
    expect(parseExpiry('1230')).toEqual({ month: 12, year: 2030 });
    expect(parseExpiry('0127')).toEqual({ month: 1, year: 2027 });
    expect(parseExpiry('1330')).toBeUndefined();
    expect(parseExpiry('0030')).toBeUndefined();
    expect(parseExpiry('123')).toBeUndefined();
  });
});

describe('checkNumber', () => {
  it('is empty, then incomplete without a message while the agent types', () => {
    expect(checkNumber('', TYPING)).toEqual({ status: 'empty' });
    expect(checkNumber('424242', TYPING)).toEqual({ status: 'incomplete' });
  });

  it('asks for the number once the agent tries to continue without one', () => {
    expect(checkNumber('', SUBMITTED)).toEqual({ status: 'invalid', message: { key: 'common.requiredField' } });
  });

  it('says the number is incomplete once the agent leaves it short', () => {
    expect(checkNumber('424242', LEFT)).toEqual({
      status: 'invalid',
      message: { key: 'card.number.error.incomplete' },
    });
  });

  it('accepts a Luhn-valid number of the brand’s length', () => {
    for (const number of [VISA, AMEX, MASTERCARD, '4000004840000008'])
      expect(checkNumber(number, TYPING).status).toBe('valid');
  });

  it('refuses a Luhn failure as soon as the number is complete', () => {
    expect(checkNumber('4242424242424241', LEFT)).toEqual({
      status: 'invalid',
      message: { key: 'card.number.error.invalid' },
    });
    expect(checkNumber('378282246310006', TYPING)).toEqual({
      status: 'invalid',
      message: { key: 'card.number.error.invalid' },
    });
    expect(checkNumber('5555555555554440', TYPING)).toEqual({
      status: 'invalid',
      message: { key: 'card.number.error.invalid' },
    });
  });

  it('waits for a Visa of 16 digits failing Luhn: it may still grow to 19', () => {
    expect(checkNumber('4242424242424241', TYPING)).toEqual({ status: 'incomplete' });
  });

  it('refuses a length the brand does not have', () => {
    expect(checkNumber('42424242424242426', LEFT).status).toBe('invalid');
  });
});

describe('isNumberFinished', () => {
  it('is true for a valid number of the brand’s usual length', () => {
    expect(isNumberFinished(VISA)).toBe(true);
    expect(isNumberFinished(AMEX)).toBe(true);
    expect(isNumberFinished(MASTERCARD)).toBe(true);
  });

  it('is false while short or invalid', () => {
    expect(isNumberFinished(VISA.slice(0, 15))).toBe(false);
    expect(isNumberFinished('4242424242424241')).toBe(false);
  });
});

describe('checkExpiry', () => {
  it('refuses an impossible month as soon as it is typed', () => {
    expect(checkExpiry('13', TYPING, NOW)).toEqual({ status: 'invalid', message: { key: 'card.expiry.error.month' } });
    expect(checkExpiry('00', TYPING, NOW)).toEqual({ status: 'invalid', message: { key: 'card.expiry.error.month' } });
  });

  it('waits while typing, then says incomplete once left', () => {
    expect(checkExpiry('123', TYPING, NOW)).toEqual({ status: 'incomplete' });
    expect(checkExpiry('123', LEFT, NOW)).toEqual({
      status: 'invalid',
      message: { key: 'card.expiry.error.incomplete' },
    });
    expect(checkExpiry('', SUBMITTED, NOW).message).toEqual({ key: 'common.requiredField' });
  });

  it('accepts the current month to its end and refuses the month before', () => {
    expect(checkExpiry('0625', TYPING, NOW)).toEqual({ status: 'valid' });
    expect(checkExpiry('0525', TYPING, NOW)).toEqual({
      status: 'invalid',
      message: { key: 'card.expiry.error.expired' },
    });
    expect(checkExpiry('0625', TYPING, Date.UTC(2025, 6, 1))).toEqual({
      status: 'invalid',
      message: { key: 'card.expiry.error.expired' },
    });
  });

  it('refuses a year more than 20 years ahead', () => {
    expect(checkExpiry('1245', TYPING, NOW).status).toBe('valid');
    expect(checkExpiry('0146', TYPING, NOW)).toEqual({
      status: 'invalid',
      message: { key: 'card.expiry.error.tooFar' },
    });
  });
});

describe('checkCvc', () => {
  it('wants 3 digits for Visa and Mastercard, 4 for American Express', () => {
    expect(checkCvc('123', VISA, TYPING).status).toBe('valid');
    expect(checkCvc('123', MASTERCARD, TYPING).status).toBe('valid');
    expect(checkCvc('1234', AMEX, TYPING).status).toBe('valid');
    expect(checkCvc('123', AMEX, TYPING).status).toBe('incomplete');
  });

  it('names the length the card needs', () => {
    expect(checkCvc('123', AMEX, LEFT)).toEqual({
      status: 'invalid',
      message: { key: 'card.cvc.error.length', vars: { length: 4 } },
    });
    expect(checkCvc('1234', VISA, TYPING)).toEqual({
      status: 'invalid',
      message: { key: 'card.cvc.error.length', vars: { length: 3 } },
    });
  });

  it('caps typing at the brand’s length, at 4 while the brand is unknown', () => {
    expect(cvcMaxLength(VISA)).toBe(3);
    expect(cvcMaxLength(AMEX)).toBe(4);
    expect(cvcMaxLength('')).toBe(4);
    expect(editCvc('123', '1234', 4, VISA).digits).toBe('123');
    expect(editCvc('123', '1234', 4, AMEX).digits).toBe('1234');
    expect(editCvc('', '1a2', 3, VISA).digits).toBe('12');
  });
});

describe('buildCardInput', () => {
  const card = (fields: Partial<CardFields>): CardFields => ({
    number: VISA,
    expiry: '1230',
    cvc: '123',
    holder: '',
    ...fields,
  });

  it('builds the CardInput main expects', () => {
    expect(buildCardInput(card({}), NOW)).toEqual({
      ok: true,
      card: { number: VISA, expMonth: 12, expYear: 2030, cvv: '123' },
    });
  });

  it('sends the name trimmed, and no name at all when blank', () => {
    const built = buildCardInput(card({ holder: '  Ana López ' }), NOW);
    expect(built.ok && built.card.holderName).toBe('Ana López');
    const blank = buildCardInput(card({ holder: '   ' }), NOW);
    expect(blank.ok && 'holderName' in blank.card).toBe(false);
  });

  it('names the first field at fault, in tab order', () => {
    expect(buildCardInput(card({ number: '4242', expiry: '', cvc: '' }), NOW)).toMatchObject({
      ok: false,
      field: 'number',
      code: 'invalid_number',
    });
    expect(buildCardInput(card({ expiry: '0124', cvc: '' }), NOW)).toMatchObject({
      ok: false,
      field: 'expiry',
      code: 'invalid_expiry',
      message: { key: 'card.expiry.error.expired' },
    });
    expect(buildCardInput(card({ number: AMEX, cvc: '123' }), NOW)).toMatchObject({
      ok: false,
      field: 'cvc',
      code: 'invalid_cvc',
    });
    expect(buildCardInput(card({ cvc: '' }), NOW)).toMatchObject({
      ok: false,
      field: 'cvc',
      message: { key: 'common.requiredField' },
    });
  });

  it('a card number or CVV typed in the name field is refused there, in words of its own (the shared detector)', () => {
    expect(buildCardInput(card({ holder: 'Ana 4242 4242 4242 4242' }), NOW)).toEqual({
      ok: false,
      field: 'holder',
      code: 'invalid_card',
      message: { key: 'card.holder.error.cardData' },
    });
    expect(buildCardInput(card({ holder: 'Ana cvv 123' }), NOW)).toEqual({
      ok: false,
      field: 'holder',
      code: 'invalid_card',
      message: { key: 'card.holder.error.cardData' },
    });
    expect(buildCardInput(card({ holder: 'Ana\u202E' }), NOW)).toEqual({
      ok: false,
      field: 'holder',
      code: 'invalid_card',
      message: { key: 'card.holder.error.hidden' },
    });
  });

  it('accepts an American Express card with a 4-digit code', () => {
    expect(buildCardInput(card({ number: AMEX, cvc: '1234' }), NOW)).toMatchObject({
      ok: true,
      card: { number: AMEX, cvv: '1234' },
    });
  });
});
