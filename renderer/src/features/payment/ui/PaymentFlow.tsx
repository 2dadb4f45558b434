// The payment on the call, step by step: card → live status (3DS link, MSI plans) → result; a failure goes back to the card.
// A payment in progress comes back (reopened reservation, after the lock, after a restart) and holds off any new charge.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type JSX } from 'react';
import type {
  ChargeTodayView,
  LivePaymentView,
  MethodView,
  PaymentView,
  PendingPaymentView,
  ReservationBalance,
} from '../../../../../shared/ipc/views';
import type { ReservationView } from '../../../../../shared/reservations';
import { describeError } from '../../../bridge/errors';
import { useI18n } from '../../../i18n';
import { FocusAlert, FocusHeading } from '../../../ui/PanelFocus';
import { StatusBadge } from '../../../ui/StatusBadge';
import { useCall } from '../../call';
import { paymentKeys, usePayment, watchPayment } from '../api';
import { livePaymentOf } from '../waiting';
import type { CardCaptureHandle } from './card';
import { NewPayment } from './NewPayment';
import { PendingPayment, ReconcileNotice } from './PendingPayment';
import { Plans } from './Plans';
import { Expired, Succeeded } from './Result';
import { SendLink } from './SendLink';
import { AbandonButton, WaitingBar } from './Waiting';
import './Payment.css';

interface Props {
  reservation: ReservationView;
  methods: readonly MethodView[];
  /** The reservation's payment attempts whose answer never came (main keeps them, across locks and restarts). */
  pendingPayments?: readonly PendingPaymentView[];
  /** The reservation's payments in progress, not abandoned (main keeps them, across locks and restarts). */
  inProgress?: readonly LivePaymentView[];
  /** What the reservation still owes, as main computes it. */
  balance?: ReservationBalance | undefined;
  /** The reservation's charges of today (main's overview), shown before a new charge and named by it. */
  chargedToday?: readonly ChargeTodayView[] | undefined;
  /**
   * The overview is being read (again): a new charge form waits for it, so that it never starts from a count made
   * while a payment that has just ended was still in progress, nor shows before a payment in progress is known.
   */
  overviewUpdating?: boolean;
  /** The operator may resolve an attempt never answered in the service's window (a supervisor). */
  resolvesAttempts?: boolean;
}

