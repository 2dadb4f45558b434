/** Where the 3DS link may go: a mobile phone in E.164 (SMS, WhatsApp) or an e-mail address, checked alike in every layer. */
import { parsePhoneNumberFromString, type NumberType } from 'libphonenumber-js/max';
import { z } from 'zod';

export const MESSAGE_CHANNELS = ['sms', 'whatsapp', 'email'] as const;
/** How the link reaches the cardholder. */
export const MessageChannel = z.enum(MESSAGE_CHANNELS, { error: 'Choose SMS, WhatsApp or e-mail.' });
export type MessageChannel = z.infer<typeof MessageChannel>;

/** The language of the message the cardholder receives (not the agent's screen language). */
export const MessageLanguage = z.enum(['es-MX', 'en-US'], { error: 'Choose Spanish (es-MX) or English (en-US).' });
export type MessageLanguage = z.infer<typeof MessageLanguage>;

export const MAX_EMAIL_LENGTH = 254;
/** The longest destination text accepted before it is even looked at. */
export const MAX_DESTINATION_LENGTH = 320;

/** Why a destination was refused: a stable name for the renderer's catalogues (the message is English, for logs and main). */
export type DestinationProblem =
  | 'phone_missing'
  | 'phone_characters'
  | 'phone_no_country'
  | 'phone_invalid'
  | 'phone_landline'
  | 'email_missing'
  | 'email_too_long'
  | 'email_invalid';

export type DestinationCheck = { ok: true; value: string } | { ok: false; code: DestinationProblem; message: string };

/**
 * Number types a text message cannot reach. With the full ("max") metadata libphonenumber-js tells a landline
 * from a mobile where the country's plan does; where it cannot (Mexico, the US) the type is FIXED_LINE_OR_MOBILE
 * and the number is accepted.
 */
const UNREACHABLE_TYPES = new Set<NumberType>([
  'FIXED_LINE',
  'TOLL_FREE',
  'PREMIUM_RATE',
  'SHARED_COST',
  'VOICEMAIL',
  'UAN',
]);

const PHONE_CHARACTERS = /^\+?[\d\s().-]+$/;

/**
 * A phone number the guest can receive an SMS or WhatsApp message on: typed with its country code, valid for
 * that country's numbering plan (libphonenumber-js with full metadata), not a landline or service number.
 * The value is the number in E.164 (+525512345678).
 */
export function checkPhone(typed: string): DestinationCheck {
  const text = typed.trim();
  if (text === '') return { ok: false, code: 'phone_missing', message: 'Enter the guest’s mobile number.' };
  if (text.length > 32 || !PHONE_CHARACTERS.test(text)) {
    return {
      ok: false,
      code: 'phone_characters',
      message: 'A phone number can have only digits, spaces, dashes, dots and parentheses after the +.',
    };
  }
  if (!text.startsWith('+')) {
    return {
      ok: false,
      code: 'phone_no_country',
      message: 'Enter the number with its country code, starting with + (for example +52 55 1234 5678).',
    };
  }
  const phone = parsePhoneNumberFromString(text);
  if (!phone?.isValid()) {
    return {
      ok: false,
      code: 'phone_invalid',
      message: 'This is not a valid phone number: check the country code and the number of digits.',
    };
  }
  const type = phone.getType();
  if (type !== undefined && UNREACHABLE_TYPES.has(type)) {
    return {
      ok: false,
      code: 'phone_landline',
      message:
        'This is a landline or service number, which cannot receive messages: ask the guest for a mobile number.',
    };
  }
  return { ok: true, value: phone.number };
}

const Email = z.email();

/** An e-mail address (zod's check), trimmed, its domain lower-cased. */
export function checkEmail(typed: string): DestinationCheck {
  const text = typed.trim();
  if (text === '') return { ok: false, code: 'email_missing', message: 'Enter the guest’s e-mail address.' };
  if (text.length > MAX_EMAIL_LENGTH)
    return {
      ok: false,
      code: 'email_too_long',
      message: `An e-mail address can have at most ${MAX_EMAIL_LENGTH} characters.`,
    };
  if (!Email.safeParse(text).success) {
    return {
      ok: false,
      code: 'email_invalid',
      message: 'This is not a valid e-mail address: check it with the guest (for example maria@example.com).',
    };
  }
  const at = text.lastIndexOf('@');
  return { ok: true, value: `${text.slice(0, at)}@${text.slice(at + 1).toLowerCase()}` };
}

/** The destination checked for its channel, normalized (E.164 phone, lower-case e-mail domain). */
export function checkDestination(channel: MessageChannel, typed: string): DestinationCheck {
  return channel === 'email' ? checkEmail(typed) : checkPhone(typed);
}

/**
 * What a person may see of a destination: a phone keeps its country code and last 4 digits (+52 ******5678),
 * an e-mail its first character and domain (m***@example.com). Used in the audit, logs and every view.
 */
export function maskDestination(channel: MessageChannel, destination: string): string {
  const text = destination.trim();
  if (channel === 'email') {
    const at = text.lastIndexOf('@');
    if (at <= 0) return '***';
    return `${text.slice(0, 1)}***@${text.slice(at + 1)}`;
  }
  const phone = parsePhoneNumberFromString(text);
  const digits = (phone?.nationalNumber ?? text.replace(/\D/g, '')).toString();
  const shown = digits.length >= 8 ? 4 : digits.length >= 5 ? 2 : 0;
  const prefix = phone ? `+${phone.countryCallingCode} ` : '';
  // slice(-0) would be the whole number: with nothing to show, show nothing.
  const tail = shown === 0 ? '' : digits.slice(-shown);
  return `${prefix}${'*'.repeat(Math.max(digits.length - shown, 2))}${tail}`;
}
