// Taking a payment: amount (the balance due, editable), currency, note, MSI; then a new card or a saved one.
import { useId, useRef, useState, type JSX, type RefObject } from 'react';
import type { MethodView, PaymentView } from '../../../../../shared/ipc/views';
import { PaymentNote, type Currency } from '../../../../../shared/payments';
import type { ReservationView } from '../../../../../shared/reservations';
import { ApiError, describeError, textProblem } from '../../../bridge/errors';
import { useI18n } from '../../../i18n';
import { amountText, parseAmount } from '../amount';
import { protectCardData, usePay, useTokenize, type PayVariables } from '../api';
import { CardCapture, type CardCaptureHandle } from './card';
import { SavedMethods } from './SavedMethods';

interface Props {
  reservation: ReservationView;
  methods: readonly MethodView[];
  /** A decline of the previous attempt, shown inside the card form. */
  decline?: { code: string; message?: string } | undefined;
  cardRef: RefObject<CardCaptureHandle | null>;
}

export function NewPayment({ reservation, methods, decline, cardRef }: Props): JSX.Element {
  const { t, money } = useI18n();
  const [amount, setAmount] = useState(amountText(reservation.balanceDueCents));
  const [currency, setCurrency] = useState<Currency>(reservation.currency);
  const [note, setNote] = useState('');
  const [msi, setMsi] = useState(false);
  const amountId = useId();
  const amountError = useId();
  const noteRef = useRef<HTMLInputElement>(null);
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
  const blocked = busy || !parsed.ok || noteProblem !== undefined;
  const canMsi = currency === 'mxn';

  /** The charge of a method (new or saved) as typed on this form. */
  function chargeOf(method: MethodView): PayVariables {
    if (!parsed.ok) throw new ApiError({ code: 'invalid_amount', message: t(parsed.problem), field: 'amountCents' });
    const trimmedNote = note.trim();
    return {
      methodId: method.id,
      amountCents: parsed.cents,
      currency,
      ...(msi && canMsi ? { installments: true } : {}),
      ...(trimmedNote === '' ? {} : { note: trimmedNote }),
    };
  }

  /** Charges the card the form just tokenized (the card form's checkout()). */
  const charge = async (method: MethodView): Promise<PaymentView> => payCard.mutateAsync(chargeOf(method));

  function chargeSaved(method: MethodView): void {
    // The saved cards are disabled while the amount is not one.
    if (parsed.ok) paySaved.mutate(chargeOf(method));
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
        onCardDataPresent={protectCardData}
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
      <SavedMethods methods={methods} disabled={blocked} onCharge={chargeSaved} />
    </section>
  );
}
