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
}

export function ReservationBar({ reservation, owedCents, owedCurrency }: Props): JSX.Element {
  const { t, money } = useI18n();
  const cents = owedCents ?? reservation.balanceDueCents;
  const currency = owedCents === undefined ? reservation.currency : moneyCurrency(owedCurrency ?? reservation.currency);
  return (
    <div className="reservation-bar" role="group" aria-label={t('reservation.bar')}>
      <strong className="reservation-bar__guest">{reservation.guestName}</strong>
      <span className="reservation-bar__id mono">{reservation.confirmationNumber}</span>
      <span className="reservation-bar__owed">
        {owedCents === undefined ? t('reservation.balance') : t('reservation.owed')}: <strong>{money(cents, currency)}</strong>
      </span>
    </div>
  );
}
