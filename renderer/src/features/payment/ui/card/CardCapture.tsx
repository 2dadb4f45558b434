/**
 * The card capture form, behaving like the service's card-capture component (spec §1): brand, Luhn, expiry and
 * CVC checked as typed; continue and save-method buttons emitting `cta_clicked`; createToken() and checkout()
 * through a handle; an MSI picker; declines shown inside the form. Card data lives only in this component's
 * state while it is keyed and is dropped as soon as it is sent, on cancel and on unmount.
 */
import {
  useEffect,
  useId,
  useImperativeHandle,
  useLayoutEffect,
  useReducer,
  useRef,
  useState,
  type ChangeEvent,
  type FormEvent,
  type JSX,
  type KeyboardEvent,
  type Ref,
} from 'react';
import type { MethodView, PaymentView } from '../../../../../../shared/ipc/views';
import { cardBrand, type CardInput } from '../../../../../../shared/payments/card';
import { useI18n, type I18n } from '../../../../i18n';
import { brandName, lastFour } from './brand';
import { describeCardError, refusesTheCard, toCardError, type CardError } from './errors';
import {
  buildCardInput,
  checkCvc,
  checkExpiry,
  checkNumber,
  cvcMaxLength,
  deletionOf,
  editCardNumber,
  editCvc,
  editExpiry,
  formatCardNumber,
  formatExpiry,
  isNumberFinished,
  type CardFieldName,
  type FieldCheck,
  type FieldMessage,
} from './fields';
import { installmentPlans } from './installments';
import { CARD_DATA_INPUT } from './inputs';
import { createPresence } from './presence';
import { cardFormReducer, hasCardData, initialCardForm, isBusy, type CardFormState } from './state';
import './CardCapture.css';

export interface CardCaptureEvent {
  type: 'cta_clicked';
  button: 'continue' | 'save_method';
}

export type CardCaptureError = { error: { code: string; message: string } };
export type CreateTokenResult = { token: { id: string; card: { last4: string; brand: string } } } | CardCaptureError;
export type CheckoutResult = { payment: { id: string; status: string } } | CardCaptureError;

export interface CardCaptureHandle {
  /**
   * Checks the fields (focusing the first at fault), hands the card to `tokenize`, and resolves the method's id,
   * brand and last 4 — or an error, also shown in the form. The card data is dropped either way. Once a card is
   * tokenized, further calls resolve the same method without tokenizing again.
   */
  createToken(): Promise<CreateTokenResult>;
  /** createToken(), then `pay` with the method; a failed payment resolves its failure code, shown in the form. */
  checkout(): Promise<CheckoutResult>;
  /** Drops everything typed and any tokenized card: back to an empty form. */
  clear(): void;
  /** Focuses the first field (or the tokenized card's summary). */
  focus(): void;
}

/** An MSI offer: the picker lists "3 months of $333.33 MXN" for each count, plus paying in full. */
export interface InstallmentsOffer {
  counts: readonly number[];
  /** The payment's amount in cents. */
  amountCents: number;
  currency: 'mxn' | 'usd';
  /** The agent's choice: a count, or undefined for paying in full. */
  onPick: (count: number | undefined) => void;
  /** The count chosen before the picker appeared, if any. */
  selected?: number | undefined;
}

export interface CardCaptureProps {
  ref?: Ref<CardCaptureHandle>;
  /** The one place card data goes: tokenization through main. Throws an Error with `code` and `message` on refusal. */
  tokenize: (card: CardInput) => Promise<MethodView>;
  /** Charges a tokenized method (used by checkout()). */
  pay?: (method: MethodView) => Promise<PaymentView>;
  /** `cta_clicked` for the continue and save-method buttons (and Enter in the form). Nothing else is sent here. */
  onEvent?: (event: CardCaptureEvent) => void;
  /** True when the form starts holding card data, false when it is emptied or unmounted (content protection). */
  onCardDataPresent?: (present: boolean) => void;
  /** Shows a cancel button (and Escape): the form is emptied first. */
  onCancel?: () => void;
  installments?: InstallmentsOffer | undefined;
  /** A decline of a previous attempt (e.g. a payment that failed later), shown in the form until the next try. */
  decline?: { code: string; message?: string | undefined } | undefined;
  disabled?: boolean;
  autoFocus?: boolean;
}

