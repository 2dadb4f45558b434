// The agent asks for a refund of a paid payment; a supervisor approves it now on this screen with their own id and
// password (manager override), or later from the approvals queue. Each request has one id, kept until main answers.
import { useId, useState, type FormEvent, type JSX } from 'react';
import type { RefundRequestView } from '../../../../../shared/desk';
import type { PaymentView } from '../../../../../shared/ipc/views';
import { RefundNote } from '../../../../../shared/desk/refunds';
import { cardDataIn, clearedText, describeError, isRetryable, type CardDataIssue } from '../../../bridge/errors';
import { secret } from '../../../bridge/secret';
import { moneyCurrency, useI18n } from '../../../i18n';
import { ClosableHead } from '../../../ui/ClosableHead';
import { Field } from '../../../ui/Field';
import { Radio } from '../../../ui/Radio';
import { RequestBadge } from '../../../ui/RefundBadge';
import { Table } from '../../../ui/Table';
import { formText } from '../../../ui/text';
import { useFormGaps } from '../../../ui/useFormGaps';
import { useOverrideRefund, useRequestRefund, useRequestsFor } from '../api';
import { reasonKey } from '../reasons';
import { AttemptSubmit } from './AttemptSubmit';
import { RefundFields } from './RefundFields';
import { RefundList } from './RefundList';
import { useRefundDraft } from './useRefundDraft';

interface Props {
  payment: PaymentView;
  onClose: () => void;
}

export function RequestRefund({ payment, onClose }: Props): JSX.Element {
  const { t } = useI18n();
  const id = useId();
  const refund = useRefundDraft(payment);
  const [note, setNote] = useState('');
  /** Card data typed in the note: the note was emptied at once, and says why. */
  const [noteCleared, setNoteCleared] = useState<CardDataIssue>();
  /** The request this screen just made: the agent chooses who approves it. */
  const [current, setCurrent] = useState<RefundRequestView>();
  const [next, setNext] = useState<'now' | 'queue'>();
  const requests = useRequestsFor(payment.id);
  const request = useRequestRefund(payment.id);
  const busy = request.isPending;
  const error =
    request.error === null ? undefined : { text: describeError(request.error, t), retry: isRetryable(request.error) };
  const { check } = refund;
  const canRequest = payment.status === 'succeeded' && payment.refundableCents > 0;

  function submit(event: FormEvent<HTMLFormElement>): void {
    event.preventDefault();
    refund.tried();
    if (!check.ok || busy) return;
    const trimmed = note.trim();
    request.mutate(
      { reason: check.reason, amountCents: check.amountCents, note: trimmed === '' ? undefined : trimmed },
      {
        onSuccess: (made) => {
          setCurrent(made);
          setNext(undefined);
          refund.reset();
          setNote('');
        },
      },
    );
  }

  const shown = current ?? requests.data?.find((request) => request.status === 'pending');
  return (
    <section className="subpanel refund-request" aria-labelledby={`${id}-title`}>
      <ClosableHead id={`${id}-title`} level={3} closeLabel={t('common.close')} onClose={onClose}>
        {t('request.title')}
      </ClosableHead>
      {shown === undefined || shown.status !== 'pending' || current === undefined ? (
        canRequest && (
          <form className="stack" onSubmit={submit} noValidate>
            <p className="hint">{t('request.help')}</p>
            <RefundFields {...refund.fields} disabled={busy} />
            <Field
              id={`${id}-note`}
              label={
                <>
                  {t('request.note')} {t('common.optional')}
                </>
              }
            >
              <input
                id={`${id}-note`}
                maxLength={500}
                autoComplete="off"
                value={note}
                disabled={busy}
                aria-describedby={noteCleared === undefined ? undefined : `${id}-note-error`}
                onChange={(event) => {
                  const cardData = cardDataIn(RefundNote, event.target.value);
                  setNoteCleared(cardData);
                  setNote(cardData === undefined ? event.target.value : '');
                }}
              />
              {noteCleared !== undefined && (
                <p id={`${id}-note-error`} className="error" role="alert">
                  {clearedText(noteCleared, t('request.note'), t)}
                </p>
              )}
            </Field>
            <AttemptSubmit error={error} busy={busy} label="request.submit" />
          </form>
        )
      ) : (
        <PendingRequest request={current} next={next} onNext={setNext} onDecided={(request) => setCurrent(request)} />
      )}
      {current !== undefined && current.status === 'approved' && <Approved request={current} />}
      <RequestList requests={requests.data ?? []} currency={payment.currency} />
      <RefundList payment={payment} headingLevel={4} />
    </section>
  );
}

