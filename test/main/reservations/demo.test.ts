// Training mode's demo reservations: realistic guests, hotels, phones and e-mails, and balances around every MSI threshold.
import { isValidPhoneNumber, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { describe, expect, it } from 'vitest';
import { ReservationView } from '../../../shared/reservations';
import { demoReservations } from '../../../main/reservations';
import { T0 } from './helpers';

const demo = demoReservations(T0);
const DAY = 86_400_000;

/** interface-decisions.md §8: plans of {3, 6, 9, 12, 18, 24} months, each offered from count × 100.00 MXN. */
const MSI_THRESHOLDS = [3, 6, 9, 12, 18, 24].map((count) => count * 100);

describe('demo reservations', () => {
  it('are about thirty, each valid by the shared schema, with unique confirmation numbers', () => {
    expect(demo.length).toBeGreaterThanOrEqual(28);
    expect(demo.length).toBeLessThanOrEqual(32);
    for (const r of demo) expect(ReservationView.parse(r)).toEqual(r);
    expect(new Set(demo.map((r) => r.confirmationNumber.toLowerCase())).size).toBe(demo.length);
  });

  it('have Mexican and US guests, many names with accents or ñ', () => {
    const accented = demo.filter((r) => /[^\x20-\x7e]/.test(r.guestName));
    expect(accented.length).toBeGreaterThanOrEqual(15);
    expect(demo.some((r) => r.guestName.includes('ñ'))).toBe(true);
    expect(demo.some((r) => /^(Emily|Michael|Sarah|David|Olivia|James|Ashley)\b/.test(r.guestName))).toBe(true);
  });

  it('are in hotels of Cancún, Mexico City and Los Cabos, among others', () => {
    const hotels = new Set(demo.map((r) => r.hotelName));
    for (const city of ['Cancún', 'Ciudad de México', 'Los Cabos'])
      expect([...hotels].some((h) => h.includes(city))).toBe(true);
    expect(hotels.size).toBeGreaterThanOrEqual(5);
  });

  it('have phones that exist (libphonenumber-js full metadata), in Mexico (+52) or the US (+1)', () => {
    const phones = demo.flatMap((r) => (r.guestPhone === undefined ? [] : [r.guestPhone]));
    expect(phones.length).toBeGreaterThanOrEqual(demo.length - 2);
    for (const phone of phones) {
      expect(phone).toMatch(/^\+(52|1)\d{10}$/);
      expect(isValidPhoneNumber(phone), phone).toBe(true);
      expect(['MX', 'US']).toContain(parsePhoneNumberFromString(phone)?.country);
    }
    expect(phones.some((p) => p.startsWith('+52'))).toBe(true);
    expect(phones.some((p) => p.startsWith('+1'))).toBe(true);
  });

  it('have e-mails only at example.com or example.mx', () => {
    const emails = demo.flatMap((r) => (r.guestEmail === undefined ? [] : [r.guestEmail]));
    expect(emails.length).toBeGreaterThanOrEqual(demo.length - 2);
    for (const email of emails) expect(email).toMatch(/^[a-z0-9.]+@example\.(com|mx)$/);
  });

  it('have mxn balances on and just below every MSI threshold, below all of them, and far above', () => {
    const mxn = demo.filter((r) => r.currency === 'mxn').map((r) => r.balanceDueCents);
    for (const threshold of MSI_THRESHOLDS) {
      expect(mxn, `${threshold}`).toContain(threshold * 100);
      expect(mxn, `${threshold - 0.01}`).toContain(threshold * 100 - 1);
    }
    expect(mxn.some((b) => b > 0 && b < 30_000)).toBe(true);
    expect(mxn.some((b) => b >= 1_000_000)).toBe(true);
    for (const b of demo.map((r) => r.balanceDueCents)) expect(Number.isSafeInteger(b)).toBe(true);
  });

  it('have usd balances too (never MSI), and one booking paid in full', () => {
    expect(demo.filter((r) => r.currency === 'usd').length).toBeGreaterThanOrEqual(5);
    expect(demo.some((r) => r.balanceDueCents === 0)).toBe(true);
  });

  it('place the stays around the day they are made, check-out after check-in', () => {
    const today = new Date(T0).toISOString().slice(0, 10);
    for (const r of demo) {
      expect(r.checkOut > r.checkIn).toBe(true);
      const offset = (Date.parse(r.checkIn) - Date.parse(today)) / DAY;
      expect(offset).toBeGreaterThanOrEqual(-7);
      expect(offset).toBeLessThanOrEqual(60);
    }
    expect(demo.some((r) => r.checkIn <= today && r.checkOut > today)).toBe(true);
    expect(demoReservations(T0 + 10 * DAY)[0]?.checkIn).not.toBe(demo[0]?.checkIn);
  });
});
