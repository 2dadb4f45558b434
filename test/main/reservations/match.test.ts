// The match rules on their own (the REST adapter ranks partner answers with them; the store's SQL uses the same ranks).
import { describe, expect, it } from 'vitest';
import { RANK, foldText, matchRank, phoneKeys, queryKeys } from '../../../main/reservations';
import { reservation } from './helpers';

const rank = (text: string, overrides = {}): number | undefined => matchRank(reservation(overrides), queryKeys(text));

describe('foldText', () => {
  it.each([
    ['Núñez', 'nunez'],
    ['JOSÉ ÁNGEL', 'jose angel'],
    ['Zoë  Chloé\tBegoña', 'zoe chloe begona'],
    ['  Iñaki ', 'inaki'],
  ])('%s → %s', (text, folded) => {
    expect(foldText(text)).toBe(folded);
  });
});

describe('phone keys', () => {
  it('keeps the whole number and the number inside its country', () => {
    expect(phoneKeys('+529981234567')).toEqual({ digits: '529981234567', national: '9981234567' });
    expect(phoneKeys('+12015550123')).toEqual({ digits: '12015550123', national: '2015550123' });
  });

  it('takes a text for a phone only when it has phone characters and at least 7 digits', () => {
    expect(queryKeys('+52 (998) 123-4567').phoneDigits).toBe('529981234567');
    expect(queryKeys('998.123.4567').phoneDigits).toBe('9981234567');
    expect(queryKeys('123456').phoneDigits).toBeUndefined();
    expect(queryKeys('CUN-1234567').phoneDigits).toBeUndefined();
  });
});

describe('matchRank', () => {
  it('ranks confirmation number, e-mail, phone, whole name, word start, anywhere', () => {
    expect(rank('tst-000001')).toBe(RANK.confirmationNumber);
    expect(rank('ANA.LOPEZ@EXAMPLE.MX')).toBe(RANK.email);
    expect(rank('998 111 2233')).toBe(RANK.phone);
    expect(rank('+52 998 111 2233')).toBe(RANK.phone);
    expect(rank('ana lopez')).toBe(RANK.nameExact);
    expect(rank('lop')).toBe(RANK.nameWordStart);
    expect(rank('pez')).toBe(RANK.nameContains);
    expect([RANK.confirmationNumber, RANK.email, RANK.phone, RANK.nameExact, RANK.nameWordStart, RANK.nameContains]).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('does not match part of a confirmation number, e-mail or phone, nor a reservation without them', () => {
    expect(rank('TST-0000')).toBeUndefined();
    expect(rank('ana.lopez@')).toBeUndefined();
    expect(rank('1112233')).toBeUndefined();
    expect(rank('ana.lopez@example.mx', { guestEmail: undefined })).toBeUndefined();
    expect(rank('9981112233', { guestPhone: undefined })).toBeUndefined();
    expect(rank('maria')).toBeUndefined();
  });
});
