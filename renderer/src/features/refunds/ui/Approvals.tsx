// The approvals queue: the agents' refund requests waiting for a supervisor (or all of them), approved or rejected here;
// after an approval, the refund's status is followed live like any other.
import { useId, useState, type FormEvent, type JSX } from 'react';
import type { RefundRequestView } from '../../../../../shared/desk';
import { shortReference } from '../../../../../shared/payments';
import { describeError } from '../../../bridge/errors';
import { moneyCurrency, useI18n } from '../../../i18n';
import { DataTable } from '../../../ui/DataTable';
import { QueryState } from '../../../ui/QueryState';
import { RequestBadge } from '../../../ui/RefundBadge';
import { usePayment } from '../../payment';
import { useApproveRequest, useRefundQueue, useRejectRequest } from '../api';
import { reasonKey } from '../reasons';
import { RefundList } from './RefundList';
import '../../../ui/desk.css';

export function Approvals(): JSX.Element {
  const { t } = useI18n();
  const id = useId();
  const [all, setAll] = useState(false);
  const queue = useRefundQueue(all ? 'all' : 'pending');
  const [approved, setApproved] = useState<RefundRequestView>();
  const [message, setMessage] = useState<string>();

  return (
    <div className="desk">
      <section className="panel" aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`}>{t('approvals.title')}</h2>
        <label className="check">
          <input type="checkbox" checked={all} onChange={(event) => setAll(event.target.checked)} />
          {t('approvals.showAll')}
        </label>
        {message && <p role="status">{message}</p>}
        <QueryState error={queue.isError ? describeError(queue.error, t) : undefined} loading={queue.isPending} />
        {queue.data && queue.data.length === 0 && <p>{t('approvals.none')}</p>}
        {queue.data && queue.data.length > 0 && (
          <DataTable
            labelledBy={`${id}-title`}
            columns={[
              t('approvals.payment'),
              t('refund.list.amount'),
              t('refund.list.reason'),
              t('requests.requestedBy'),
              t('refund.list.when'),
              t('refund.list.status'),
              t('approvals.actions'),
            ]}
          >
            {queue.data.map((request) => (
              <QueueRow
                key={request.id}
                request={request}
                onApproved={(done) => {
                  setApproved(done);
                  setMessage(t('approvals.approved', { payment: done.paymentId }));
                }}
                onRejected={() => {
                  setMessage(t('approvals.rejected'));
                }}
              />
            ))}
          </DataTable>
        )}
      </section>
      {approved && <ApprovedRefund request={approved} />}
    </div>
  );
}

function QueueRow({ request, onApproved, onRejected }: { request: RefundRequestView; onApproved: (request: RefundRequestView) => void; onRejected: () => void }): JSX.Element {
  const { t, money, dateTime } = useI18n();
  const id = useId();
  const [rejecting, setRejecting] = useState(false);
  const [note, setNote] = useState('');
  const [missingNote, setMissingNote] = useState(false);
  const approval = useApproveRequest(request);
  const rejection = useRejectRequest(request.id);
  const busy = approval.isPending || rejection.isPending;
  const failed = approval.error ?? rejection.error;
  const error = missingNote ? t('approvals.noteMissing') : failed === null ? undefined : describeError(failed, t);
  const reason = reasonKey(request.reason);

  function approve(): void {
    setMissingNote(false);
    rejection.reset();
    approval.mutate(undefined, { onSuccess: (answer) => onApproved(answer.request) });
  }

  function reject(event: FormEvent<HTMLFormElement>): void {
    event.preventDefault();
    approval.reset();
    rejection.reset();
    if (note.trim() === '') {
      setMissingNote(true);
      return;
    }
    setMissingNote(false);
    rejection.mutate({ note: note.trim() }, { onSuccess: onRejected });
  }

  return (
    <tr>
      <td className="mono">{request.paymentId}</td>
      <td>{request.amountCents === undefined ? t('requests.allLeft') : money(request.amountCents, moneyCurrency(request.currency))}</td>
      <td>
        {reason === undefined ? request.reason : t(reason)}
        {request.note && <div className="muted">{request.note}</div>}
        {request.origin === 'late_success' && (
          <div role="note">{request.linkedPaymentId === undefined ? t('approvals.origin.late_success.plain') : t('approvals.origin.late_success', { payment: shortReference(request.linkedPaymentId) })}</div>
        )}
        {request.origin === 'confirmed_amount_differs' && <div role="note">{t('approvals.origin.confirmed_amount_differs')}</div>}
      </td>
      <td>
        {request.requestedBy}
        {/* The queue is the center's: the desk the agent asked at (its id's first characters; the whole id on hover). */}
        {request.deskId && (
          <div className="muted" title={request.deskId}>
            {t('approvals.atDesk', { desk: request.deskId.slice(0, 8) })}
          </div>
        )}
      </td>
      <td>{dateTime(request.requestedAt)}</td>
      <td>
        <RequestBadge status={request.status} />
        {request.decidedBy && <div className="muted">{request.decidedBy}</div>}
      </td>
      <td>
        {request.status === 'pending' && (
          <div className="actions">
            <button type="button" className="primary" disabled={busy} onClick={approve}>
              {t('approvals.approve')}
              <span className="visually-hidden"> {request.paymentId}</span>
            </button>
            <button type="button" disabled={busy} aria-expanded={rejecting} onClick={() => setRejecting(!rejecting)}>
              {t('approvals.reject')}
              <span className="visually-hidden"> {request.paymentId}</span>
            </button>
            {rejecting && (
              <form className="stack" onSubmit={reject} noValidate>
                <label htmlFor={`${id}-note`}>{t('approvals.rejectNote')}</label>
                <input id={`${id}-note`} autoComplete="off" maxLength={500} value={note} autoFocus onChange={(event) => setNote(event.target.value)} />
                <button type="submit" disabled={busy}>
                  {t('approvals.rejectConfirm')}
                </button>
              </form>
            )}
          </div>
        )}
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
      </td>
    </tr>
  );
}

/** The refund an approval sent, followed to its result. */
function ApprovedRefund({ request }: { request: RefundRequestView }): JSX.Element {
  const { t } = useI18n();
  const payment = usePayment(request.paymentId);
  return (
    <section className="panel" aria-label={t('approvals.approved', { payment: request.paymentId })}>
      <p>{t('override.done', { requester: request.requestedBy, approver: request.decidedBy ?? '—' })}</p>
      {payment.data && <RefundList payment={payment.data} headingLevel={3} />}
    </section>
  );
}