export function PaymentFlow({
  reservation,
  methods,
  pendingPayments = [],
  inProgress = [],
  balance,
  chargedToday,
  overviewUpdating = false,
  resolvesAttempts = false,
}: Props): JSX.Element {
  const { t, time } = useI18n();
  const queryClient = useQueryClient();
  const paymentId = useCall((state) => state.paymentId);
  const cards = useCall((state) => state.cards);
  const paymentStarted = useCall((state) => state.paymentStarted);
  const paymentDone = useCall((state) => state.paymentDone);
  const newAttempt = useCall((state) => state.newAttempt);
  const payment = usePayment(paymentId);
  const cardRef = useRef<CardCaptureHandle>(null);
  const decline = useCall((state) => state.decline);
  const declined = useCall((state) => state.declined);
  /** The payment whose 3-D Secure link this screen sent (after a reopen, main's last link says so). */
  const [linkSentFor, setLinkSentFor] = useState<string>();
  const status = payment.data?.status;
  const failure = payment.data?.failure;

  // A payment in progress main lists for the reservation is taken up again: followed, with its live panel.
  const comeBack =
    paymentId === undefined
      ? livePaymentOf(inProgress, (id) => queryClient.getQueryData<PaymentView>(paymentKeys.detail(id)))
      : undefined;
  const comeBackId = comeBack?.paymentId;
  useEffect(() => {
    if (comeBackId === undefined) return;
    paymentStarted(comeBackId);
    watchPayment(comeBackId);
  }, [comeBackId, paymentStarted]);

  useEffect(() => {
    if (status === 'failed') declined(failure ?? { code: 'processing_error' });
  }, [status, failure, declined]);

  // One payment at a time: while an earlier one has no answer, it is shown with "Check again", and no new charge is offered.
  const unanswered =
    paymentId === undefined ? pendingPayments.find((attempt) => attempt.state === 'unanswered') : undefined;
  const wantsForm = paymentId === undefined && unanswered === undefined && comeBack === undefined;
  // The charge form comes up once the overview is current, and then stays up while it is read again (card data is kept
  // only in the form).
  const [formUp, setFormUp] = useState(false);
  if (wantsForm && !formUp && !overviewUpdating) setFormUp(true);
  if (!wantsForm && formUp) setFormUp(false);

  if (paymentId === undefined) {
    if (unanswered) return <PendingPayment key={unanswered.operationId} attempt={unanswered} />;
    // Nor while one is in progress: its panel comes (the effect above follows it).
    if (comeBack || !formUp) return <p aria-busy="true">{t('common.loading')}</p>;
    // An attempt that may have charged holds the reservation (main refuses a new charge) until a supervisor resolves it.
    const reconcile = pendingPayments.filter((attempt) => attempt.state === 'reconcile');
    if (reconcile.length > 0) return <ReconcileNotice attempts={reconcile} resolves={resolvesAttempts} />;
    return (
      <NewPayment
        reservation={reservation}
        methods={methods}
        balance={balance}
        chargedToday={chargedToday}
        inProgress={inProgress}
        cardRef={cardRef}
        decline={decline}
      />
    );
  }
  if (payment.isError) {
    return <FocusAlert>{describeError(payment.error, t)}</FocusAlert>;
  }
  const current = payment.data;
  if (current === undefined) return <p aria-busy="true">{t('common.loading')}</p>;
  const live = inProgress.find((entry) => entry.paymentId === current.id);
  // The card, brand and last 4 only: as main's view of the payment names it (after a close, a lock or a restart too), else
  // a saved one, one keyed on this call, or as main listed the payment in progress.
  const card =
    (current.brand !== undefined && current.last4 !== undefined
      ? { brand: current.brand, last4: current.last4 }
      : undefined) ??
    methods.find((m) => m.id === current.methodId) ??
    cards[current.methodId] ??
    (live?.brand !== undefined && live.last4 !== undefined ? { brand: live.brand, last4: live.last4 } : undefined);

  const linkSent = live?.lastLink !== undefined || linkSentFor === current.id;

  switch (current.status) {
    case 'succeeded':
      return (
        <Succeeded payment={current} card={card} reservation={reservation} balance={balance} onNext={paymentDone} />
      );
    case 'failed':
      // Handled by the effect above: the next card form shows the decline.
      return <p aria-busy="true">{t('common.loading')}</p>;
    case 'expired':
      return <Expired onAgain={newAttempt} />;
    case 'pending_confirmation':
      return <Plans payment={current} live={live} balance={balance} />;
    default:
      return (
        <section className="panel" aria-labelledby="status-title">
          <FocusHeading id="status-title">
            {t('status.title')} <StatusBadge status={current.status} />
          </FocusHeading>
          <WaitingBar payment={current} live={live} linkSent={linkSent} />
          <div aria-live="polite">
            {current.status === 'processing' && <p>{t('status.processingHelp')}</p>}
            {current.status === 'requires_action' && <p>{t('status.requiresActionHelp')}</p>}
          </div>
          {current.nextCheckAt !== undefined && (
            <p className="muted">{t('status.nextCheck', { time: time(current.nextCheckAt) })}</p>
          )}
          {current.status === 'requires_action' && (
            <SendLink
              payment={current}
              reservation={reservation}
              lastLink={live?.lastLink}
              onSent={() => setLinkSentFor(current.id)}
              actions={
                <AbandonButton payment={current} expiresAt={live?.expiresAt ?? current.expiresAt} linkSent={linkSent} />
              }
            />
          )}
        </section>
      );
  }
}
