// The approvals queue: the agents' refund requests waiting for a supervisor (or all of them), approved or rejected here;
// after an approval, the refund's status is followed live like any other. Each request shows what approving it refunds
// now, the guest, reservation, card and payment, and who asked and when (main builds it); approving takes one step whose
// question and key name the amount, and a decided request shows who decided, when, and the rejection's note.
import { useId, useState, type FormEvent, type JSX } from 'react';
import type { RefundQueueItem } from '../../../../../shared/ipc/views';
import { countsAgainstRefundable, shortReference } from '../../../../../shared/payments';
import { cardDataIn, clearedText, describeError, type CardDataIssue } from '../../../bridge/errors';
import { moneyCurrency, useI18n } from '../../../i18n';
import { DataTable } from '../../../ui/DataTable';
import { QueryState } from '../../../ui/QueryState';
import { RequestBadge } from '../../../ui/RefundBadge';
import { brandLabel, usePayment } from '../../payment';
import { useApproveRequest, useRefundQueue, useRejectRequest } from '../api';
import { reasonKey } from '../reasons';
import { ConfirmRefund } from './ConfirmRefund';
import { RefundList } from './RefundList';
import type { RefundRequestView } from '../../../../../shared/desk';
import { RefundNote } from '../../../../../shared/desk/refunds';
import '../../../ui/desk.css';
import './refunds.css';

