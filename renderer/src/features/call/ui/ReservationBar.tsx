// The call's compact header: guest, confirmation number and what is still owed, kept in view (sticky) while the card
// is keyed and the payment followed, even on a 1366×768 screen where the reservation's details scroll away.
import type { JSX } from 'react';
import type { ReservationBalance } from '../../../../../shared/ipc/views';
import type { ReservationView } from '../../../../../shared/reservations';
import { useI18n } from '../../../i18n';
import { moneyCurrency } from '../../../i18n/format';
import { OwedLine } from '../../../ui/OwedLine';

interface Props {
  reservation: ReservationView;
  /** What main says is still owed, paid over or closed (overview), when known; else the reservation's own balance. */
  balance?: ReservationBalance | undefined;
  /** Being charged right now (payments in progress, attempts without an answer), counted by main as taken. */
  inProgressCents?: number | undefined;
}

export function ReservationBar({ reservation, balance, inProgressCents = 0 }: Props): JSX.Element {
  const { t, money } = useI18n();
  const inProgress = balance !== undefined && inProgressCents > 0;
  return (
    <div className="reservation-bar" role="group" aria-label={t('reservation.bar')}>
      <strong className="reservation-bar__guest" title={reservation.guestName}>
        {reservation.guestName}
      </strong>
      <span className="reservation-bar__id mono">{reservation.confirmationNumber}</span>
      {/* While a payment is being charged, what it is for, then what will still be owed once it goes through. */}
      {inProgress && (
        <span className="reservation-bar__progress">
          {t('reservation.inProgress')}: <strong>{money(inProgressCents, moneyCurrency(balance.currency))}</strong>
        </span>
      )}
      {balance === undefined ? (
        <span className="reservation-bar__owed">
          {t('reservation.balance')}: <strong>{money(reservation.balanceDueCents, reservation.currency)}</strong>
        </span>
      ) : (
        <OwedLine
          balance={balance}
          owedLabel={inProgress ? 'reservation.owedAfter' : 'reservation.owed'}
          className={inProgress ? 'reservation-bar__owed reservation-bar__owed--after' : 'reservation-bar__owed'}
        />
      )}
    </div>
  );
}
