// The call's compact header: guest, confirmation number and what is still owed, kept in view (sticky) while the card
// is keyed and the payment followed, even on a 1366×768 screen where the reservation's details scroll away.
import type { JSX } from 'react';
import type { ReservationView } from '../../../../../shared/reservations';
import { useI18n } from '../../../i18n';
import { moneyCurrency } from '../../../i18n/format';

interface Props {
  reservation: ReservationView;
  /** What main says is still owed (overview), when known; else the reservation's own balance. */
  owedCents?: number | undefined;
  owedCurrency?: string | undefined;
  /** Being charged right now (payments in progress, attempts without an answer), counted by main as taken. */
  inProgressCents?: number | undefined;
}

export function ReservationBar({ reservation, owedCents, owedCurrency, inProgressCents = 0 }: Props): JSX.Element {
  const { t, money } = useI18n();
  const cents = owedCents ?? reservation.balanceDueCents;
  const currency = owedCents === undefined ? reservation.currency : moneyCurrency(owedCurrency ?? reservation.currency);
  return (
    <div className="reservation-bar" role="group" aria-label={t('reservation.bar')}>
      <strong className="reservation-bar__guest" title={reservation.guestName}>
        {reservation.guestName}
      </strong>
      <span className="reservation-bar__id mono">{reservation.confirmationNumber}</span>
      {/* While a payment is being charged, what it is for, then what will still be owed once it goes through. */}
      {owedCents !== undefined && inProgressCents > 0 && (
        <span className="reservation-bar__progress">
          {t('reservation.inProgress')}: <strong>{money(inProgressCents, currency)}</strong>
        </span>
      )}
      <span className={owedCents !== undefined && inProgressCents > 0 ? 'reservation-bar__owed reservation-bar__owed--after' : 'reservation-bar__owed'}>
        {owedCents === undefined ? t('reservation.balance') : inProgressCents > 0 ? t('reservation.owedAfter') : t('reservation.owed')}: <strong>{money(cents, currency)}</strong>
      </span>
    </div>
  );
}
