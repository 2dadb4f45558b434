// The payment on the call, step by step: card → live status (3DS link, MSI plans) → result; a failure goes back to the card.
import { useEffect, useRef, type JSX } from 'react';
import type { MethodView, PendingPaymentView } from '../../../../../shared/ipc/views';
import type { ReservationView } from '../../../../../shared/reservations';
import { describeError } from '../../../bridge/errors';
import { useI18n } from '../../../i18n';
import { FocusAlert, FocusHeading } from '../../../ui/PanelFocus';
import { StatusBadge } from '../../../ui/StatusBadge';
import { useCall } from '../../call';
import { usePayment } from '../api';
import type { CardCaptureHandle } from './card';
import { NewPayment } from './NewPayment';
import { PendingPayment, ReconcileNotice } from './PendingPayment';
import { Plans } from './Plans';
import { Expired, Succeeded } from './Result';
import { SendLink } from './SendLink';

interface Props {
  reservation: ReservationView;
  methods: readonly MethodView[];
  /** The reservation's payment attempts whose answer never came (main keeps them, across locks and restarts). */
  pendingPayments?: readonly PendingPaymentView[];
}

export function PaymentFlow({ reservation, methods, pendingPayments = [] }: Props): JSX.Element {
  const { t, time } = useI18n();
  const paymentId = useCall((state) => state.paymentId);
  const newAttempt = useCall((state) => state.newAttempt);
  const payment = usePayment(paymentId);
  const cardRef = useRef<CardCaptureHandle>(null);
  const decline = useCall((state) => state.decline);
  const declined = useCall((state) => state.declined);
  const status = payment.data?.status;
  const failure = payment.data?.failure;

  useEffect(() => {
    if (status === 'failed') declined(failure ?? { code: 'processing_error' });
  }, [status, failure, declined]);

  if (paymentId === undefined) {
    // One payment at a time: while an earlier one has no answer, it is shown with "Check again", and no new charge is offered.
    const unanswered = pendingPayments.find((attempt) => attempt.state === 'unanswered');
    if (unanswered) return <PendingPayment attempt={unanswered} />;
    const reconcile = pendingPayments.filter((attempt) => attempt.state === 'reconcile');
    return (
      <>
        {reconcile.length > 0 && <ReconcileNotice attempts={reconcile} />}
        <NewPayment reservation={reservation} methods={methods} cardRef={cardRef} decline={decline} />
      </>
    );
  }
  if (payment.isError) {
    return <FocusAlert>{describeError(payment.error, t)}</FocusAlert>;
  }
  const current = payment.data;
  if (current === undefined) return <p aria-busy="true">{t('common.loading')}</p>;
  const method = methods.find((m) => m.id === current.methodId);

  switch (current.status) {
    case 'succeeded':
      return <Succeeded payment={current} method={method} onNext={newAttempt} />;
    case 'failed':
      // Handled by the effect above: the next card form shows the decline.
      return <p aria-busy="true">{t('common.loading')}</p>;
    case 'expired':
      return <Expired onAgain={newAttempt} />;
    case 'pending_confirmation':
      return <Plans payment={current} />;
    default:
      return (
        <section className="panel" aria-labelledby="status-title" aria-live="polite">
          <FocusHeading id="status-title">
            {t('status.title')} <StatusBadge status={current.status} />
          </FocusHeading>
          {current.status === 'processing' && <p>{t('status.processingHelp')}</p>}
          {current.status === 'requires_action' && <p>{t('status.requiresActionHelp')}</p>}
          {current.nextCheckAt !== undefined && <p className="muted">{t('status.nextCheck', { time: time(current.nextCheckAt) })}</p>}
          {current.status === 'requires_action' && <SendLink payment={current} reservation={reservation} />}
        </section>
      );
  }
}

