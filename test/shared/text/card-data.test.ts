// The one card-data detector: 20 spellings of a card number and CVV phrases found; phones, amounts, dates, ids left alone.
import { describe, expect, it } from 'vitest';
import {
  containsCardData,
  findCardData,
  isCardNumberDigits,
  isPlausibleCardLength,
  redactCardData,
} from '../../../shared/text';
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
    expect(sentence.slice(match?.start, match?.end).replace(/[^\p{Nd}]/gu, '')).toHaveLength(
      [...text.replace(/[^\p{Nd}]/gu, '')].length,
    );
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
    // Windows of the card with its expiry pass Luhn too, but a slash among spaces lists two things: the card alone.
    expect(redactCardData('4242 4242 4242 4242 12/28 123')).toBe('[card] 12/28 123');
    // Windows of the card with what follows pass Luhn too: overlapping windows go together.
    expect(redactCardData('4242 4242 4242 4242 12 30')).toBe('[card]');
    expect(redactCardData('3782 822463 10005 1234')).toBe('[card] 1234');
    expect(redactCardData('ref 7 5555-5555-5555-4444')).toBe('ref 7 [card]');
    // "12 5555 5555 5555" passes Luhn too, but no brand issues 16-digit cards starting 12: the reference stays.
    expect(redactCardData('ref 12 5555-5555-5555-4444')).toBe('ref 12 [card]');
    expect(redactCardData('card4242424242424242x')).toBe('card[card]x');
  });

  it('a 12-digit card on its own is found; inside a longer run only 13 digits or more are', () => {
    expect(isCardNumberDigits('675964982643')).toBe(false);
    expect(isCardNumberDigits('501800000009')).toBe(true);
    // Under 14 digits, Luhn is not enough: the number must be a known brand's card of that length (a Maestro here).
    expect(isCardNumberDigits('523222241987')).toBe(false);
    expect(containsCardData('501800000009')).toBe(true);
    expect(containsCardData('1204 5018 0000 0009 7')).toBe(false);
    // A 13-digit Visa beside a phone in a pasted row is found.
    expect(redactCardData('"+52 998 123 4567","4222 222 222 222","x"')).toBe('"+52 998 123 4567","[card]","x"');
  });

  it('a card number after a + is still found when it is longer than a phone number can be', () => {
    expect(containsCardData('+4242424242424242')).toBe(true);
    expect(containsCardData('+52 998 123 4567 4242 4242 4242 4242')).toBe(true);
  });

  it('card numbers with several in one text: each one redacted', () => {
    expect(redactCardData('a 4242424242424242 b 5555 5555 5555 4444 c')).toBe('a [card] b [card] c');
  });
});

describe('a phone after a +, told apart from a card', () => {
  it('a + then a number libphonenumber-js finds valid (15 digits at most) is a phone, even when its digits would pass as a card', () => {
    // 57 322 781 2753: Luhn-valid, of a Maestro prefix and length; written with its + it is a Colombian mobile.
    expect(isPlausibleCardLength('573227812753')).toBe(true);
    for (const phone of [
      '+57 322 781 2753',
      '+573227812753',
      'cel. +57 (322) 781-2753',
      '+52 998 123 4567',
      '+52 (998) 123-4567',
    ]) {
      expect(findCardData(phone)).toEqual([]);
    }
    // Two phones side by side: a window across them (…2753 57 322…) is made of phone digits only, and is no card.
    expect(findCardData('+57 322 781 2753, +57 322 781 2753 / +52 998 123 4567')).toEqual([]);
  });

  it('a + before digits that are no valid phone protects nothing; a + between digits is a separator', () => {
    for (const text of [
      '+4242 4242 4242 4242',
      '+4242424242424242',
      '(+4242) 4242-4242-4242',
      '4242+4242+4242+4242',
      '+52 1 4242 4242 4242 4242',
    ]) {
      expect(findCardData(text).map((m) => m.kind)).toEqual(['card_number']);
    }
  });

  it('a card beside a phone is found, the phone kept', () => {
    expect(redactCardData('+52 998 123 4567 4242 4242 4242 4242')).toBe('+52 998 123 4567 [card]');
    expect(redactCardData('4242 4242 4242 4242 +52 998 123 4567')).toBe('[card] +52 998 123 4567');
  });
});

