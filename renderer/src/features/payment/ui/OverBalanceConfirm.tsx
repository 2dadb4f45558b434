// The agent's confirmation of a charge above what is owed: a box, never ticked for them, naming both amounts; ticking it
// confirms exactly those two amounts (main refuses the charge unless they are still the ones it computes).
import type { JSX, RefObject } from 'react';
import type { OverBalance } from '../../../../../shared/payments/charge';
import { useI18n } from '../../../i18n';

interface Props {
  /** The amount to charge and what is owed, in cents, as on screen. */
  amountCents: number;
  owedCents: number;
  currency: 'usd' | 'mxn';
  confirmed: boolean;
  onConfirm: (confirmation: OverBalance | undefined) => void;
  /** Where Enter on the charge key sends the focus instead of charging. */
  inputRef: RefObject<HTMLInputElement | null>;
}

export function OverBalanceConfirm({
  amountCents,
  owedCents,
  currency,
  confirmed,
  onConfirm,
  inputRef,
}: Props): JSX.Element {
  const { t, money } = useI18n();
  return (
    <label className="check over-balance-confirm">
      <input
        ref={inputRef}
        type="checkbox"
        checked={confirmed}
        onChange={(event) => onConfirm(event.target.checked ? { owedCents, amountCents } : undefined)}
      />
      {t('pay.overBalanceConfirm', { amount: money(amountCents, currency), owed: money(owedCents, currency) })}
    </label>
  );
}
