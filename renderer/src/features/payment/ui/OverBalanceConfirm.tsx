// The agent's confirmation of a charge above what is owed: a box, never ticked for them, naming both amounts; ticking it
// confirms exactly those two amounts (main refuses the charge unless they are still the ones it computes).
import { useRef, useState, type JSX, type RefObject } from 'react';
import { isOverBalance, type OverBalance } from '../../../../../shared/payments/charge';
import { useI18n } from '../../../i18n';

/** The box's own state: whether it is ticked, its change, and where Enter on the charge key sends the focus. */
type BoxState = Pick<Props, 'confirmed' | 'onConfirm' | 'inputRef'>;

export interface OverBalanceState {
  /** The amount is above what is owed. */
  over: boolean;
  /** The agent confirmed exactly these two amounts (it holds only while both are still the ones on screen). */
  confirmed: boolean;
  /** What main is sent with the charge once confirmed: the two amounts it checks against what is owed now. */
  overBalance: OverBalance | undefined;
  box: BoxState;
}

/** A charge's confirmation above what is owed, for an amount and what is owed as on screen (undefined: not known). */
export function useOverBalance(amountCents: number | undefined, owedCents: number | undefined): OverBalanceState {
  const [confirmedOver, setConfirmedOver] = useState<OverBalance>();
  const inputRef = useRef<HTMLInputElement>(null);
  const over = amountCents !== undefined && owedCents !== undefined && isOverBalance(amountCents, owedCents);
  const confirmed = over && confirmedOver?.owedCents === owedCents && confirmedOver.amountCents === amountCents;
  return {
    over,
    confirmed,
    overBalance: confirmed ? { owedCents, amountCents } : undefined,
    box: { confirmed, onConfirm: setConfirmedOver, inputRef },
  };
}

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
