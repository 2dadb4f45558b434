// The "from" and "to" days of a supervisor's filter (payments, audit): local calendar days typed in the desk's format,
// read by the form as from/to (ISO days).
import type { JSX } from 'react';
import { useI18n } from '../i18n';
import { DateField } from './DateField';

export function DateRangeFields({ id }: { id: string }): JSX.Element {
  const { t } = useI18n();
  return (
    <>
      <DateField id={`${id}-from`} name="from" label={t('payments.from')} />
      <DateField id={`${id}-to`} name="to" label={t('payments.to')} />
    </>
  );
}
