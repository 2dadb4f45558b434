// What a reservation owes, one way on every screen (the call's header, the reservation, a payment's result): main's
// count (shared/payments/refund-effect.ts decides what a refund does to it), or "paid over" when the guest paid more
// than the balance, or "closed" once a cancellation refund closed the booking.
import type { JSX } from 'react';
import type { ReservationBalance } from '../../../shared/ipc/views';
import { moneyCurrency, useI18n, type PlainKey } from '../i18n';

export type OwedState = { kind: 'owed' | 'overpaid' | 'closed'; cents: number };

/** What the balance says to show: paid over first (money to give back), then a booking closed, else what is owed. */
export function owedState(balance: Pick<ReservationBalance, 'owedCents' | 'overpaidCents' | 'closed'>): OwedState {
  if (balance.overpaidCents > 0) return { kind: 'overpaid', cents: balance.overpaidCents };
  if (balance.closed) return { kind: 'closed', cents: 0 };
  return { kind: 'owed', cents: balance.owedCents };
}

const LABEL: Record<OwedState['kind'], PlainKey> = {
  owed: 'reservation.owed',
  overpaid: 'owed.overpaid',
  closed: 'owed.closed',
};

interface Props {
  balance: ReservationBalance;
  /** The label for what is owed when it is what will be left after a payment in progress ("still owed after it"). */
  owedLabel?: PlainKey;
  /** Says what to do next under the amount (paid over: ask a supervisor for a refund). */
  withHelp?: boolean;
  className?: string;
}

/** "Still owed: $899.99 MXN", "Paid over: $10,799.91 MXN" or "Closed (cancellation refunded): nothing to charge". */
export function OwedLine({ balance, owedLabel = 'reservation.owed', withHelp = false, className }: Props): JSX.Element {
  const { t, money } = useI18n();
  const state = owedState(balance);
  const currency = moneyCurrency(balance.currency);
  const label = state.kind === 'owed' ? owedLabel : LABEL[state.kind];
  return (
    <span className={className} data-owed={state.kind}>
      {t(label)}:{' '}
      <strong className={state.kind === 'overpaid' ? 'owed--overpaid' : undefined}>
        {state.kind === 'closed' ? t('owed.nothing') : money(state.cents, currency)}
      </strong>
      {withHelp && state.kind !== 'owed' && (
        <span className="hint owed__help">
          {' '}
          {t(state.kind === 'overpaid' ? 'owed.overpaidHelp' : 'owed.closedHelp')}
        </span>
      )}
    </span>
  );
}
