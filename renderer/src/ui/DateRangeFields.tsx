// The "from" and "to" days of a supervisor's filter (payments, audit): local calendar days, read by the form as from/to.
import type { JSX } from 'react';
import { useI18n } from '../i18n';

export function DateRangeFields({ id }: { id: string }): JSX.Element {
  const { t } = useI18n();
  return (
    <>
      <div className="field">
        <label htmlFor={`${id}-from`}>{t('payments.from')}</label>
        <input id={`${id}-from`} name="from" type="date" />
      </div>
      <div className="field">
        <label htmlFor={`${id}-to`}>{t('payments.to')}</label>
        <input id={`${id}-to`} name="to" type="date" />
      </div>
    </>
  );
}