export function Approvals(): JSX.Element {
  const { t } = useI18n();
  const id = useId();
  const [all, setAll] = useState(false);
  const queue = useRefundQueue(all ? 'all' : 'pending');
  const [approved, setApproved] = useState<RefundRequestView>();
  const [message, setMessage] = useState<string>();
  /** The request whose approval step is open (one at a time). */
  const [reviewing, setReviewing] = useState<string>();
  const reviewed = queue.data?.find((request) => request.id === reviewing && request.status === 'pending');

  return (
    <div className="desk approvals">
      <section className="panel" aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`}>{t('approvals.title')}</h2>
        <label className="check">
          <input type="checkbox" checked={all} onChange={(event) => setAll(event.target.checked)} />
          {t('approvals.showAll')}
        </label>
        {message && <p role="status">{message}</p>}
        <QueryState error={queue.isError ? describeError(queue.error, t) : undefined} loading={queue.isPending} />
        {reviewed && (
          <ApprovalStep
            key={reviewed.id}
            request={reviewed}
            onApproved={(done) => {
              setReviewing(undefined);
              setApproved(done);
              setMessage(t('approvals.approved', { payment: done.paymentId }));
            }}
            onCancel={() => setReviewing(undefined)}
          />
        )}
        {queue.data && queue.data.length === 0 && <p>{t('approvals.none')}</p>}
        {queue.data && queue.data.length > 0 && (
          <DataTable
            labelledBy={`${id}-title`}
            columns={[
              t('approvals.col.refund'),
              t('approvals.col.guest'),
              t('approvals.payment'),
              t('requests.requestedBy'),
              t('refund.list.status'),
              t('approvals.actions'),
            ]}
          >
            {queue.data.map((request) => (
              <QueueRow
                key={request.id}
                request={request}
                reviewing={request.id === reviewing}
                onReview={() => {
                  setMessage(undefined);
                  setReviewing(request.id);
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

/** "Visa •••• 4242", or nothing when main's records lack the card. */
const cardOf = (payment: RefundQueueItem['payment']): string | undefined =>
  payment?.brand === undefined || payment.last4 === undefined
    ? undefined
    : `${brandLabel(payment.brand)} •••• ${payment.last4}`;

/** What approving refunds, in money ("$899.99 MXN"), and of what: all that is left of the payment, or a part of it. */
function RefundAmount({ request }: { request: RefundQueueItem }): JSX.Element {
  const { t, money } = useI18n();
  const currency = moneyCurrency(request.currency);
  const paid = request.payment && money(request.payment.amountCents, currency);
  return (
    <>
      <div className="amount">{request.refundCents === undefined ? '—' : money(request.refundCents, currency)}</div>
      {request.refundCents === undefined && request.status === 'pending' && (
        <div className="muted">{t('approvals.amountUnknown')}</div>
      )}
      {paid && (
        <div className="muted">
          {request.amountCents === undefined
            ? t('approvals.allLeftOf', { amount: paid })
            : t('approvals.partOf', { amount: paid })}
        </div>
      )}
    </>
  );
}

function QueueRow({
  request,
  reviewing,
  onReview,
  onRejected,
}: {
  request: RefundQueueItem;
  reviewing: boolean;
  onReview: () => void;
  onRejected: () => void;
}): JSX.Element {
  const { t, dateTime } = useI18n();
  const id = useId();
  const [rejecting, setRejecting] = useState(false);
  const [note, setNote] = useState('');
  const [missingNote, setMissingNote] = useState(false);
  /** Card data typed in the note: the note was emptied at once, and says why. */
  const [noteCleared, setNoteCleared] = useState<CardDataIssue>();
  const rejection = useRejectRequest(request.id);
  const busy = rejection.isPending;
  const error =
    noteCleared !== undefined
      ? clearedText(noteCleared, 'note', t)
      : missingNote
        ? t('approvals.noteMissing')
        : rejection.error === null
          ? undefined
          : describeError(rejection.error, t);
  const reason = reasonKey(request.reason);
  const card = cardOf(request.payment);

  function reject(event: FormEvent<HTMLFormElement>): void {
    event.preventDefault();
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
      <td>
        <RefundAmount request={request} />
        <div>{reason === undefined ? request.reason : t(reason)}</div>
        {request.note && <div className="muted">{request.note}</div>}
        {request.origin === 'late_success' && (
          <div role="note">
            {request.linkedPaymentId === undefined
              ? t('approvals.origin.late_success.plain')
              : t('approvals.origin.late_success', { payment: shortReference(request.linkedPaymentId) })}
          </div>
        )}
        {request.origin === 'confirmed_amount_differs' && (
          <div role="note">{t('approvals.origin.confirmed_amount_differs')}</div>
        )}
      </td>
      <td>
        <div>{request.guestName ?? '—'}</div>
        {request.payment && <div className="muted">{request.payment.reservationId}</div>}
      </td>
      <td>
        {card && <div>{card}</div>}
        {request.payment && (
          <div className="muted">{t('approvals.paidAt', { date: dateTime(request.payment.createdAt) })}</div>
        )}
        {/* The short reference read to the guest; the whole id on hover. */}
        <div className="muted" title={request.paymentId}>
          {shortReference(request.paymentId)}
        </div>
      </td>
      <td>
        <div>{request.requestedByName ?? request.requestedBy}</div>
        <div className="muted">{dateTime(request.requestedAt)}</div>
        {/* The queue is the center's: the desk the agent asked at (its id's first characters; the whole id on hover). */}
        {request.deskId && (
          <div className="muted" title={request.deskId}>
            {t('approvals.atDesk', { desk: request.deskId.slice(0, 8) })}
          </div>
        )}
      </td>
      <td>
        <RequestBadge status={request.status} />
        {request.decidedBy && (
          <div className="muted">
            {request.decidedAt === undefined
              ? (request.decidedByName ?? request.decidedBy)
              : t('approvals.byAt', {
                  name: request.decidedByName ?? request.decidedBy,
                  date: dateTime(request.decidedAt),
                })}
          </div>
        )}
        {request.decisionNote && <div>{t('approvals.rejectionNote', { note: request.decisionNote })}</div>}
        {request.failure && <div className="muted">{request.failure}</div>}
      </td>
      <td>
        {request.status === 'pending' && (
          <div className="actions">
            <button type="button" className="primary" disabled={busy} aria-expanded={reviewing} onClick={onReview}>
              {t('approvals.review')}
              <span className="visually-hidden"> {request.paymentId}</span>
            </button>
            <button type="button" disabled={busy} aria-expanded={rejecting} onClick={() => setRejecting(!rejecting)}>
              {t('approvals.reject')}
              <span className="visually-hidden"> {request.paymentId}</span>
            </button>
            {rejecting && (
              <form className="stack" onSubmit={reject} noValidate>
                <label htmlFor={`${id}-note`}>{t('approvals.rejectNote')}</label>
                <input
                  id={`${id}-note`}
                  autoComplete="off"
                  maxLength={500}
                  value={note}
                  autoFocus
                  onChange={(event) => {
                    const cardData = cardDataIn(RefundNote, event.target.value);
                    setNoteCleared(cardData);
                    setNote(cardData === undefined ? event.target.value : '');
                  }}
                />
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

/**
 * The approval's one step: what it refunds and to whom, the payment, card and reservation, who asked and when, and the
 * refunds already made of the payment; its key names the amount. It sends the amount and the refunds it showed: main
 * refuses it when either changed meanwhile, and the queue read again shows the new amount on the key.
 */
function ApprovalStep({
  request,
  onApproved,
  onCancel,
}: {
  request: RefundQueueItem;
  onApproved: (request: RefundRequestView) => void;
  onCancel: () => void;
}): JSX.Element {
  const { t, money, dateTime } = useI18n();
  const approval = useApproveRequest(request);
  const currency = moneyCurrency(request.currency);
  const amount = request.refundCents === undefined ? undefined : money(request.refundCents, currency);
  const card = cardOf(request.payment);
  const reason = reasonKey(request.reason);
  const refunds = request.payment?.refunds ?? [];
  const refundedCents = refunds.reduce(
    (sum, refund) => sum + (countsAgainstRefundable(refund.status) ? (refund.amountCents ?? 0) : 0),
    0,
  );
  const question =
    amount === undefined
      ? t('approvals.amountUnknown')
      : request.guestName === undefined
        ? t('approvals.step.questionNoGuest', { amount })
        : t('approvals.step.question', { amount, guest: request.guestName });

  function approve(): void {
    if (request.refundCents === undefined) return;
    approval.mutate(
      { expectedAmountCents: request.refundCents, acknowledgedRefundIds: refunds.map((refund) => refund.id) },
      { onSuccess: (answer) => onApproved(answer.request) },
    );
  }

  return (
    <ConfirmRefund
      title={t('approvals.step.title')}
      question={question}
      confirmLabel={amount === undefined ? undefined : t('refund.confirm.key', { amount })}
      cancelLabel={t('common.cancel')}
      busy={approval.isPending}
      error={approval.error === null ? undefined : describeError(approval.error, t)}
      onConfirm={approve}
      onCancel={onCancel}
    >
      <p className="hint">{t('approvals.step.help')}</p>
      <dl className="facts">
        <dt>{t('approvals.col.refund')}</dt>
        <dd>
          <RefundAmount request={request} />
        </dd>
        <dt>{t('approvals.step.guest')}</dt>
        <dd>{request.guestName ?? '—'}</dd>
        <dt>{t('payments.col.reservation')}</dt>
        <dd>{request.payment?.reservationId ?? '—'}</dd>
        <dt>{t('payments.col.card')}</dt>
        <dd>{card ?? '—'}</dd>
        <dt>{t('approvals.payment')}</dt>
        <dd>
          {request.payment
            ? t('approvals.step.paymentOf', {
                amount: money(request.payment.amountCents, currency),
                date: dateTime(request.payment.createdAt),
              })
            : '—'}
          <span className="muted" title={request.paymentId}>
            {' '}
            · {shortReference(request.paymentId)}
          </span>
        </dd>
        <dt>{t('refund.list.reason')}</dt>
        <dd>
          {reason === undefined ? request.reason : t(reason)}
          {request.note && <span className="muted"> · {request.note}</span>}
        </dd>
        <dt>{t('requests.requestedBy')}</dt>
        <dd>
          {t('approvals.byAt', {
            name: request.requestedByName ?? request.requestedBy,
            date: dateTime(request.requestedAt),
          })}
        </dd>
      </dl>
      {refunds.length > 0 && <p>{t('approvals.step.refundsMade', { amount: money(refundedCents, currency) })}</p>}
    </ConfirmRefund>
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
