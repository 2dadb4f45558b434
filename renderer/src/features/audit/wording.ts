// The audit trail in the desk's language: each action worded from the catalogues by its name, details as labelled values
// (amounts as money, ids short with the whole id kept for a tooltip, yes and no in words), actors by their names.
import type { AuditRowView } from '../../../../shared/desk';
import { CATALOGUES, LANGUAGE_NAMES, messageFor, type I18n, type MessageKey } from '../../i18n';
import { moneyCurrency } from '../../i18n/format';
import { shortReference } from '../../../../shared/payments';

const isKey = (key: string): key is MessageKey => Object.hasOwn(CATALOGUES['en-US'], key);

/** The catalogue's words for a key made from data (an action's or a detail's name), or undefined when it has none. */
const wordsFor = (key: string, { language }: Pick<I18n, 'language'>): string | undefined =>
  isKey(key) ? messageFor(language, key) : undefined;

/** A part of a row shown as it reads ("Amount: $900.00 MXN"), with the whole value when it is shortened. */
export interface Shown {
  text: string;
  /** The value as it was written, when `text` shortens it. */
  full?: string;
}

export interface DetailPart extends Shown {
  label: string;
}

/** The catalogue key that words an audit action: every action the contract or main writes has one in both catalogues. */
export const actionKey = (action: string): string => `audit.action.${action}`;

/** An action in the desk's language; an action no catalogue words yet is shown by its name rather than hidden. */
export function actionText(action: string, i18n: Pick<I18n, 'language'>): string {
  return wordsFor(actionKey(action), i18n) ?? action;
}

/** Every action the catalogues word, in the order of their words (the trail's filter offers them by name). */
export function wordedActions({ language }: Pick<I18n, 'language'>): { action: string; text: string }[] {
  const prefix = actionKey('');
  return Object.keys(CATALOGUES[language])
    .filter((key) => key.startsWith(prefix))
    .map((key) => ({ action: key.slice(prefix.length), text: messageFor(language, key as MessageKey) }))
    .sort((a, b) => a.text.localeCompare(b.text, language));
}

/** Who acted: their display name (their id for a tooltip), the app's own work and calls before a sign-in in words. */
export function actorText(row: Pick<AuditRowView, 'actor' | 'actorName'>, { t }: Pick<I18n, 't'>): Shown {
  if (row.actorName !== undefined) return { text: row.actorName, full: row.actor };
  if (row.actor === 'system') return { text: t('audit.actor.system'), full: row.actor };
  if (row.actor === 'anonymous') return { text: t('audit.actor.anonymous'), full: row.actor };
  return { text: row.actor };
}

const LONG_ID = /^[A-Za-z0-9_-]{17,}$/;

/** An id as a person reads it: a payment by the short reference read to the guest, another long id by its start. */
export function idText(id: string): Shown {
  if (/^pay_[A-Za-z0-9]{8,}$/.test(id)) return { text: shortReference(id), full: id };
  if (LONG_ID.test(id)) return { text: `${id.slice(0, 10)}…`, full: id };
  return { text: id };
}

const AMOUNTS = new Set(['amountCents', 'originalAmountCents', 'expectedAmountCents']);
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** A value worded by the vocabulary its key names (a role, a status, a refund's reason, a channel), when the catalogue has it. */
function vocabularyKey(key: string, value: string, action: string): string | undefined {
  const prefix =
    key === 'role'
      ? 'role'
      : key === 'status'
        ? 'status'
        : key === 'reason' && action.startsWith('refund')
          ? 'refund.reason'
          : key === 'reason' && action === 'window.recovered'
            ? 'window.reason'
            : key === 'channel'
              ? 'link.channel'
              : undefined;
  return prefix === undefined ? undefined : `${prefix}.${value}`;
}

function valueText(
  key: string,
  value: unknown,
  details: Readonly<Record<string, unknown>>,
  action: string,
  i18n: I18n,
): Shown {
  const { t, money, dateTime } = i18n;
  if (typeof value === 'boolean') return { text: value ? t('audit.value.yes') : t('audit.value.no') };
  if (AMOUNTS.has(key)) {
    if (value === 'all left') return { text: t('audit.value.allLeft') };
    if (typeof value === 'number') {
      const currency = details['currency'];
      return typeof currency === 'string'
        ? { text: money(value, moneyCurrency(currency.toLowerCase())) }
        : {
            text: new Intl.NumberFormat(i18n.language, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(
              value / 100,
            ),
          };
    }
  }
  if (typeof value === 'number') return { text: new Intl.NumberFormat(i18n.language).format(value) };
  if (typeof value === 'string') {
    if (key === 'currency') return { text: value.toUpperCase() };
    if (key === 'language' && (value === 'es-MX' || value === 'en-US')) return { text: LANGUAGE_NAMES[value] };
    const vocabulary = vocabularyKey(key, value, action);
    const worded = vocabulary === undefined ? undefined : wordsFor(vocabulary, i18n);
    if (worded !== undefined) return { text: worded };
    if (INSTANT.test(value)) return { text: dateTime(value), full: value };
    if (value.includes(',') && !value.includes(' ')) {
      const ids = value.split(',').map(idText);
      return { text: ids.map((id) => id.text).join(', '), full: value };
    }
    return idText(value);
  }
  if (Array.isArray(value))
    return { text: value.map((item) => (typeof item === 'string' ? item : JSON.stringify(item))).join(', ') };
  const whole = JSON.stringify(value) ?? '';
  return whole.length > 60 ? { text: `${whole.slice(0, 60)}…`, full: whole } : { text: whole };
}

/**
 * A row's details as labelled values in the desk's language. A currency that goes with an amount is said with it, not
 * again on its own; the service's request ids come last.
 */
export function detailParts(row: Pick<AuditRowView, 'action' | 'details' | 'requestId'>, i18n: I18n): DetailPart[] {
  const { details } = row;
  const withAmount = Object.keys(details).some((key) => AMOUNTS.has(key) && typeof details[key] === 'number');
  const parts: DetailPart[] = [];
  for (const [key, value] of Object.entries(details)) {
    if (value === undefined || value === null) continue;
    if (key === 'currency' && withAmount) continue;
    parts.push({
      label: wordsFor(`audit.detail.${key}`, i18n) ?? key,
      ...valueText(key, value, details, row.action, i18n),
    });
  }
  if (row.requestId !== undefined) {
    const ids = row.requestId.split(' ').map(idText);
    parts.push({
      label: i18n.t('audit.detail.serviceRequest'),
      text: ids.map((id) => id.text).join(', '),
      full: row.requestId,
    });
  }
  return parts;
}
