// The table of card data as people really say and write it: every card spelling and security-code phrase is found and
// redacted by the one detector, and every look-alike an agent writes every day passes untouched.
import { describe, expect, it } from 'vitest';
import { findCardData, isCardNumberDigits, redactCardData } from '../../../shared/text';
import {
  ALL_CARD_SPELLINGS,
  ALL_CVV_PHRASES,
  DAILY_LOOK_ALIKES,
  holdsCard,
  NEAR_MISSES,
  readDigits,
  SPOKEN_CARD_SPELLINGS,
  SPOKEN_CVV_PHRASES,
} from './spellings';

describe('the table of card data', () => {
  it('has at least 50 card spellings, 15 security-code phrases and 20 look-alikes, each different', () => {
    expect(ALL_CARD_SPELLINGS.length).toBeGreaterThanOrEqual(50);
    expect(SPOKEN_CARD_SPELLINGS.length).toBeGreaterThanOrEqual(50);
    expect(new Set(ALL_CARD_SPELLINGS.map((s) => s.text)).size).toBe(ALL_CARD_SPELLINGS.length);
    expect(SPOKEN_CVV_PHRASES.length).toBeGreaterThanOrEqual(15);
    expect(new Set(ALL_CVV_PHRASES.map((p) => p.text)).size).toBe(ALL_CVV_PHRASES.length);
    expect(DAILY_LOOK_ALIKES.length + NEAR_MISSES.length).toBeGreaterThanOrEqual(20);
    for (const spelling of ALL_CARD_SPELLINGS) {
      expect(isCardNumberDigits(spelling.digits)).toBe(true);
      expect(readDigits(spelling.text)).toContain(spelling.digits);
    }
  });
});

describe('card spellings: each one found and redacted', () => {
  it.each(ALL_CARD_SPELLINGS)('$name', ({ text, digits }) => {
    expect(findCardData(text).some((match) => match.kind === 'card_number')).toBe(true);
    for (const sentence of [text, `La tarjeta del huésped es ${text} y vence pronto.`, `pan: ${text}\nok`]) {
      const redacted = redactCardData(sentence);
      expect(redacted).toContain('[card]');
      // Neither end of the number is left: at most a few of its digits stay beside the placeholder.
      expect(holdsCard(redacted, digits)).toBe(false);
    }
  });
});

describe('security-code phrases: the code found and redacted', () => {
  it.each(ALL_CVV_PHRASES)('$text', ({ text, value }) => {
    const matches = findCardData(text);
    expect(matches.map((match) => match.kind)).toEqual(['security_code']);
    expect(text.slice(matches[0]?.start, matches[0]?.end)).toBe(value);
    expect(redactCardData(text)).toBe(text.replace(value, '[cvv]'));
    expect(findCardData(`Nota: ${text}.`).map((match) => match.kind)).toEqual(['security_code']);
  });
});

describe('look-alikes: not card data', () => {
  it.each([...DAILY_LOOK_ALIKES, ...NEAR_MISSES])('$name', ({ text }) => {
    expect(findCardData(text)).toEqual([]);
    expect(redactCardData(text)).toBe(text);
  });
});
