// The one card-data detector: 20 spellings of a card number and CVV phrases found; phones, amounts, dates, ids left alone.
import { describe, expect, it } from 'vitest';
import { containsCardData, findCardData, isCardNumberDigits, redactCardData } from '../../../shared/text';
import { CARD_SPELLINGS, CVV_PHRASES, MORE_CARD_SPELLINGS, NEAR_MISSES } from './spellings';

/** A small seeded generator: the same "random" texts on every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('card numbers', () => {
  it('the spellings are 20 different texts, each of a Luhn-valid test number', () => {
    expect(CARD_SPELLINGS).toHaveLength(20);
    expect(new Set(CARD_SPELLINGS.map((s) => s.text)).size).toBe(20);
    for (const spelling of CARD_SPELLINGS) expect(isCardNumberDigits(spelling.digits)).toBe(true);
  });

  it.each(CARD_SPELLINGS)('finds $name, alone and inside a sentence', ({ text }) => {
    expect(findCardData(text)).toEqual([{ kind: 'card_number', start: 0, end: text.length }]);
    const sentence = `La tarjeta del huésped es ${text}, vence pronto.`;
    const [match] = findCardData(sentence);
    expect(match?.kind).toBe('card_number');
    expect(sentence.slice(match?.start, match?.end).replace(/[^\p{Nd}]/gu, '')).toHaveLength([...text.replace(/[^\p{Nd}]/gu, '')].length);
    expect(containsCardData(sentence)).toBe(true);
  });

  it.each(CARD_SPELLINGS)('redacts $name to [card], keeping the words around it', ({ text }) => {
    expect(redactCardData(`pan ${text} ok`)).toBe('pan [card] ok');
  });

  it.each(MORE_CARD_SPELLINGS)('finds and redacts $name too', ({ text, digits }) => {
    expect(isCardNumberDigits(digits)).toBe(true);
    expect(findCardData(text)).toEqual([{ kind: 'card_number', start: 0, end: text.length }]);
    expect(redactCardData(`pan ${text} ok`)).toBe('pan [card] ok');
  });

  it('a CLABE hides no card: a card grouped otherwise, or after a room number, is still found', () => {
    // 18 digits passing the CLABE check and Luhn, but grouped as a card with a room number before it.
    expect(containsCardData('hab 04 4242 4242 4242 4242')).toBe(true);
    expect(containsCardData('012 3782 822463 10005')).toBe(true);
  });

  it('finds the card inside a longer run of groups: followed by its expiry and CVV, or after a reference', () => {
    expect(redactCardData('4242 4242 4242 4242 12 28')).toBe('[card] 12 28');
    expect(redactCardData('4242424242424242 exp 12/28 cvv 123')).toBe('[card] exp 12/28 cvv [cvv]');
    // Windows of the card with its expiry pass Luhn too: overlapping windows go together, expiry and CVV with them.
    expect(redactCardData('4242 4242 4242 4242 12/28 123')).toBe('[card]');
    expect(redactCardData('3782 822463 10005 1234')).toBe('[card] 1234');
    expect(redactCardData('ref 7 5555-5555-5555-4444')).toBe('ref 7 [card]');
    // "12 5555 5555 5555" passes Luhn too: overlapping windows are redacted together, never leaving part of the card.
    expect(redactCardData('ref 12 5555-5555-5555-4444')).toBe('ref [card]');
    expect(redactCardData('card4242424242424242x')).toBe('card[card]x');
  });

  it('a 12-digit card on its own is found; inside a longer run only 14 digits or more are', () => {
    expect(isCardNumberDigits('675964982643')).toBe(false);
    expect(isCardNumberDigits('501800000009')).toBe(true);
    // Under 14 digits, Luhn is not enough: the number must be a known brand's card of that length (a Maestro here).
    expect(isCardNumberDigits('523222241987')).toBe(false);
    expect(containsCardData('501800000009')).toBe(true);
    expect(containsCardData('1204 5018 0000 0009 7')).toBe(false);
  });

  it('a card number after a + is still found when it is longer than a phone number can be', () => {
    expect(containsCardData('+4242424242424242')).toBe(true);
    expect(containsCardData('+52 998 123 4567 4242 4242 4242 4242')).toBe(true);
  });

  it('card numbers with several in one text: each one redacted', () => {
    expect(redactCardData('a 4242424242424242 b 5555 5555 5555 4444 c')).toBe('a [card] b [card] c');
  });
});

describe('CVVs after their name', () => {
  it.each(CVV_PHRASES)('finds "$text"', ({ text, value }) => {
    const matches = findCardData(text);
    expect(matches).toHaveLength(1);
    expect(matches[0]?.kind).toBe('security_code');
    expect(text.slice(matches[0]?.start, matches[0]?.end)).toBe(value);
    expect(redactCardData(text)).toBe(text.replace(value, '[cvv]'));
  });

  it('the placeholders can be chosen (the logs use their own)', () => {
    expect(redactCardData('cvv 123 and 4242424242424242', { card: '<c>', securityCode: '<s>' })).toBe('cvv <s> and <c>');
  });
});

describe('near misses: not card data', () => {
  it.each(NEAR_MISSES)('$name', ({ text }) => {
    expect(findCardData(text)).toEqual([]);
    expect(redactCardData(text)).toBe(text);
  });

  it('thousands of UUIDs, payment ids, Mexican mobiles, date pairs and amounts: none is taken for a card', () => {
    const random = seeded(12);
    const hex = (n: number) => Array.from({ length: n }, () => '0123456789abcdef'[Math.floor(random() * 16)]).join('');
    const digits = (n: number) => Array.from({ length: n }, () => String(Math.floor(random() * 10))).join('');
    const pad = (n: number) => String(n).padStart(2, '0');
    const date = () => `${2000 + Math.floor(random() * 40)}-${pad(1 + Math.floor(random() * 12))}-${pad(1 + Math.floor(random() * 28))}`;
    const flagged: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const texts = [
        `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`,
        // A UUID made of digits only (the rarest kind) is an id too.
        `${digits(8)}-${digits(4)}-4${digits(3)}-8${digits(3)}-${digits(12)}`,
        `pay_${hex(32)}`,
        `+52 ${digits(3)} ${digits(3)} ${digits(4)}`,
        `+52${digits(10)}`,
        `${date()} ${date()}`,
        `${date().split('-').reverse().join('/')} ${date().split('-').reverse().join('/')}`,
        `${Math.floor(random() * 900 + 100)},${digits(3)}.${digits(2)} ${Math.floor(random() * 900 + 100)},${digits(3)}.${digits(2)}`,
      ];
      for (const text of texts) if (containsCardData(text)) flagged.push(text);
    }
    expect(flagged).toEqual([]);
  });

  it('long texts without digits are answered at once', () => {
    expect(findCardData('x'.repeat(1_000_000))).toEqual([]);
  });
});