type Focusable = CardFieldName | 'status' | 'summary';

const caretOf = (input: HTMLInputElement): number => input.selectionStart ?? input.value.length;

const failureOf = (payment: PaymentView): CardError => ({ code: payment.failure?.code ?? 'processing_error', message: payment.failure?.message ?? '' });

const messageText = (message: FieldMessage, t: I18n['t']): string =>
  message.key === 'card.cvc.error.length' ? t(message.key, message.vars) : t(message.key);

export function CardCapture({
  ref,
  tokenize,
  pay,
  onEvent,
  onCardDataPresent,
  onCancel,
  installments,
  decline,
  disabled = false,
  autoFocus = false,
}: CardCaptureProps): JSX.Element {
  const i18n = useI18n();
  const { t } = i18n;
  const [state, dispatch] = useReducer(cardFormReducer, undefined, () => initialCardForm(Date.now()));
  const id = useId();

  const form = useRef<HTMLFormElement>(null);
  const numberInput = useRef<HTMLInputElement>(null);
  const expiryInput = useRef<HTMLInputElement>(null);
  const cvcInput = useRef<HTMLInputElement>(null);
  const holderInput = useRef<HTMLInputElement>(null);
  /** Read in events and effects only. */
  const inputOf = (field: CardFieldName): HTMLInputElement | null =>
    (field === 'number' ? numberInput : field === 'expiry' ? expiryInput : field === 'cvc' ? cvcInput : holderInput).current;
  const status = useRef<HTMLParagraphElement>(null);
  const summary = useRef<HTMLDivElement>(null);

  /** Where the caret goes after a reformatting edit, and what to focus after a phase change (set in events). */
  const pendingCaret = useRef<{ field: CardFieldName; at: number } | undefined>(undefined);
  const pendingFocus = useRef<Focusable | undefined>(undefined);
  /**
   * What a handle call made before React re-rendered must not be redone by the next call: the method already
   * obtained, and the revision of the fields already handed to `tokenize` (a number: the card itself is not kept).
   */
  const heldMethod = useRef<MethodView | undefined>(undefined);
  const sentRevision = useRef<number | undefined>(undefined);
  /** Bumped by clear(): an answer that arrives after the form was cleared changes nothing on screen. */
  const generation = useRef(0);
  /** The operation under way: a second call while it runs never sends the card or charges twice. */
  const inflight = useRef<{ kind: 'token'; promise: Promise<CreateTokenResult> } | { kind: 'checkout'; promise: Promise<CheckoutResult> } | undefined>(
    undefined,
  );

  // --- Content protection: told on every change between "holds card data" and "empty", and on unmount. -------
  const present = hasCardData(state);
  const [presence] = useState(createPresence);
  const presentListener = useRef(onCardDataPresent);
  useEffect(() => {
    presentListener.current = onCardDataPresent;
    presence.update(present, onCardDataPresent);
  }, [presence, present, onCardDataPresent]);
  useEffect(() => () => presence.end(presentListener.current), [presence]);

  // --- Caret and focus after renders that moved them. ------------------------------------------------------------
  useLayoutEffect(() => {
    const caret = pendingCaret.current;
    pendingCaret.current = undefined;
    const input = caret ? inputOf(caret.field) : null;
    if (caret && input && document.activeElement === input) input.setSelectionRange(caret.at, caret.at);

    const target = pendingFocus.current;
    if (target === undefined) return;
    const element = target === 'status' ? status.current : target === 'summary' ? summary.current : inputOf(target);
    if (!element) return;
    pendingFocus.current = undefined;
    // Only take focus back from ourselves or from nowhere: never from where the screen around us put it.
    const active = document.activeElement;
    if (active === null || active === document.body || form.current?.contains(active)) element.focus();
  });

  // --- Field edits. -----------------------------------------------------------------------------------------------
  function edited(field: CardFieldName, value: string, caret?: number): void {
    if (caret !== undefined) pendingCaret.current = { field, at: caret };
    dispatch({ type: 'edit', field, value, now: Date.now() });
  }

  function changeNumber(event: ChangeEvent<HTMLInputElement>): void {
    const input = event.currentTarget;
    const wasFinished = isNumberFinished(state.fields.number);
    const next = editCardNumber(state.fields.number, input.value, caretOf(input), deletionOf((event.nativeEvent as InputEvent).inputType));
    edited('number', next.digits, next.caret);
    // A finished number typed at its end moves the agent on to the expiry.
    if (!wasFinished && isNumberFinished(next.digits) && next.caret === next.text.length) expiryInput.current?.focus();
  }

  function changeExpiry(event: ChangeEvent<HTMLInputElement>): void {
    const input = event.currentTarget;
    const next = editExpiry(state.fields.expiry, input.value, caretOf(input), deletionOf((event.nativeEvent as InputEvent).inputType));
    edited('expiry', next.digits, next.caret);
    const now = Date.now();
    if (
      state.fields.expiry.length < 4 &&
      next.digits.length === 4 &&
      next.caret === next.text.length &&
      checkExpiry(next.digits, { left: false, submitted: false }, now).status === 'valid'
    ) {
      cvcInput.current?.focus();
    }
  }

  function changeCvc(event: ChangeEvent<HTMLInputElement>): void {
    const input = event.currentTarget;
    const next = editCvc(state.fields.cvc, input.value, caretOf(input), state.fields.number);
    edited('cvc', next.digits, next.caret);
  }

  const leave = (field: CardFieldName) => (): void => dispatch({ type: 'leave', field, now: Date.now() });

  // --- Operations. -------------------------------------------------------------------------------------------------
  const busy = isBusy(state);

  const failure = (error: CardError): CardCaptureError => ({ error: { code: error.code, message: describeCardError(error, t) } });
  const busyError = (): CardCaptureError => ({ error: { code: 'busy', message: t('card.error.busy') } });
  const cancelledError = (): CardCaptureError => ({ error: { code: 'cancelled', message: t('card.error.cancelled') } });

  /** The tokenized method, tokenizing the typed card if need be. */
  async function obtainMethod(): Promise<{ method: MethodView } | CardCaptureError> {
    if (heldMethod.current) return { method: heldMethod.current };
    if (state.phase.kind !== 'entry' || state.revision === sentRevision.current) return busyError();
    const now = Date.now();
    const built = buildCardInput(state.fields, now);
    if (!built.ok) {
      dispatch({ type: 'invalid', now });
      inputOf(built.field)?.focus();
      return { error: { code: built.code, message: messageText(built.message, t) } };
    }
    if (form.current?.contains(document.activeElement)) pendingFocus.current = 'status';
    sentRevision.current = state.revision;
    const mine = generation.current;
    dispatch({ type: 'tokenizing', brand: cardBrand(built.card.number), last4: lastFour(built.card.number), dismiss: decline });
    try {
      const method = await tokenize(built.card);
      if (generation.current !== mine) return cancelledError();
      heldMethod.current = method;
      pendingFocus.current = 'summary';
      dispatch({ type: 'tokenized', method });
      return { method };
    } catch (thrown) {
      if (generation.current !== mine) return cancelledError();
      const error = toCardError(thrown);
      pendingFocus.current = 'number';
      dispatch({ type: 'tokenizeFailed', error });
      return failure(error);
    }
  }

  async function runCreateToken(): Promise<CreateTokenResult> {
    const got = await obtainMethod();
    if ('error' in got) return got;
    return { token: { id: got.method.id, card: { last4: got.method.last4, brand: got.method.brand } } };
  }

  async function runCheckout(): Promise<CheckoutResult> {
    const got = await obtainMethod();
    if ('error' in got) return got;
    if (!pay) return failure({ code: 'not_configured', message: '' });
    const mine = generation.current;
    dispatch({ type: 'paying', dismiss: decline });
    try {
      const payment = await pay(got.method);
      // The payment exists whatever the screen did meanwhile: its status is told, the form is left as it is.
      if (generation.current !== mine) return payment.status === 'failed' ? failure(failureOf(payment)) : { payment: { id: payment.id, status: payment.status } };
      if (payment.status === 'failed') {
        const error = failureOf(payment);
        heldMethod.current = undefined;
        pendingFocus.current = 'number';
        dispatch({ type: 'payFailed', error, keepMethod: false });
        return failure(error);
      }
      dispatch({ type: 'paid' });
      return { payment: { id: payment.id, status: payment.status } };
    } catch (thrown) {
      const error = toCardError(thrown);
      if (generation.current !== mine) return failure(error);
      const keepMethod = !refusesTheCard(error.code);
      if (!keepMethod) heldMethod.current = undefined;
      pendingFocus.current = keepMethod ? 'summary' : 'number';
      dispatch({ type: 'payFailed', error, keepMethod });
      return failure(error);
    }
  }

  function clear(): void {
    generation.current += 1;
    heldMethod.current = undefined;
    pendingCaret.current = undefined;
    dispatch({ type: 'reset' });
  }

  useImperativeHandle(ref, () => ({
    createToken() {
      const running = inflight.current;
      if (running) return running.kind === 'token' ? running.promise : Promise.resolve(busyError());
      const promise = runCreateToken().finally(() => {
        inflight.current = undefined;
      });
      inflight.current = { kind: 'token', promise };
      return promise;
    },
    checkout() {
      const running = inflight.current;
      if (running) return running.kind === 'checkout' ? running.promise : Promise.resolve(busyError());
      const promise = runCheckout().finally(() => {
        inflight.current = undefined;
      });
      inflight.current = { kind: 'checkout', promise };
      return promise;
    },
    clear,
    focus() {
      (state.phase.kind === 'entry' ? numberInput.current : summary.current)?.focus();
    },
  }));

  // --- Buttons and keys. -------------------------------------------------------------------------------------------
  function submit(event: FormEvent<HTMLFormElement>): void {
    event.preventDefault();
    if (busy || disabled) return;
    onEvent?.({ type: 'cta_clicked', button: 'continue' });
  }

  function cancel(): void {
    clear();
    onCancel?.();
  }

  function anotherCard(): void {
    pendingFocus.current = 'number';
    clear();
  }

  function keyDown(event: KeyboardEvent<HTMLFormElement>): void {
    if (event.key !== 'Escape' || !onCancel || busy || disabled) return;
    event.preventDefault();
    cancel();
  }

  // --- What is shown. ----------------------------------------------------------------------------------------------
  const shownError: { code: string; message?: string | undefined } | undefined =
    state.error ?? (state.phase.kind === 'entry' && decline !== undefined && decline !== state.dismissedDecline ? decline : undefined);

  return (
    <form
      ref={form}
      className="card-capture"
      aria-labelledby={`${id}-legend`}
      aria-busy={busy}
      noValidate
      autoComplete="off"
      onSubmit={submit}
      onKeyDown={keyDown}
    >
      <fieldset className="card-capture__frame" disabled={disabled || busy}>
        <legend id={`${id}-legend`} className="card-capture__legend">
          {t('card.legend')}
        </legend>

        {shownError && (
          <p className="card-capture__alert" role="alert">
            {describeCardError(shownError, t)}
          </p>
        )}

        {state.phase.kind === 'entry' ? (
          <CardFields
            id={id}
            state={state}
            i18n={i18n}
            numberRef={numberInput}
            expiryRef={expiryInput}
            cvcRef={cvcInput}
            holderRef={holderInput}
            autoFocus={autoFocus}
            handlers={{ changeNumber, changeExpiry, changeCvc, leave, edited }}
          />
        ) : (
          <CardSummary id={id} state={state} i18n={i18n} statusRef={status} summaryRef={summary} onAnotherCard={anotherCard} />
        )}

        {installments && <InstallmentPicker id={id} offer={installments} i18n={i18n} />}

        <div className="card-capture__actions">
          <button type="submit" className="card-capture__primary" aria-keyshortcuts="Enter">
            {t('card.action.continue')}
          </button>
          {state.phase.kind === 'entry' && (
            <button type="button" onClick={() => onEvent?.({ type: 'cta_clicked', button: 'save_method' })}>
              {t('card.action.saveMethod')}
            </button>
          )}
          {onCancel && (
            <button type="button" aria-keyshortcuts="Escape" onClick={cancel}>
              {t('common.cancel')}
            </button>
          )}
        </div>
        <p className="card-capture__keys">
          <kbd>Enter</kbd> {t('card.shortcut.continue')}
          {onCancel && (
            <>
              {' · '}
              <kbd>Esc</kbd> {t('card.shortcut.cancel')}
            </>
          )}
        </p>
      </fieldset>
    </form>
  );
}

