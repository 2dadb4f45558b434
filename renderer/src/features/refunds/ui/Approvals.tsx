// The approvals queue: the agents' refund requests waiting for a supervisor (or all of them), approved or rejected here;
// after an approval, the refund's status is followed live like any other.
import { useId, useState, type FormEvent, type JSX } from 'react';
import type { RefundRequestView } from '../../../../../shared/desk';
import { unwrap } from '../../../bridge/client';
import { describeError } from '../../../bridge/errors';
import { bridge, keys, queryClient, storePayment, usePayment, useRefundQueue } from '../../../api/queries';
import { useI18n } from '../../../i18n';
import { moneyCurrency, reasonKey } from '../attempt';
import { RequestBadge } from '../../../ui/RefundBadge';
import { RefundList } from './RefundList';
import '../../../ui/desk.css';

export function Approvals(): JSX.Element {
  const { t } = useI18n();
  const id = useId();
  const [all, setAll] = useState(false);
  const queue = useRefundQueue(all ? 'all' : 'pending');
  const [approved, setApproved] = useState<RefundRequestView>();
  const [message, setMessage] = useState<string>();

  const refresh = (): void => void queryClient.invalidateQueries({ queryKey: ['refund-requests'] });

  return (
    <div className="desk">
      <section className="panel" aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`}>{t('approvals.title')}</h2>
        <label className="check">
          <input type="checkbox" checked={all} onChange={(event) => setAll(event.target.checked)} />
          {t('approvals.showAll')}
        </label>
        {message && <p role="status">{message}</p>}
        {queue.isError && (
          <p className="error" role="alert">
            {describeError(queue.error, t)}
          </p>
        )}
        {queue.isPending && <p aria-busy="true">{t('common.loading')}</p>}
        {queue.data && queue.data.length === 0 && <p>{t('approvals.none')}</p>}
        {queue.data && queue.data.length > 0 && (
          <div className="table-scroll">
            <table className="table" aria-labelledby={`${id}-title`}>
              <thead>
                <tr>
                  <th scope="col">{t('approvals.payment')}</th>
                  <th scope="col">{t('refund.list.amount')}</th>
                  <th scope="col">{t('refund.list.reason')}</th>
                  <th scope="col">{t('requests.requestedBy')}</th>
                  <th scope="col">{t('refund.list.when')}</th>
                  <th scope="col">{t('refund.list.status')}</th>
                  <th scope="col">{t('approvals.actions')}</th>
                </tr>
              </thead>
              <tbody>
                {queue.data.map((request) => (
                  <QueueRow
                    key={request.id}
                    request={request}
                    onApproved={(done) => {
                      setApproved(done);
                      setMessage(t('approvals.approved', { payment: done.paymentId }));
                      refresh();
                    }}
                    onRejected={() => {
                      setMessage(t('approvals.rejected'));
                      refresh();
                    }}
                  />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      {approved && <ApprovedRefund request={approved} />}
    </div>
  );
}

function QueueRow({ request, onApproved, onRejected }: { request: RefundRequestView; onApproved: (request: RefundRequestView) => void; onRejected: () => void }): JSX.Element {
  const { t, money, dateTime } = useI18n();
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [rejecting, setRejecting] = useState(false);
  const [note, setNote] = useState('');
  const [error, setError] = useState<string>();
  const reason = reasonKey(request.reason);

  async function approve(): Promise<void> {
    setBusy(true);
    setError(undefined);
    try {
      const answer = await unwrap(bridge().refunds.approve({ requestId: request.id }));
      storePayment(answer.payment);
      void bridge().payments.watch({ paymentId: answer.payment.id });
      onApproved(answer.request);
    } catch (e) {
      setError(describeError(e, t));
      void queryClient.invalidateQueries({ queryKey: keys.requestsFor(request.paymentId) });
    } finally {
      setBusy(false);
    }
  }

  async function reject(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    if (note.trim() === '') {
      setError(t('approvals.noteMissing'));
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      await unwrap(bridge().refunds.reject({ requestId: request.id, note: note.trim() }));
      onRejected();
    } catch (e) {
      setError(describeError(e, t));
    } finally {
      setBusy(false);
    }
  }

  return (
    <tr>
      <td className="mono">{request.paymentId}</td>
      <td>{request.amountCents === undefined ? t('requests.allLeft') : money(request.amountCents, moneyCurrency(request.currency))}</td>
      <td>
        {reason === undefined ? request.reason : t(reason)}
        {request.note && <div className="muted">{request.note}</div>}
      </td>
      <td>{request.requestedBy}</td>
      <td>{dateTime(request.requestedAt)}</td>
      <td>
        <RequestBadge status={request.status} />
        {request.decidedBy && <div className="muted">{request.decidedBy}</div>}
      </td>
      <td>
        {request.status === 'pending' && (
          <div className="actions">
            <button type="button" className="primary" disabled={busy} onClick={() => void approve()}>
              {t('approvals.approve')}
              <span className="visually-hidden"> {request.paymentId}</span>
            </button>
            <button type="button" disabled={busy} aria-expanded={rejecting} onClick={() => setRejecting(!rejecting)}>
              {t('approvals.reject')}
              <span className="visually-hidden"> {request.paymentId}</span>
            </button>
            {rejecting && (
              <form className="stack" onSubmit={(e) => void reject(e)} noValidate>
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
