// MSI (Flows B and C): the plans for the amount, a countdown to the deadline, an amount update, and confirmation. No plan
// is chosen beforehand: only "Confirm payment" confirms, and only what the agent chose with the guest. A new amount above what
// the reservation owes besides this payment is sent only once the agent ticks a confirmation naming both amounts.
import { useId, useState, type JSX } from 'react';
import type { LivePaymentView, PaymentView, ReservationBalance } from '../../../../../shared/ipc/views';
import { owedBesides } from '../../../../../shared/payments/charge';
import { describeError } from '../../../bridge/errors';
import { useI18n } from '../../../i18n';
import { Field } from '../../../ui/Field';
import { usePanelFocus } from '../../../ui/usePanelFocus';
import { amountText, parseAmount } from '../amount';
import { OverBalanceConfirm, useOverBalance } from './OverBalanceConfirm';
import { useConfirmPlan, useUpdateAmount } from '../api';
import { mmss, perInstallment, secondsLeft } from '../plans';
import { elapsedText, secondsSince } from '../waiting';
import { AbandonButton, useNow, waitingSince } from './Waiting';

const currencyOf = (payment: PaymentView): 'usd' | 'mxn' => (payment.currency === 'usd' ? 'usd' : 'mxn');

interface Props {
  payment: PaymentView;
  live?: LivePaymentView | undefined;
  /** What the reservation owes, as main computes it (this payment counted as taken). */
  balance?: ReservationBalance | undefined;
}

