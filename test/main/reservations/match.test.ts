// The match rules on their own (the REST adapter ranks partner answers with them; the store's SQL uses the same ranks).
import { describe, expect, it } from 'vitest';
import {
  RANK,
  confirmationKey,
  foldText,
  matchRank,
  phoneKeys,
  queryKeys,
  searchWords,
} from '../../../main/reservations';
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

  it('takes a text for a phone only when it has phone characters and at least 4 digits (the end of a number)', () => {
    expect(queryKeys('+52 (998) 123-4567').phoneDigits).toBe('529981234567');
    expect(queryKeys('998.123.4567').phoneDigits).toBe('9981234567');
    expect(queryKeys('555 0164').phoneDigits).toBe('5550164');
    expect(queryKeys('0164').phoneDigits).toBe('0164');
    expect(queryKeys('164').phoneDigits).toBeUndefined();
    expect(queryKeys('CUN-1234567').phoneDigits).toBeUndefined();
  });
});

describe('confirmation keys', () => {
  it.each([
    ['CUN-6B3D8F', 'cun6b3d8f'],
    ['cun6b3d8f', 'cun6b3d8f'],
    [' Cun 6b3-D8f ', 'cun6b3d8f'],
    ['CUN–6B3D8F', 'cun6b3d8f'],
    ['ＣＵＮ-６B3D8F', 'cun6b3d8f'],
  ])('%s → %s (no dashes, spaces or case)', (text, key) => {
    expect(confirmationKey(text)).toBe(key);
    expect(queryKeys(text).id).toBe(key);
  });
});

describe('searchWords', () => {
  it.each([
    ["O'Connor", ['oconnor']],
    ['O’Connor', ['oconnor']],
    ['García, Pedro', ['garcia', 'pedro']],
    ['Chloé Dubois-Smith', ['chloe', 'dubois', 'smith']],
    ['  %_ ', []],
  ])('%s → %j (apostrophes dropped, other punctuation a space)', (text, words) => {
    expect(searchWords(text)).toEqual(words);
  });
});

describe('matchRank', () => {
  it('ranks confirmation number, e-mail, phone, its end, its start, part of a confirmation number, whole name, its words, word starts, anywhere', () => {
    expect(rank('tst-000001')).toBe(RANK.confirmationNumber);
    expect(rank('tst000001')).toBe(RANK.confirmationNumber);
    expect(rank('TST 000001')).toBe(RANK.confirmationNumber);
    expect(rank('ANA.LOPEZ@EXAMPLE.MX')).toBe(RANK.email);
    expect(rank('998 111 2233')).toBe(RANK.phone);
    expect(rank('+52 998 111 2233')).toBe(RANK.phone);
    expect(rank('111 2233')).toBe(RANK.phoneEnd);
    expect(rank('2233')).toBe(RANK.phoneEnd);
    expect(rank('998 111')).toBe(RANK.phoneStart);
    expect(rank('+52 998 1')).toBe(RANK.phoneStart);
    expect(rank('TST-0000')).toBe(RANK.confirmationPart);
    expect(rank('000001')).toBe(RANK.confirmationPart);
    expect(rank('ana lopez')).toBe(RANK.nameExact);
    expect(rank('lopez ana')).toBe(RANK.nameWords);
    expect(rank('lop')).toBe(RANK.nameWordStart);
    expect(rank('pez')).toBe(RANK.nameContains);
    expect(Object.values(RANK)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it.each([
    ['O’Connor', "Emily O'Connor"],
    ['oconnor', "Emily O'Connor"],
    ['dubois smith', 'Chloé Dubois-Smith'],
    ['Ortega Sofia', 'Sofía Núñez Ortega'],
    ['garcia pedro', 'García, Pedro'],
  ])('%s finds %s, as the built-in store does', (text, guestName) => {
    expect(rank(text, { guestName })).toBeDefined();
  });

  it('finds CUN-6B3D8F by a part of it, and a phone by its start', () => {
    expect(rank('6B3D8F', { confirmationNumber: 'CUN-6B3D8F' })).toBe(RANK.confirmationPart);
    expect(rank('CUN-6B3D', { confirmationNumber: 'CUN-6B3D8F' })).toBe(RANK.confirmationPart);
    expect(rank('998 123', { guestPhone: '+529981234567' })).toBe(RANK.phoneStart);
  });

  it('does not match a part of an e-mail, the middle of a phone, a short part or one without a digit, nor a reservation without them', () => {
    expect(rank('TST-')).toBeUndefined();
    expect(rank('ana.lopez@example')).toBeUndefined();
    expect(rank('1112')).toBeUndefined();
    expect(rank('ana.lopez@example.mx', { guestEmail: undefined })).toBeUndefined();
    expect(rank('9981112233', { guestPhone: undefined })).toBeUndefined();
    expect(rank('maria')).toBeUndefined();
    expect(rank('ana ez')).toBeUndefined();
  });
});