// ---------------------------------------------------------------------------------------------------------------------

interface FieldsProps {
  id: string;
  state: CardFormState;
  i18n: I18n;
  numberRef: Ref<HTMLInputElement>;
  expiryRef: Ref<HTMLInputElement>;
  cvcRef: Ref<HTMLInputElement>;
  holderRef: Ref<HTMLInputElement>;
  autoFocus: boolean;
  handlers: {
    changeNumber: (event: ChangeEvent<HTMLInputElement>) => void;
    changeExpiry: (event: ChangeEvent<HTMLInputElement>) => void;
    changeCvc: (event: ChangeEvent<HTMLInputElement>) => void;
    leave: (field: CardFieldName) => () => void;
    edited: (field: CardFieldName, value: string) => void;
  };
}

/** The card's fields, in tab order: number, expiry, CVC, name. */
export function CardFields({ id, state, i18n, numberRef, expiryRef, cvcRef, holderRef, autoFocus, handlers }: FieldsProps): JSX.Element {
  const { t } = i18n;
  const { fields } = state;
  const shown = (field: CardFieldName) => ({ left: state.left[field], submitted: state.submitted });
  const number = checkNumber(fields.number, shown('number'));
  const expiry = checkExpiry(fields.expiry, shown('expiry'), state.now);
  const cvc = checkCvc(fields.cvc, fields.number, shown('cvc'));

  const brand = fields.number === '' ? undefined : brandName(cardBrand(fields.number));
  const brandText =
    brand !== undefined
      ? t('card.number.brand', { brand })
      : number.status === 'invalid' || number.status === 'valid'
        ? t('card.brand.unknown')
        : '';

  /** The message element is always there (a live region must exist before it speaks); described-by only when it says something. */
  const describedBy = (field: CardFieldName, check: FieldCheck, ...others: string[]): string | undefined =>
    [...others, ...(check.message ? [`${id}-${field}-message`] : [])].join(' ') || undefined;
  const message = (field: CardFieldName, check: FieldCheck): JSX.Element => (
    <p id={`${id}-${field}-message`} className="card-capture__message" aria-live="polite">
      {check.message ? messageText(check.message, t) : ''}
    </p>
  );

  return (
    <div className="card-capture__fields">
      <div className="card-capture__field card-capture__field--number">
        <label htmlFor={`${id}-number`}>{t('card.number.label')}</label>
        <input
          {...CARD_DATA_INPUT}
          id={`${id}-number`}
          ref={numberRef}
          className="card-capture__input card-capture__input--number"
          autoFocus={autoFocus}
          value={formatCardNumber(fields.number)}
          aria-invalid={number.message !== undefined}
          aria-describedby={describedBy('number', number, ...(brandText === '' ? [] : [`${id}-brand`]))}
          onChange={handlers.changeNumber}
          onBlur={handlers.leave('number')}
        />
        <p id={`${id}-brand`} className="card-capture__brand" aria-live="polite">
          {brandText}
        </p>
        {message('number', number)}
      </div>

      <div className="card-capture__row">
        <div className="card-capture__field card-capture__field--expiry">
          <label htmlFor={`${id}-expiry`}>{t('card.expiry.label')}</label>
          <input
            {...CARD_DATA_INPUT}
            id={`${id}-expiry`}
            ref={expiryRef}
            className="card-capture__input card-capture__input--expiry"
              value={formatExpiry(fields.expiry)}
            aria-invalid={expiry.message !== undefined}
            aria-describedby={describedBy('expiry', expiry)}
            onChange={handlers.changeExpiry}
            onBlur={handlers.leave('expiry')}
          />
          {message('expiry', expiry)}
        </div>

        <div className="card-capture__field card-capture__field--cvc">
          <label htmlFor={`${id}-cvc`}>{t('card.cvc.label')}</label>
          <input
            {...CARD_DATA_INPUT}
            id={`${id}-cvc`}
            ref={cvcRef}
            className="card-capture__input card-capture__input--cvc"
              maxLength={cvcMaxLength(fields.number)}
            value={fields.cvc}
            aria-invalid={cvc.message !== undefined}
            aria-describedby={describedBy('cvc', cvc, `${id}-cvc-hint`)}
            onChange={handlers.changeCvc}
            onBlur={handlers.leave('cvc')}
          />
          <p id={`${id}-cvc-hint`} className="card-capture__hint">
            {t('card.cvc.hint', { length: cvcMaxLength(fields.number) })}
          </p>
          {message('cvc', cvc)}
        </div>
      </div>

      <div className="card-capture__field card-capture__field--holder">
        <label htmlFor={`${id}-holder`}>
          {t('card.holder.label')} <span className="card-capture__optional">{t('common.optional')}</span>
        </label>
        <input
          id={`${id}-holder`}
          ref={holderRef}
          className="card-capture__input"
          type="text"
          autoComplete="off"
          autoCorrect="off"
          spellCheck={false}
          maxLength={100}
          value={fields.holder}
          onChange={(event) => handlers.edited('holder', event.currentTarget.value)}
          onBlur={handlers.leave('holder')}
        />
      </div>
    </div>
  );
}

