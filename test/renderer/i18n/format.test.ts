// Amounts with their currency code, and dates and times in the language and the agent's time zone.
import { describe, expect, it } from 'vitest';
import {
  formatDate,
  formatDateInput,
  formatDateTime,
  formatMoney,
  formatTime,
  parseDateInput,
} from '../../../renderer/src/i18n/format';

describe('formatMoney', () => {
  it.each([
    [1234.5, 'usd', 'en-US', '$1,234.50 USD'],
    [1234.5, 'mxn', 'en-US', '$1,234.50 MXN'],
    [1234.5, 'mxn', 'es-MX', '$1,234.50 MXN'],
    [1234.5, 'usd', 'es-MX', '$1,234.50 USD'],
    [0.1, 'mxn', 'es-MX', '$0.10 MXN'],
    [999_999.99, 'usd', 'en-US', '$999,999.99 USD'],
  ] as const)('%s %s in %s is %s', (amount, currency, language, expected) => {
    expect(formatMoney(amount, currency, language)).toBe(expected);
  });

  it('always names the currency, since "$" alone is pesos in Mexico and dollars in the US', () => {
    expect(formatMoney(10, 'usd', 'es-MX')).not.toBe(formatMoney(10, 'mxn', 'es-MX'));
  });

  it('rounds to cents', () => {
    expect(formatMoney(333.333, 'mxn', 'es-MX')).toBe('$333.33 MXN');
  });
});

describe('formatDate', () => {
  it('keeps a calendar date on its day in any time zone (a check-in day is not shifted)', () => {
    expect(formatDate('2025-03-14', 'en-US', 'America/Mexico_City')).toBe('Mar 14, 2025');
    expect(formatDate('2025-03-14', 'en-US', 'Pacific/Kiritimati')).toBe('Mar 14, 2025');
    expect(formatDate('2025-03-14', 'es-MX', 'America/Tijuana')).toMatch(/^14 mar\.? 2025$/);
  });

  it('shows an instant on the day it is in the agent’s time zone', () => {
    // 02:00 UTC on the 15th is still the 14th in Mexico City (UTC−6).
    expect(formatDate('2025-03-15T02:00:00Z', 'en-US', 'America/Mexico_City')).toBe('Mar 14, 2025');
    expect(formatDate('2025-03-15T02:00:00Z', 'en-US', 'UTC')).toBe('Mar 15, 2025');
  });

  it('shows a text that is not a date as it came', () => {
    expect(formatDate('not a date', 'en-US')).toBe('not a date');
    expect(formatDate('2025-13-45', 'en-US')).toBe('2025-13-45');
    expect(formatDate('2025-02-30', 'en-US')).toBe('2025-02-30');
    expect(formatDate('2024-02-29', 'en-US', 'UTC')).toBe('Feb 29, 2024');
  });
});

describe('formatDateTime', () => {
  it('writes the time of day the language’s way in the agent’s time zone', () => {
    expect(formatDateTime('2025-03-14T18:05:00Z', 'en-US', 'America/Mexico_City')).toMatch(
      /^Mar 14, 2025,? 12:05\sPM$/,
    );
    expect(formatDateTime('2025-03-14T18:05:00Z', 'es-MX', 'America/Mexico_City')).toMatch(
      /^14 mar\.? 2025,? 12:05\sp\.\s?m\.$/,
    );
    expect(formatDateTime('2025-03-14T18:05:00Z', 'es-MX', 'America/Cancun')).toMatch(/ 1:05\sp\.\s?m\.$/);
  });

  it('shows a calendar date alone as a date', () => {
    expect(formatDateTime('2025-03-14', 'en-US', 'America/Mexico_City')).toBe('Mar 14, 2025');
  });
});

describe('formatTime', () => {
  const at = Date.UTC(2025, 2, 14, 18, 5, 7);
  it('writes hours, minutes and seconds', () => {
    expect(formatTime(at, 'en-US', 'UTC')).toMatch(/^6:05:07\sPM$/);
    expect(formatTime(at, 'es-MX', 'UTC')).toMatch(/^6:05:07\sp\.\s?m\.$/);
    expect(formatTime(at, 'es-MX', 'America/Mexico_City')).toMatch(/^12:05:07\sp\.\s?m\.$/);
  });

  it('writes nothing for a time that is not a number', () => {
    expect(formatTime(Number.NaN, 'en-US')).toBe('');
  });
});

describe('dates typed in the desk’s format', () => {
  it('writes a day the language’s way: day first in Spanish, month first in English', () => {
    expect(formatDateInput('2025-03-14', 'es-MX')).toBe('14/03/2025');
    expect(formatDateInput('2025-03-14', 'en-US')).toBe('03/14/2025');
    expect(formatDateInput('2025-02-30', 'es-MX')).toBe('');
  });

  it('reads a day typed the language’s way, with any usual separator and a two-digit year', () => {
    expect(parseDateInput('14/03/2025', 'es-MX')).toBe('2025-03-14');
    expect(parseDateInput('14-3-25', 'es-MX')).toBe('2025-03-14');
    expect(parseDateInput('3/14/2025', 'en-US')).toBe('2025-03-14');
    expect(parseDateInput(' 03.14.2025 ', 'en-US')).toBe('2025-03-14');
    expect(parseDateInput('', 'es-MX')).toBe('');
  });

  it('refuses a day that does not exist, the other language’s order, or text', () => {
    expect(parseDateInput('03/14/2025', 'es-MX')).toBeUndefined();
    expect(parseDateInput('31/04/2025', 'es-MX')).toBeUndefined();
    expect(parseDateInput('mañana', 'es-MX')).toBeUndefined();
    expect(parseDateInput('2025-03-14', 'en-US')).toBeUndefined();
  });
});