export function Plans({ payment, live, balance }: Props): JSX.Element {
  const { t, money } = useI18n();
  const now = useNow(1000);
  const [choice, setChoice] = useState<number | 'single'>();
  /** Confirm was asked for with no plan chosen: said, and nothing is sent. */
  const [unchosen, setUnchosen] = useState(false);
  const [newAmount, setNewAmount] = useState(amountText(payment.amountCents));
  /** The new amount as typed, when it is not one (nothing is sent). */
  const [typo, setTypo] = useState<string>();
  const confirmPlan = useConfirmPlan(payment.id);
  const updateAmount = useUpdateAmount(payment.id);
  const busy = confirmPlan.isPending || updateAmount.isPending;
  const failed = updateAmount.error ?? confirmPlan.error;
  const problem = typo ?? (failed === null ? undefined : describeError(failed, t));
  const waited = secondsSince(waitingSince(payment, live), now);
  const groupId = useId();
  const amountId = useId();
  // The plans replace the card form: the focus goes to the first choice, the confirm button is scrolled into view.
  const { focusRef, scrollRef } = usePanelFocus<HTMLInputElement, HTMLButtonElement>();
  const currency = currencyOf(payment);
  const left = payment.expiresAt === undefined ? undefined : secondsLeft(payment.expiresAt, now);
  const parsed = parseAmount(newAmount);
  /** The most the new amount may be without a confirmation: what is owed besides this payment. */
  const owed =
    balance !== undefined && balance.currency === payment.currency
      ? owedBesides(balance, payment.amountCents)
      : undefined;
  const overBalance = useOverBalance(parsed.ok ? parsed.cents : undefined, owed);
  const { over, confirmed: overConfirmed } = overBalance;

  // A plan that no longer exists after an amount update is no longer chosen.
  const chosen = typeof choice === 'number' && !payment.availableInstallments.includes(choice) ? undefined : choice;

  // Each operation clears what the other said.
  function update(): void {
    confirmPlan.reset();
    setUnchosen(false);
    if (!parsed.ok) {
      setTypo(t(parsed.problem));
      return;
    }
    setTypo(undefined);
    // Above what is owed, Enter goes to the confirmation (never ticked for the agent) and sends nothing.
    if (over && !overConfirmed) {
      overBalance.box.inputRef.current?.focus();
      return;
    }
    updateAmount.mutate({
      amountCents: parsed.cents,
      ...(overBalance.overBalance === undefined ? {} : { overBalance: overBalance.overBalance }),
    });
  }

  function confirm(): void {
    updateAmount.reset();
    setTypo(undefined);
    if (chosen === undefined) {
      setUnchosen(true);
      focusRef.current?.focus();
      return;
    }
    // The amount on the screen: main refuses the confirmation if the service holds another.
    confirmPlan.mutate({
      expectedAmountCents: payment.amountCents,
      ...(chosen === 'single' ? {} : { installmentsCount: chosen }),
    });
  }

  return (
    <section className="panel" aria-labelledby="plans-title">
      <h2 id="plans-title">{t('plans.title')}</h2>
      <p>
        {t('plans.amount')} <strong>{money(payment.amountCents, currency)}</strong>
        {payment.originalAmountCents !== undefined && (
          <span className="muted">
            {' '}
            · {t('plans.original', { amount: money(payment.originalAmountCents, currency) })}
          </span>
        )}
      </p>
      {left !== undefined && (
        <p className={left < 120 ? 'warning' : 'muted'} role="timer" aria-live="off">
          {t('plans.deadline', { time: mmss(left) })}
        </p>
      )}
      <p className="muted">{t('wait.elapsed', { time: elapsedText(waited) })}</p>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          confirm();
        }}
        onKeyDown={(event) => {
          // Enter on a plan chooses it and goes to "Confirm payment": a radio never confirms a payment by itself.
          if (event.key === 'Enter' && event.target instanceof HTMLInputElement && event.target.type === 'radio') {
            event.preventDefault();
            event.target.click();
            scrollRef.current?.focus();
          }
        }}
      >
        <fieldset className="plans" aria-describedby={`${groupId}-help`}>
          <legend>{t('plans.choose')}</legend>
          <p id={`${groupId}-help`} className="hint">
            {payment.availableInstallments.length === 0 ? t('plans.noneForAmount') : t('plans.help')}
          </p>
          {unchosen && chosen === undefined && (
            <p className="error" role="alert">
              {t('plans.chooseFirst')}
            </p>
          )}
          {payment.availableInstallments.map((count, index) => (
            <label key={count} className="plan">
              <input
                type="radio"
                ref={index === 0 ? focusRef : undefined}
                name={groupId}
                checked={chosen === count}
                onChange={() => setChoice(count)}
              />
              {t('plans.option', { count, each: money(perInstallment(payment.amountCents, count), currency) })}
            </label>
          ))}
          <label className="plan">
            <input
              type="radio"
              ref={payment.availableInstallments.length === 0 ? focusRef : undefined}
              name={groupId}
              checked={chosen === 'single'}
              onChange={() => setChoice('single')}
            />
            {t('plans.single', { amount: money(payment.amountCents, currency) })}
          </label>
        </fieldset>
        <button ref={scrollRef} type="submit" className="primary" disabled={busy || left === 0}>
          {t('plans.confirm')}
        </button>
      </form>
      {/* A form of its own: Enter in the amount updates it (and never confirms a plan). */}
      <form
        className="row row--end"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          update();
        }}
      >
        <Field id={amountId} label={t('plans.newAmount')}>
          <input
            id={amountId}
            inputMode="decimal"
            autoComplete="off"
            value={newAmount}
            onChange={(event) => setNewAmount(event.target.value)}
          />
        </Field>
        <button type="submit" disabled={busy || left === 0} aria-disabled={over && !overConfirmed ? true : undefined}>
          {t('plans.update')}
        </button>
      </form>
      {over && parsed.ok && owed !== undefined && (
        <>
          <p className="warning over-balance" role="alert">
            {t('pay.overBalance', { amount: money(parsed.cents, currency), owed: money(owed, currency) })}
          </p>
          <OverBalanceConfirm amountCents={parsed.cents} owedCents={owed} currency={currency} {...overBalance.box} />
        </>
      )}
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
      <AbandonButton payment={payment} />
    </section>
  );
}