interface SummaryProps {
  id: string;
  state: CardFormState;
  i18n: I18n;
  statusRef: Ref<HTMLParagraphElement>;
  summaryRef: Ref<HTMLDivElement>;
  onAnotherCard: () => void;
}

/** After the card is sent: brand and last 4 only, with what is under way. */
export function CardSummary({ id, state, i18n, statusRef, summaryRef, onAnotherCard }: SummaryProps): JSX.Element | null {
  const { t } = i18n;
  const { phase } = state;
  if (phase.kind === 'entry') return null;
  const brand = phase.kind === 'tokenizing' ? phase.brand : phase.method.brand;
  const last4 = phase.kind === 'tokenizing' ? phase.last4 : phase.method.last4;
  const card = t('card.summary', { brand: brandName(brand) ?? t('card.brand.unknown'), last4 });

  if (phase.kind === 'tokenizing') {
    return (
      <p ref={statusRef} className="card-capture__status" role="status" tabIndex={-1}>
        <strong>{card}</strong> — {t('card.status.tokenizing')}
      </p>
    );
  }
  return (
    <div ref={summaryRef} className="card-capture__summary" tabIndex={-1} role="group" aria-labelledby={`${id}-summary-label`}>
      <p className="card-capture__summary-text">
        <span id={`${id}-summary-label`}>{t('card.summary.label')}</span> <strong className="card-capture__card">{card}</strong>
      </p>
      <p className="card-capture__status" role="status">
        {phase.kind === 'paying' ? t('card.status.paying') : ''}
      </p>
      <button type="button" onClick={onAnotherCard}>
        {t('card.action.anotherCard')}
      </button>
    </div>
  );
}

interface PickerProps {
  id: string;
  offer: InstallmentsOffer;
  i18n: I18n;
}

/** Pay in full or one of the MSI plans, each with its per-installment amount; arrow keys move between them. */
export function InstallmentPicker({ id, offer, i18n }: PickerProps): JSX.Element {
  const { t, money } = i18n;
  const [selected, setSelected] = useState(offer.selected);
  const plans = installmentPlans(offer.counts, offer.amountCents);
  const pick = (count: number | undefined): void => {
    setSelected(count);
    offer.onPick(count);
  };
  return (
    <fieldset className="card-capture__installments">
      <legend>{t('card.installments.legend')}</legend>
      <label className="card-capture__choice">
        <input type="radio" name={`${id}-installments`} checked={selected === undefined} onChange={() => pick(undefined)} />
        {t('card.installments.none')}
      </label>
      {plans.map((plan) => (
        <label key={plan.count} className="card-capture__choice">
          <input type="radio" name={`${id}-installments`} checked={selected === plan.count} onChange={() => pick(plan.count)} />
          {t('card.installments.plan', { count: plan.count, amount: money(plan.perInstallmentCents, offer.currency) })}
        </label>
      ))}
    </fieldset>
  );
}
