// Small pure helpers of the desks: local calendar days, a phone as people read it, an audit row's details in one line, a file
// download, a submitted form's text.
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/** The local calendar day of a moment as YYYY-MM-DD (the desk's own day, not UTC's). */
export function localIsoDate(at: Date = new Date()): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}

/** A phone as people read it, with its country code ("+1 617 555 0112"); a text that is not a phone is shown as it came. */
export function formatPhone(phone: string): string {
  return parsePhoneNumberFromString(phone)?.formatInternational() ?? phone;
}

function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === null || value === undefined) return '—';
  return JSON.stringify(value);
}

/** An audit row's details as compact text: "amount=500 · approvedBy=sam · requestedBy=ana". */
export function compactDetails(details: Readonly<Record<string, unknown>>): string {
  return Object.entries(details)
    .map(([key, value]) => `${key}=${valueText(value)}`)
    .join(' · ');
}

/** Saves a text as a file through the browser's download (a Blob and <a download>): the page does not navigate. */
export function downloadText(fileName: string, text: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Drops empty text filters, so that main sees only what the supervisor filled in. */
export function filled<T extends Record<string, string | undefined>>(values: T): Partial<T> {
  const out: Partial<T> = {};
  for (const [key, value] of Object.entries(values) as [keyof T, string | undefined][]) {
    const trimmed = value?.trim();
    if (trimmed) out[key] = trimmed as T[keyof T];
  }
  return out;
}

/** A text field's value from a submitted form ('' when the form has no such text). */
export function formText(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
}
