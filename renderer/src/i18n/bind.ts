/** The i18n object useI18n() returns, bound to one language: messages, amounts, dates and times. */
import type { Language } from '../../../shared/language';
import { centsForDisplay } from '../../../shared/payments/money';
import { messageFor, type MessageKey, type Translate } from './catalogue';
import { formatDate, formatDateTime, formatMoney, formatTime, type MoneyCurrency } from './format';

export interface I18n {
  language: Language;
  setLanguage: (language: Language) => void;
  /** The message for a key; a message with `{placeholders}` requires all of its values. */
  t: Translate;
  /** An amount in cents (123450) with its currency code: "$1,234.50 MXN". */
  money: (cents: number, currency: MoneyCurrency) => string;
  /** A date ("2025-03-14", never shifted, or a full ISO time) in the agent's time zone. */
  date: (iso: string) => string;
  dateTime: (iso: string) => string;
  /** A time of day with seconds, from epoch milliseconds. */
  time: (epochMs: number) => string;
}

export function bindI18n(language: Language, setLanguage: (language: Language) => void): I18n {
  return {
    language,
    setLanguage,
    t: (key: MessageKey, vars?: Readonly<Record<string, string | number>>) => messageFor(language, key, vars),
    money: (cents, currency) => formatMoney(centsForDisplay(cents), currency, language),
    date: (iso) => formatDate(iso, language),
    dateTime: (iso) => formatDateTime(iso, language),
    time: (epochMs) => formatTime(epochMs, language),
  };
}