describe('card lengths by brand', () => {
  it('Luhn is not enough: the length must be one a brand issues for those first digits', () => {
    // 16 digits passing Luhn, of no brand (9…, 0…, 12…): not a card. The same digits' brands' lengths: cards.
    for (const digits of ['9000000000000009', '0000000000000000', '1200000000000006'])
      expect(isCardNumberDigits(digits)).toBe(false);
    // Visa 13 (not in card-validator's list), UATP 15, Maestro 19, a 17-digit 6011… (a Maestro, though no Discover).
    for (const digits of ['4222222222222', '122000000000003', '6759649826438453', '60110000000000006']) {
      expect([digits, isPlausibleCardLength(digits)]).toEqual([digits, true]);
    }
    expect(isPlausibleCardLength('4242424242424')).toBe(true);
    expect(isPlausibleCardLength('42424242424242')).toBe(false);
  });
});

describe('letters that stand for digits', () => {
  it('O, o, l and I among digits are read as digits; a lone letter or a word of them among words is not', () => {
    expect(redactCardData('tarjeta 4OOO OOOO OOOO 322O ok')).toBe('tarjeta [card] ok');
    expect(redactCardData('5lO5 lO5l O5lO 5lOO')).toBe('[card]');
    // "o" is Spanish for "or": between two halves of a number it is a word, and the halves are not joined.
    expect(findCardData('4242 4242 o 4242 4242')).toEqual([]);
    expect(findCardData('Lo llamé al 998 123 4567 o al 55 1234 5678; Oil 4242 room 1204')).toEqual([]);
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
    expect(redactCardData('cvv 123 and 4242424242424242', { card: '<c>', securityCode: '<s>' })).toBe(
      'cvv <s> and <c>',
    );
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
    const date = () =>
      `${2000 + Math.floor(random() * 40)}-${pad(1 + Math.floor(random() * 12))}-${pad(1 + Math.floor(random() * 28))}`;
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

  it('an audit export of thousands of rows (ids, times, hashes, amounts side by side across commas) holds no card', () => {
    const random = seeded(23);
    const hex = (n: number) => Array.from({ length: n }, () => '0123456789abcdef'[Math.floor(random() * 16)]).join('');
    const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`;
    const rows = ['desk_id,seq,at,actor,action,outcome,resource,request_id,details,hash'];
    for (let seq = 1; seq <= 5000; seq++) {
      const at = new Date(Date.UTC(2026, 10, 27, 9, 0, 0) + Math.floor(random() * 36_000_000)).toISOString();
      const details = JSON.stringify({
        amountCents: Math.floor(random() * 10_000_000),
        attempt: 1 + Math.floor(random() * 5),
        ms: Math.floor(random() * 2000),
      });
      rows.push(
        `${uuid()},${seq},${at},ana,payment.create,ok,pay_${hex(32)},req_${hex(24)},"${details.replaceAll('"', '""')}",${hex(64)}`,
      );
    }
    const csv = rows.join('\r\n');
    expect(findCardData(csv)).toEqual([]);
  });

  it('long texts without digits are answered at once', () => {
    expect(findCardData('x'.repeat(1_000_000))).toEqual([]);
  });

  it('long texts made to make a regex backtrack are read to the end: a card after each kind is still found', () => {
    const card = ' 4242 4242 4242 4242';
    const traps = [
      'a'.repeat(200_000),
      'abc123'.repeat(40_000),
      `${'0'.repeat(200_000)}g`,
      '1,'.repeat(100_000),
      'cvv '.repeat(50_000),
      '- '.repeat(100_000),
      '4 '.repeat(100_000),
    ];
    for (const trap of traps) expect(findCardData(`${trap}${card}`).at(-1)?.kind).toBe('card_number');
  });
});
