// The supervisor finds a payment in the journal (reservation, id, short reference, guest, last 4, dates, agent) and opens it to refund.
import { useId, useState, type FormEvent, type JSX } from 'react';
import type { PaymentQuery } from '../../../../../shared/desk';
import type { Role } from '../../../../../shared/operators';
import { countsAgainstRefundable } from '../../../../../shared/payments/status';
import { freeText } from '../../../../../shared/text';
import { cardDataIn, clearedText, describeError, type CardDataIssue } from '../../../bridge/errors';
import { moneyCurrency, useI18n } from '../../../i18n';
import { DataTable } from '../../../ui/DataTable';
import { Field } from '../../../ui/Field';
import { FilterForm } from '../../../ui/FilterForm';
import { QueryState } from '../../../ui/QueryState';
import { brandLabel } from '../../payment';
import { StatusBadge } from '../../../ui/StatusBadge';
import { usePaymentSearch } from '../api';
import { PaymentDetail } from './PaymentDetail';
import { filled, formText as text } from '../../../ui/text';
import '../../../ui/desk.css';

/** The fields a person types text in: card data typed in one empties it (never searched for, never kept). */
const TYPED = ['reservationId', 'paymentId', 'shortReference', 'guestName'] as const;
const TYPED_TEXT = freeText();

export function PaymentsDesk({ role }: { role: Role }): JSX.Element {
  const { t, money, dateTime } = useI18n();
  const id = useId();
  const [query, setQuery] = useState<PaymentQuery>();
  const [open, setOpen] = useState<string>();
  /** Card data typed in a field: that field was emptied, nothing searched, and it says why. */
  const [cleared, setCleared] = useState<{ field: (typeof TYPED)[number]; code: CardDataIssue }>();
  const results = usePaymentSearch(query);

  function search(event: FormEvent<HTMLFormElement>): void {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    for (const field of TYPED) {
      const code = cardDataIn(TYPED_TEXT, text(form, field));
      if (code === undefined) continue;
      const input = event.currentTarget.elements.namedItem(field);
      if (input instanceof HTMLInputElement) input.value = '';
      setCleared({ field, code });
      return;
    }
    setCleared(undefined);
    const values = filled({
      reservationId: text(form, 'reservationId'),
      paymentId: text(form, 'paymentId'),
      shortReference: text(form, 'shortReference'),
      guestName: text(form, 'guestName'),
      last4: text(form, 'last4'),
      from: text(form, 'from'),
      to: text(form, 'to'),
      operatorId: text(form, 'operatorId'),
    });
    setQuery(values);
  }

  const fields = [
    ['reservationId', 'payments.reservation'],
    ['paymentId', 'payments.paymentId'],
    ['shortReference', 'payments.shortReference'],
    ['guestName', 'payments.guest'],
    ['last4', 'payments.last4'],
    ['operatorId', 'payments.agent'],
  ] as const;

  return (
    <div className="desk">
      <section className="panel no-print" aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`}>{t('payments.title')}</h2>
        <FilterForm id={id} onSubmit={search} submitLabel={t('payments.search')}>
          {fields.map(([name, label]) => (
            <Field key={name} id={`${id}-${name}`} label={t(label)}>
              <input
                id={`${id}-${name}`}
                name={name}
                autoComplete="off"
                {...(name === 'last4' ? { inputMode: 'numeric' as const, maxLength: 4, pattern: '\\d{4}' } : {})}
                {...(name === 'reservationId' ? { autoFocus: true } : {})}
                {...(name === 'shortReference' ? { placeholder: '9D21-F5A0', maxLength: 12, spellCheck: false } : {})}
              />
            </Field>
          ))}
        </FilterForm>
        {cleared !== undefined && (
          <p className="error" role="alert">
            {clearedText(cleared.code, cleared.field, t)}
          </p>
        )}
        <QueryState
          error={results.isError ? describeError(results.error, t) : undefined}
          loading={results.isFetching}
        />
        {results.data && results.data.length === 0 && <p role="status">{t('payments.none')}</p>}
        {results.data && results.data.length > 0 && (
          <DataTable
            label={t('payments.results')}
            columns={[
              t('payments.col.date'),
              t('payments.col.reservation'),
              t('payments.col.agent'),
              t('payments.col.card'),
              t('payments.col.amount'),
              t('payments.col.status'),
              t('payments.col.refunded'),
              <span className="visually-hidden">{t('payments.open')}</span>,
            ]}
          >
            {results.data.map((payment) => {
              const currency = moneyCurrency(payment.currency);
              const refunded = payment.refunds
                .filter((refund) => countsAgainstRefundable(refund.status))
                .reduce((sum, refund) => sum + (refund.amountCents ?? 0), 0);
              return (
                <tr key={payment.id} aria-current={open === payment.id ? 'true' : undefined}>
                  <td>{dateTime(payment.createdAt)}</td>
                  <td>{payment.reservationId}</td>
                  <td>{payment.operatorId ?? '—'}</td>
                  <td>{payment.brand ? `${brandLabel(payment.brand)} ·${payment.last4 ?? ''}` : '—'}</td>
                  <td>{money(payment.amountCents, currency)}</td>
                  <td>
                    <StatusBadge payment={payment} />
                  </td>
                  <td>{refunded > 0 ? money(refunded, currency) : '—'}</td>
                  <td>
                    <button type="button" onClick={() => setOpen(payment.id)}>
                      {t('payments.open')}
                      <span className="visually-hidden"> {payment.id}</span>
                    </button>
                  </td>
                </tr>
              );
            })}
          </DataTable>
        )}
      </section>
      {open !== undefined && (
        <PaymentDetail key={open} paymentId={open} role={role} onClose={() => setOpen(undefined)} />
      )}
    </div>
  );
}
