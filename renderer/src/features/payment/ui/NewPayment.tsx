// Taking a payment: amount (what is still owed, editable) in the reservation's currency, note, MSI; then a new card (kept
// for later only with the guest's consent) or a saved one (charged after a confirmation). An amount above what is owed
// is charged only once the agent ticks a confirmation naming both amounts; the charge key says the amount. What the agent
// typed lives in the call's store, so that it survives a decline, a service error and the idle lock; the card itself only
// in the card form.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type JSX, type RefObject } from 'react';
import type {
  ChargeTodayView,
  LivePaymentView,
  MethodView,
  PaymentView,
  ReservationBalance,
} from '../../../../../shared/ipc/views';
import { PaymentNote, type Currency } from '../../../../../shared/payments';
import type { ReservationView } from '../../../../../shared/reservations';
import {
  ApiError,
  cardDataIn,
  clearedText,
  describeError,
  textProblem,
  type CardDataIssue,
} from '../../../bridge/errors';
import { useI18n } from '../../../i18n';
import { Field } from '../../../ui/Field';
import { FieldHint } from '../../../ui/FieldHint';
import { useCall } from '../../call';
import { amountText, parseAmount } from '../amount';
import { OverBalanceConfirm, useOverBalance } from './OverBalanceConfirm';
import { paymentKeys, protectCardData, usePay, useTokenize, type PayVariables } from '../api';
import { clockTime, owedCents } from '../waiting';
import { brandLabel } from './card/brand';
import { CardCapture, type CardCaptureHandle } from './card';
import { SavedMethods } from './SavedMethods';

interface Props {
  reservation: ReservationView;
  methods: readonly MethodView[];
  /** What the reservation still owes and what was charged on it today, as main computes them. */
  balance?: ReservationBalance | undefined;
  /**
   * The reservation's charges of today main lists (`reservations:overview`), shown before any new charge; a charge names
   * them as shown (main refuses one while a charge of today was not). The balance's list when not given.
   */
  chargedToday?: readonly ChargeTodayView[] | undefined;
  /** The payments in progress main listed with that count. */
  inProgress?: readonly LivePaymentView[] | undefined;
  /** A decline of the previous attempt, shown inside the card form. */
  decline?: { code: string; message?: string } | undefined;
  cardRef: RefObject<CardCaptureHandle | null>;
}

const moneyCurrency = (currency: string): Currency => (currency === 'usd' ? 'usd' : 'mxn');

