// Security codes as agents really write them down from a call: the card named between the code's name and its value
// ("el cvv de la tarjeta es 123"), "los tres de atrás" without the word digits, and the value in quotes, guillemets,
// angle brackets or after a question or exclamation mark. Each is found, and only its digits are redacted.
import { describe, expect, it } from 'vitest';
import { findCardData, redactCardData } from '../../../shared/text';

const WORDINGS: readonly { text: string; value: string }[] = [
  { text: 'el cvv de la tarjeta es 123', value: '123' },
  { text: 'cvv de la tarjeta: 456', value: '456' },
  { text: 'el código de seguridad de su tarjeta es 789', value: '789' },
  { text: 'CVV of the card is 321', value: '321' },
  { text: 'security code for this card: 654', value: '654' },
  { text: 'the CVV on the card is 987', value: '987' },
  { text: 'los tres de atrás son 135', value: '135' },
  { text: 'los 3 de atrás: 246', value: '246' },
  { text: 'the 3 on the back are 579', value: '579' },
  { text: 'las 4 del frente 1357', value: '1357' },
  { text: 'cvv “123”', value: '123' },
  { text: 'cvv «456»', value: '456' },
  { text: 'cvv <789>', value: '789' },
  { text: 'cvv ‘321’', value: '321' },
  { text: '¿cvv? 654', value: '654' },
  { text: 'cvv! 987', value: '987' },
  { text: 'cvv *135*', value: '135' },
];

describe('security codes written as agents write them from a call', () => {
  it.each(WORDINGS)('$text', ({ text, value }) => {
    const matches = findCardData(text);
    expect(matches.map((match) => match.kind)).toEqual(['security_code']);
    expect(text.slice(matches[0]?.start, matches[0]?.end)).toBe(value);
    expect(redactCardData(text)).toBe(text.replace(value, '[cvv]'));
  });
});
