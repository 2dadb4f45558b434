// Taking a payment: amount (the balance due, editable), currency, note, MSI; then a new card or a saved one.
import { useId, useRef, useState, type JSX, type RefObject } from 'react';
import type { MethodView, PaymentView } from '../../../shared/ipc/views';
import { PaymentNote, type Currency } from '../../../shared/payments';
import type { ReservationView } from '../../../shared/reservations';
import { ApiError, unwrap } from '../api/client';
import { describeError, textProblem } from '../api/refusal';
import { bridge, keys, queryClient, storePayment } from '../api/queries';
import { isRetryable } from '../refunds/attempt';
import { useCall } from '../call/store';
import { CardCapture, type CardCaptureHandle } from '../card';
import { useI18n } from '../i18n';
import { amountText, parseAmount } from './amount';
import { SavedMethods } from './SavedMethods';

interface Props {
  reservation: ReservationView;
  methods: readonly MethodView[];
  /** A decline of the previous attempt, shown inside the card form. */
  decline?: { code: string; message?: string } | undefined;
  cardRef: RefObject<CardCaptureHandle | null>;
}

/** Content protection follows the card form: on while it holds card data, off when it is emptied or gone. */
function protect(active: boolean): void {
  void bridge().window.protectCardData({ active });
}

export function NewPayment({ reservation, methods, decline, cardRef }: Props): JSX.Element {
  const { t, money } = useI18n();
  const call = useCall();
  const [amount, setAmount] = useState(amountText(reservation.balanceDueCents));
  const [currency, setCurrency] = useState<Currency>(reservation.currency);
  const [note, setNote] = useState('');
  const [msi, setMsi] = useState(false);
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);
  const amountId = useId();
  const amountError = useId();
  const noteRef = useRef<HTMLInputElement>(null);

  const parsed = parseAmount(amount);
  const amountProblem = parsed.ok ? undefined : t(parsed.problem);
  // A card number in the note is refused here already, before the card is even sent (main refuses it too).
  const noteProblem = textProblem(PaymentNote, note, 'note', t);
  const blocked = busy || !parsed.ok || noteProblem !== undefined;
  const canMsi = currency === 'mxn';

  /** Charges a method (new or saved) with this call's pay operation id: a retry of the same charge reuses it. */
  async function charge(method: MethodView): Promise<PaymentView> {
    if (!parsed.ok) throw new ApiError({ code: 'invalid_amount', message: t(parsed.problem), field: 'amountCents' });
    const trimmedNote = note.trim();
    let payment: PaymentView;
    try {
      payment = await unwrap(
        bridge().payments.pay({
          operationId: call.payOperationId,
          methodId: method.id,
          amountCents: parsed.cents,
          currency,
          reservationId: reservation.confirmationNumber,
          ...(msi && canMsi ? { installments: true } : {}),
          ...(trimmedNote === '' ? {} : { note: trimmedNote }),
        }),
      );
    } catch (error) {
      // Refused for good: the next charge is a new operation. An answer that may be lost keeps the id; main then
      // lists the attempt on the reservation, which shows it with "Check again" instead of this form.
      if (!isRetryable(error)) useCall.setState({ payOperationId: crypto.randomUUID() });
      void queryClient.invalidateQueries({ queryKey: keys.overview(reservation.confirmationNumber) });
      throw error;
    }
    storePayment(payment);
    call.paymentStarted(payment.id);
    void bridge().payments.watch({ paymentId: payment.id });
    return payment;
  }

  async function tokenize(card: Parameters<NonNullable<Parameters<typeof CardCapture>[0]['tokenize']>>[0]): Promise<MethodView> {
    try {
      return await unwrap(
        bridge().payments.tokenize({
          operationId: call.tokenizeOperationId,
          card,
          reservationId: reservation.confirmationNumber,
          ...(reservation.guestEmail === undefined ? {} : { guestEmail: reservation.guestEmail }),
        }),
      );
    } finally {
      // A tokenization is answered either way: the next one (another card, a corrected number) is a new operation.
      useCall.setState({ tokenizeOperationId: crypto.randomUUID() });
    }
  }

  async function chargeSaved(method: MethodView): Promise<void> {
    setProblem(undefined);
    setBusy(true);
    try {
      await charge(method);
    } catch (error) {
      setProblem(describeError(error, t));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="panel" aria-labelledby="new-payment-title">
      <h2 id="new-payment-title">{t('pay.title')}</h2>
      <div className="row">
        <div className="field">
          <label htmlFor={amountId}>{t('pay.amount')}</label>
          <input
            id={amountId}
            inputMode="decimal"
            value={amount}
            autoComplete="off"
            aria-invalid={amountProblem !== undefined}
            aria-describedby={amountError}
            onChange={(event) => setAmount(event.target.value)}
          />
          <p id={amountError} className={amountProblem ? 'error' : 'hint'}>
            {amountProblem ?? t('pay.balanceHint', { balance: money(reservation.balanceDueCents, reservation.currency) })}
          </p>
        </div>
        <div className="field">
          <label htmlFor={`${amountId}-currency`}>{t('pay.currency')}</label>
          <select id={`${amountId}-currency`} value={currency} onChange={(event) => setCurrency(event.target.value === 'usd' ? 'usd' : 'mxn')}>
            <option value="mxn">MXN</option>
            <option value="usd">USD</option>
          </select>
        </div>
      </div>
      <div className="field">
        <label htmlFor={`${amountId}-note`}>{t('pay.note')}</label>
        <input
          id={`${amountId}-note`}
          ref={noteRef}
          maxLength={500}
          value={note}
          autoComplete="off"
          aria-invalid={noteProblem !== undefined}
          aria-describedby={noteProblem === undefined ? undefined : `${amountId}-note-error`}
          onChange={(event) => setNote(event.target.value)}
        />
        {noteProblem !== undefined && (
          <p id={`${amountId}-note-error`} className="error">
            {noteProblem}
          </p>
        )}
      </div>
      <label className="check">
        <input type="checkbox" checked={msi && canMsi} disabled={!canMsi} onChange={(event) => setMsi(event.target.checked)} />
        {t('pay.msi')} {!canMsi && <span className="muted">({t('pay.msiMxnOnly')})</span>}
      </label>

      <h3>{t('pay.newCard')}</h3>
      <CardCapture
        ref={cardRef}
        autoFocus
        disabled={blocked}
        tokenize={tokenize}
        pay={charge}
        decline={decline}
        onCardDataPresent={protect}
        onEvent={(event) => {
          if (event.button === 'continue') void cardRef.current?.checkout();
          else void cardRef.current?.createToken();
        }}
      />
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
      <SavedMethods methods={methods} disabled={blocked} onCharge={(method) => void chargeSaved(method)} />
    </section>
  );
}
