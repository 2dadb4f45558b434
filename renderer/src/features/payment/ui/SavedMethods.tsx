// The guest's saved cards (Flow D): brand, last 4, expiry; an expired one cannot be charged.
import { useState, type JSX } from 'react';
import type { MethodView } from '../../../../../shared/ipc/views';
import { useI18n } from '../../../i18n';
import { brandLabel } from './card/brand';

interface Props {
  methods: readonly MethodView[];
  disabled: boolean;
  onCharge: (method: MethodView) => void;
  now?: number;
}

/** A saved card can be charged until its method TTL ends and while the card itself has not expired. */
export function isMethodUsable(method: MethodView, now: number): boolean {
  if (method.expiresAt !== undefined && Date.parse(method.expiresAt) <= now) return false;
  return now < Date.UTC(method.expYear, method.expMonth, 1);
}

export function SavedMethods({ methods, disabled, onCharge, now: given }: Props): JSX.Element | null {
  const { t, dateTime } = useI18n();
  const [mounted] = useState(Date.now);
  const now = given ?? mounted;
  if (methods.length === 0) return null;
  return (
    <section aria-labelledby="saved-title">
      <h3 id="saved-title">{t('saved.title')}</h3>
      <ul className="methods">
        {methods.map((method) => {
          const usable = isMethodUsable(method, now);
          const label = `${brandLabel(method.brand)} •••• ${method.last4}`;
          return (
            <li key={method.id} className="method">
              <span>
                <strong>{label}</strong> ·{' '}
                {t('saved.expiry', { month: String(method.expMonth).padStart(2, '0'), year: String(method.expYear) })}
                {method.expiresAt !== undefined && (
                  <> · {t('saved.savedUntil', { when: dateTime(method.expiresAt) })}</>
                )}
                {!usable && <span className="badge badge--expired">{t('saved.expired')}</span>}
              </span>
              <button type="button" disabled={disabled || !usable} onClick={() => onCharge(method)}>
                {t('saved.chargeLabel', { card: label })}
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
