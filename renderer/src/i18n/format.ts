/** Amounts, dates and times written the language's way with Intl, in the agent's time zone (Intl's default). */
import type { Language } from '../../../shared/language';

export type MoneyCurrency = 'usd' | 'mxn';

/** The currency a currency text means for formatting ("usd" or "mxn"; anything else is shown as pesos' code-less twin). */
export const moneyCurrency = (currency: string): MoneyCurrency => (currency === 'usd' ? 'usd' : 'mxn');

/** Intl's formatters are slow to make: each language and options' one is made once and kept. */
function kept<F>(formats: Map<string, F>, language: Language, options: object, make: () => F): F {
  const id = `${language}|${JSON.stringify(options)}`;
  let format = formats.get(id);
  if (format === undefined) {
    format = make();
    formats.set(id, format);
  }
  return format;
}

const numberFormats = new Map<string, Intl.NumberFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

const numberFormat = (language: Language, options: Intl.NumberFormatOptions): Intl.NumberFormat =>
  kept(numberFormats, language, options, () => new Intl.NumberFormat(language, options));

const dateFormat = (language: Language, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat =>
  kept(dateFormats, language, options, () => new Intl.DateTimeFormat(language, options));

/**
 * An amount in major units (1234.5) with its symbol and, always, its ISO code: "$1,234.50 MXN", "$1,234.50 USD".
 * The desk handles pesos and dollars side by side, and "$" alone means pesos in Mexico and dollars in the US.
 */
export function formatMoney(amount: number, currency: MoneyCurrency, language: Language): string {
  const code = currency.toUpperCase();
  const figure = numberFormat(language, { style: 'currency', currency: code, currencyDisplay: 'narrowSymbol' }).format(
    amount,
  );
  return `${figure} ${code}`;
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A calendar date ("2025-03-14", a check-in day) is the same day everywhere: never shifted by the time zone. */
function parseInstant(iso: string): { at: number; calendarDay: boolean } | undefined {
  const day = DATE_ONLY.exec(iso);
  if (day) {
    const at = Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]));
    // Date.UTC rolls "2025-13-45" over into 2026: a day that does not exist is not a date.
    return new Date(at).toISOString().startsWith(iso) ? { at, calendarDay: true } : undefined;
  }
  const at = Date.parse(iso);
  return Number.isNaN(at) ? undefined : { at, calendarDay: false };
}

/** "Mar 14, 2025" / "14 mar 2025"; a text that is not a date is shown as it came. */
export function formatDate(iso: string, language: Language, timeZone?: string): string {
  const instant = parseInstant(iso);
  if (!instant) return iso;
  return dateFormat(language, { dateStyle: 'medium', timeZone: instant.calendarDay ? 'UTC' : timeZone }).format(
    instant.at,
  );
}

/** "Mar 14, 2025, 3:05 PM" / "14 mar 2025, 15:05"; a calendar date alone is shown as a date. */
export function formatDateTime(iso: string, language: Language, timeZone?: string): string {
  const instant = parseInstant(iso);
  if (!instant) return iso;
  if (instant.calendarDay) return formatDate(iso, language);
  return dateFormat(language, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(instant.at);
}

/**
 * The time of day, hours and minutes, the one way the desk writes it: "3:56 PM" / "3:56 p.m." (never "03:56 p.m.": an
 * hour has no leading zero in either language), in the agent's time zone.
 */
export function formatClock(iso: string, language: Language, timeZone?: string): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  return dateFormat(language, { timeStyle: 'short', timeZone }).format(at);
}

/** An hour of the day (0–23) as the desk writes a time: "9:00 AM" / "9:00 a.m." (the report's hours, counted in its time zone). */
export function formatHour(hour: number, language: Language): string {
  return dateFormat(language, { timeStyle: 'short', timeZone: 'UTC' }).format(Date.UTC(2000, 0, 1, hour));
}

/** A moment of today with seconds (the next status check): "3:05:07 PM" / "15:05:07". */
export function formatTime(epochMs: number, language: Language, timeZone?: string): string {
  if (!Number.isFinite(epochMs)) return '';
  return dateFormat(language, { timeStyle: 'medium', timeZone }).format(epochMs);
}

/** The order of day, month and year when the language writes a date in figures: 14/03/2025 (es-MX), 03/14/2025 (en-US). */
const DAY_FIRST: { readonly [L in Language]: boolean } = { 'es-MX': true, 'en-US': false };

/** A calendar date ("2025-03-14") as the language writes it in a field: "14/03/2025" / "03/14/2025"; '' when not a date. */
export function formatDateInput(iso: string, language: Language): string {
  const day = DATE_ONLY.exec(iso);
  if (!day || parseInstant(iso) === undefined) return '';
  const [, year, month, date] = day;
  return DAY_FIRST[language] ? `${date}/${month}/${year}` : `${month}/${date}/${year}`;
}

/**
 * A date typed the language's way (day, month and year in its order, separated by "/", "-", "." or spaces; a two-digit
 * year is this century's) as a calendar date "2025-03-14"; '' for an empty field, undefined for a date that does not
 * exist or cannot be read.
 */
export function parseDateInput(text: string, language: Language): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return '';
  const parts = /^(\d{1,2})[/.\s-]+(\d{1,2})[/.\s-]+(\d{2}|\d{4})$/.exec(trimmed);
  if (!parts) return undefined;
  const [first = '', second = '', yearText = ''] = parts.slice(1);
  const [date, month] = DAY_FIRST[language] ? [first, second] : [second, first];
  const year = yearText.length === 2 ? `20${yearText}` : yearText;
  const iso = `${year}-${month.padStart(2, '0')}-${date.padStart(2, '0')}`;
  return parseInstant(iso) === undefined ? undefined : iso;
}