/** The request just made: a supervisor approves it now (override) or it stays in the queue. */
function PendingRequest({
  request,
  next,
  onNext,
  onDecided,
}: {
  request: RefundRequestView;
  next: 'now' | 'queue' | undefined;
  onNext: (next: 'now' | 'queue') => void;
  onDecided: (request: RefundRequestView) => void;
}): JSX.Element {
  const { t } = useI18n();
  const id = useId();
  const override = useOverrideRefund(request.id, request.paymentId);
  const busy = override.isPending;
  const gaps = useFormGaps();
  const error = gaps.gap ?? (override.error === null ? undefined : describeError(override.error, t));

  const approve = gaps.onSubmit((form, element) => {
    const approverId = formText(form, 'approverId').trim();
    const approverPassword = secret(formText(form, 'approverPassword'));
    // The supervisor's password is never kept on the agent's screen.
    const passwordField = element.elements.namedItem('approverPassword');
    if (passwordField instanceof HTMLInputElement) passwordField.value = '';
    override.mutate({ approverId, approverPassword }, { onSuccess: (answer) => onDecided(answer.request) });
  });

  return (
    <div className="stack">
      <p role="status">{t('request.sent')}</p>
      <fieldset>
        <legend>{t('request.next.legend')}</legend>
        <Radio name={`${id}-next`} checked={next === 'now'} onChoose={() => onNext('now')}>
          {t('request.next.now')}
        </Radio>
        <Radio name={`${id}-next`} checked={next === 'queue'} onChoose={() => onNext('queue')}>
          {t('request.next.queue')}
        </Radio>
      </fieldset>
      {next === 'queue' && <p role="status">{t('request.queued')}</p>}
      {next === 'now' && (
        <form className="stack override" aria-labelledby={`${id}-override`} noValidate onSubmit={approve}>
          <h4 id={`${id}-override`}>{t('override.title')}</h4>
          <p className="hint">{t('override.help')}</p>
          <div className="row">
            <Field id={`${id}-approver`} label={t('override.id')}>
              <input id={`${id}-approver`} name="approverId" autoComplete="off" required disabled={busy} />
            </Field>
            <Field id={`${id}-password`} label={t('override.password')}>
              <input
                id={`${id}-password`}
                name="approverPassword"
                type="password"
                autoComplete="off"
                required
                disabled={busy}
              />
            </Field>
          </div>
          {error && (
            <p className="error" role="alert">
              {error}
            </p>
          )}
          <button type="submit" className="primary" disabled={busy}>
            {t('override.submit')}
          </button>
        </form>
      )}
    </div>
  );
}

function Approved({ request }: { request: RefundRequestView }): JSX.Element {
  const { t } = useI18n();
  return (
    <p role="status" className="approved">
      {t('override.done', { requester: request.requestedBy, approver: request.decidedBy ?? '—' })}
    </p>
  );
}

/** The payment's refund requests and what became of them. */
export function RequestList({
  requests,
  currency,
}: {
  requests: readonly RefundRequestView[];
  currency: string;
}): JSX.Element | null {
  const { t, money, dateTime } = useI18n();
  if (requests.length === 0) return null;
  return (
    <>
      <h4>{t('requests.title')}</h4>
      <Table
        columns={[
          t('refund.list.when'),
          t('refund.list.amount'),
          t('refund.list.reason'),
          t('requests.requestedBy'),
          t('refund.list.status'),
          t('requests.decidedBy'),
        ]}
      >
        {requests.map((request) => {
          const reason = reasonKey(request.reason);
          return (
            <tr key={request.id}>
              <td>{dateTime(request.requestedAt)}</td>
              <td>
                {request.amountCents === undefined
                  ? t('requests.allLeft')
                  : money(request.amountCents, moneyCurrency(currency))}
              </td>
              <td>{reason === undefined ? request.reason : t(reason)}</td>
              <td>{request.requestedBy}</td>
              <td>
                <RequestBadge status={request.status} />
                {request.failure && <span className="muted"> {request.failure}</span>}
              </td>
              <td>
                {request.decidedBy ?? '—'}
                {request.decisionNote && <span className="muted"> · {request.decisionNote}</span>}
              </td>
            </tr>
          );
        })}
      </Table>
    </>
  );
}
