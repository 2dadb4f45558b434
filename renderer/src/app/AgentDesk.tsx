// The agent's workspace: find the reservation (lookup), see it and its payments, take the payment and follow it to the
// result — all from the keyboard; in training, the outbox where the trainee plays the cardholder.
import type { JSX, RefObject } from 'react';
import type { OperatorView } from '../../../shared/operators';
import { describeError } from '../bridge/errors';
import { Lookup, ReservationBar, ReservationSummary, useCall, useOverview, useReservation } from '../features/call';
import { AbandonedNotice, inProgressCents, PaymentFlow, Receipt, ReservationRecovered } from '../features/payment';
import { RequestRefund } from '../features/refunds';
import { Outbox } from '../features/training';
import { useI18n } from '../i18n';
import { useAppInfo } from './api';
import { requestsRefunds, resolvesAttempts, takesPayments } from './sections';

/** The agent's workspace: the lookup on the left, the reservation and its payment on the right. */
export function AgentDesk({
  operator,
  lookupRef,
}: {
  operator: OperatorView;
  lookupRef: RefObject<HTMLInputElement | null>;
}): JSX.Element {
  const { t } = useI18n();
  const info = useAppInfo();
  const reservationId = useCall((state) => state.reservationId);
  const openReservation = useCall((state) => state.openReservation);
  const closeReservation = useCall((state) => state.closeReservation);
  const reservation = useReservation(reservationId);
  const overview = useOverview(reservationId);

  const canTakePayments = takesPayments(operator.role);
  return (
    <>
      <p className="shortcuts" aria-label={t('ws.shortcuts')}>
        <kbd>F2</kbd> {t('ws.keySearch')} · <kbd>Enter</kbd> {t('ws.keyOpen')} · <kbd>Tab</kbd> {t('ws.keyNext')}
      </p>
      <main className="columns">
        <div className="stack">
          <Lookup inputRef={lookupRef} onOpen={(found) => openReservation(found.confirmationNumber)} />
          {info.data?.environment === 'training' && <Outbox />}
        </div>
        <div className="stack">
          {reservationId === undefined && <p className="muted">{t('ws.empty')}</p>}
          {reservation.isError && (
            <p className="error" role="alert">
              {describeError(reservation.error, t)}
            </p>
          )}
          {reservation.data && (
            <>
              <ReservationBar
                reservation={reservation.data}
                balance={overview.data?.balance}
                inProgressCents={inProgressCents(
                  overview.data?.balance,
                  overview.data?.inProgress,
                  overview.data?.pendingPayments,
                )}
              />
              <ReservationSummary
                reservation={reservation.data}
                payments={overview.data?.payments ?? []}
                pendingPayments={overview.data?.pendingPayments}
                balance={overview.data?.balance}
                onClose={() => {
                  // The panel that had the focus is gone: the search box takes it, for the next call.
                  closeReservation();
                  lookupRef.current?.focus();
                }}
                requestRefund={
                  requestsRefunds(operator.role)
                    ? (payment, onClose) => <RequestRefund payment={payment} onClose={onClose} />
                    : undefined
                }
                sendReceipt={
                  canTakePayments ? (payment, guest) => <Receipt payment={payment} reservation={guest} /> : undefined
                }
              />
              <ReservationRecovered notices={overview.data?.recovered} />
              <AbandonedNotice payments={overview.data?.payments ?? []} />
              {canTakePayments ? (
                <PaymentFlow
                  key={reservation.data.confirmationNumber}
                  reservation={reservation.data}
                  methods={overview.data?.methods ?? []}
                  pendingPayments={overview.data?.pendingPayments ?? []}
                  inProgress={overview.data?.inProgress ?? []}
                  balance={overview.data?.balance}
                  chargedToday={overview.data?.chargedToday}
                  overviewUpdating={overview.isFetching}
                  resolvesAttempts={resolvesAttempts(operator.role)}
                />
              ) : (
                <p className="muted">{t('ws.adminNoPayments')}</p>
              )}
            </>
          )}
          {reservationId !== undefined && reservation.isSuccess && reservation.data === undefined && (
            <p role="status">{t('ws.notFound')}</p>
          )}
        </div>
      </main>
    </>
  );
}