export function NewPayment({
  reservation,
  methods,
  balance,
  chargedToday: charges,
  inProgress,
  decline,
  cardRef,
}: Props): JSX.Element {
  const { t, money, language } = useI18n();
  const queryClient = useQueryClient();
  const draft = useCall((state) => state.draft);
  const editDraft = useCall((state) => state.editDraft);
  const owed = owedCents(reservation, balance, inProgress, (id) =>
    queryClient.getQueryData<PaymentView>(paymentKeys.detail(id)),
  );
  // Until the agent types an amount, the form shows what is still owed (it goes down as payments succeed).
  const amount = draft.amount ?? amountText(owed);
  // Every charge is in the reservation's currency (main refuses another): shown, never chosen.
  const currency = reservation.currency;
  const note = draft.note ?? '';
  const msi = draft.msi ?? false;
  /** The guest's consent to keep this card: asked for each new card, so never carried over. */
  const [keepCard, setKeepCard] = useState(false);
  /** A saved card about to be charged: its amount and card shown, Enter once more to charge. */
  const [confirming, setConfirming] = useState<MethodView>();
  const confirmButton = useRef<HTMLButtonElement>(null);
  const amountId = useId();
  const amountError = useId();
  const noteRef = useRef<HTMLInputElement>(null);
  const amountRef = useRef<HTMLInputElement>(null);
  /** Card data the agent typed in the note: the note was emptied at once (never kept, not even in the draft), and says why. */
  const [noteCleared, setNoteCleared] = useState<CardDataIssue>();
  const tokenize = useTokenize(reservation);
  // The card's charge and a saved card's: the same pay operation id (the call's), each with its own state on screen.
  const payCard = usePay(reservation.confirmationNumber);
  const paySaved = usePay(reservation.confirmationNumber);
  const busy = paySaved.isPending;
  const problem = paySaved.error === null ? undefined : describeError(paySaved.error, t);

  const parsed = parseAmount(amount);
  const amountProblem = parsed.ok ? undefined : t(parsed.problem);
  // A card number in the note is refused here already, before the card is even sent (main refuses it too).
  const noteProblem = textProblem(PaymentNote, note, 'note', t);
  const noteMessage = noteProblem ?? (noteCleared === undefined ? undefined : clearedText(noteCleared, 'note', t));
  const blocked = busy || !parsed.ok || noteProblem !== undefined;
  /** The amounts the agent confirmed charging above what is owed: it holds only while both are still the ones on screen. */
  const overBalance = useOverBalance(parsed.ok ? parsed.cents : undefined, owed);
  const { over, confirmed: overConfirmed } = overBalance;
  /** Nothing is charged (the card's key, a saved card) while an amount above what is owed is not confirmed. */
  const chargeHeld = blocked || (over && !overConfirmed);
  const chargedToday: readonly { paymentId: string; amountCents: number; currency: string; at: string }[] =
    charges ?? balance?.chargedToday ?? [];
  const canMsi = currency === 'mxn';

  useEffect(() => {
    if (confirming) confirmButton.current?.focus();
  }, [confirming]);

  // The card number takes the focus when the form appears; when the card form cannot (nothing left to charge), the amount.
  useEffect(() => {
    if (document.activeElement === null || document.activeElement === document.body) amountRef.current?.focus();
  }, []);
  // A form drawn while it could not take the card (its amount still being read) could not take the focus either: the card
  // number takes it once the form can, unless the agent is already somewhere.
  useEffect(() => {
    if (!blocked && (document.activeElement === null || document.activeElement === document.body))
      cardRef.current?.focus();
  }, [blocked, cardRef]);

  /** The charge of a method (new or saved) as typed on this form. */
  function chargeOf(method: MethodView, keep = false): PayVariables {
    if (!parsed.ok) throw new ApiError({ code: 'invalid_amount', message: t(parsed.problem), field: 'amountCents' });
    const trimmedNote = note.trim();
    return {
      methodId: method.id,
      amountCents: parsed.cents,
      currency,
      ...(msi && canMsi ? { installments: true } : {}),
      ...(trimmedNote === '' ? {} : { note: trimmedNote }),
      ...(keep ? { keepCard: true } : {}),
      // Exactly the charges this form shows above (and only those): main refuses the charge while another was taken today.
      acknowledgedPaymentIds: chargedToday.map((shown) => shown.paymentId),
      // Above what is owed: the two amounts the agent confirmed, which main checks against what is owed now.
      ...(overBalance.overBalance === undefined ? {} : { overBalance: overBalance.overBalance }),
    };
  }

  /** Charges the card the form just tokenized (the card form's checkout()), kept for later only if the guest agreed. */
  const charge = async (method: MethodView): Promise<PaymentView> => payCard.mutateAsync(chargeOf(method, keepCard));

  function chargeSaved(method: MethodView): void {
    // The saved cards are disabled while the amount is not one; the charge itself waits for the confirmation.
    if (!parsed.ok || chargeHeld) return;
    paySaved.reset();
    setConfirming(method);
  }

  function confirmSaved(): void {
    if (confirming === undefined || !parsed.ok || busy) return;
    paySaved.mutate(chargeOf(confirming), { onSettled: () => setConfirming(undefined) });
  }

  return (
    <section className="panel" aria-labelledby="new-payment-title">
      <h2 id="new-payment-title">{t('pay.title')}</h2>
      {chargedToday.length > 0 && (
        <ul className="charged-today" aria-label={t('pay.chargedTodayLabel')}>
          {chargedToday.map((charge) => (
            <li key={charge.paymentId} className="warning">
              {t('pay.chargedToday', {
                amount: money(charge.amountCents, moneyCurrency(charge.currency)),
                time: clockTime(charge.at, language),
              })}
            </li>
          ))}
        </ul>
      )}
      <div className="row">
        <Field id={amountId} label={t('pay.amount')}>
          <input
            id={amountId}
            ref={amountRef}
            inputMode="decimal"
            value={amount}
            autoComplete="off"
            aria-invalid={amountProblem !== undefined}
            aria-describedby={amountError}
            onChange={(event) => editDraft({ amount: event.target.value })}
          />
          {over && parsed.ok ? (
            <p id={amountError} className="warning over-balance" role="alert">
              {t('pay.overBalance', { amount: money(parsed.cents, currency), owed: money(owed, currency) })}
            </p>
          ) : (
            <FieldHint
              id={amountError}
              problem={amountProblem}
              hint={t('pay.balanceHint', { balance: money(owed, reservation.currency) })}
            />
          )}
        </Field>
        <div className="field">
          <span id={`${amountId}-currency`}>{t('pay.currency')}</span>
          <strong className="currency-locked">{currency.toUpperCase()}</strong>
          <p className="hint">{t('pay.currencyHint')}</p>
        </div>
      </div>

      <Field id={`${amountId}-note`} label={t('pay.note')}>
        <input
          id={`${amountId}-note`}
          ref={noteRef}
          maxLength={500}
          value={note}
          autoComplete="off"
          aria-invalid={noteProblem !== undefined}
          aria-describedby={noteMessage === undefined ? undefined : `${amountId}-note-error`}
          onChange={(event) => {
            const cardData = cardDataIn(PaymentNote, event.target.value);
            setNoteCleared(cardData);
            editDraft({ note: cardData === undefined ? event.target.value : '' });
          }}
        />
        {noteMessage !== undefined && (
          <p id={`${amountId}-note-error`} className="error" role={noteCleared === undefined ? undefined : 'alert'}>
            {noteMessage}
          </p>
        )}
      </Field>
      <label className="check">
        <input
          type="checkbox"
          checked={msi && canMsi}
          disabled={!canMsi}
          onChange={(event) => editDraft({ msi: event.target.checked })}
        />
        {t('pay.msi')} {!canMsi && <span className="muted">({t('pay.msiMxnOnly')})</span>}
      </label>

      <h3>{t('pay.newCard')}</h3>
      <label className="check">
        <input
          type="checkbox"
          checked={keepCard}
          disabled={blocked}
          onChange={(event) => setKeepCard(event.target.checked)}
        />
        {t('pay.keepCard')}
      </label>
      <CardCapture
        ref={cardRef}
        autoFocus
        disabled={blocked}
        chargeHeld={chargeHeld}
        // Enter (or the key) before the confirmation charges nothing: it goes to the confirmation, right above the key.
        onChargeHeld={() => overBalance.box.inputRef.current?.focus()}
        chargeNotice={
          over && parsed.ok ? (
            <OverBalanceConfirm amountCents={parsed.cents} owedCents={owed} currency={currency} {...overBalance.box} />
          ) : undefined
        }
        chargeLabel={
          parsed.ok ? t('pay.chargeKey', { amount: money(parsed.cents, currency) }) : t('pay.chargeKeyNoAmount')
        }
        chargeShortcut={t('pay.chargeShortcut')}
        tokenize={tokenize}
        pay={charge}
        decline={decline}
        onCardDataPresent={protectCardData}
        onEvent={(event) => {
          if (event.button !== 'continue') void cardRef.current?.createToken();
          else if (!chargeHeld) void cardRef.current?.checkout();
        }}
      />
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
      {confirming && parsed.ok ? (
        <div
          className="saved-confirm"
          role="group"
          aria-labelledby={`${amountId}-confirm`}
          onKeyDown={(event) => {
            if (event.key !== 'Escape' || busy) return;
            event.preventDefault();
            setConfirming(undefined);
          }}
        >
          <p id={`${amountId}-confirm`} className="saved-confirm__text">
            {t('saved.confirm', {
              amount: money(parsed.cents, currency),
              card: `${brandLabel(confirming.brand)} •••• ${confirming.last4}`,
            })}
          </p>
          <div className="row">
            <button
              type="button"
              ref={confirmButton}
              className="primary"
              disabled={busy}
              aria-busy={busy}
              aria-keyshortcuts="Enter"
              onClick={confirmSaved}
            >
              {t('saved.confirmCharge', { amount: money(parsed.cents, currency) })}
            </button>
            <button type="button" disabled={busy} aria-keyshortcuts="Escape" onClick={() => setConfirming(undefined)}>
              {t('common.cancel')}
            </button>
          </div>
          <p className="hint">{t('saved.confirmKeys')}</p>
        </div>
      ) : (
        <SavedMethods methods={methods} disabled={chargeHeld} onCharge={chargeSaved} />
      )}
    </section>
  );
}
