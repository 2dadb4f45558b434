/**
 * The card capture form, behaving like the service's card-capture component (spec §1): brand, Luhn, expiry and
 * CVC checked as typed; continue and save-method buttons emitting `cta_clicked`; createToken() and checkout()
 * through a handle; declines shown inside the form. Card data lives only in this component's state while it is
 * keyed and is dropped as soon as it is sent, on cancel and on unmount. Its parts: the fields (CardFields), the card
 * once sent (CardSummary), the operations behind the handle (useCardOperations), caret and focus (useCardFocus).
 */
import {
  useEffect,
  useId,
  useImperativeHandle,
  useReducer,
  useRef,
  useState,
  type ChangeEvent,
  type FormEvent,
  type JSX,
  type KeyboardEvent,
  type ReactNode,
  type Ref,
} from 'react';
import type { MethodView, PaymentView } from '../../../../../../shared/ipc/views';
import type { CardInput } from '../../../../../../shared/payments/card';
import { useI18n } from '../../../../i18n';
import { releaseTypeAhead } from '../../../../ui/typeAhead';
import { CardFields } from './CardFields';
import { CardSummary } from './CardSummary';
import { describeCardError } from './errors';
import {
  checkExpiry,
  deletionOf,
  editCardNumber,
  editCvc,
  editExpiry,
  isNumberFinished,
  type CardFieldName,
} from './fields';
import { createPresence } from './presence';
import { cardFormReducer, hasCardData, initialCardForm, isBusy } from './state';
import { useCardFocus, type CardElements } from './useCardFocus';
import { useCardOperations, type CardOperations } from './useCardOperations';
import './CardCapture.css';

export type { CardCaptureError, CheckoutResult, CreateTokenResult } from './useCardOperations';

export interface CardCaptureEvent {
  type: 'cta_clicked';
  button: 'continue' | 'save_method';
}

export interface CardCaptureHandle extends CardOperations {
  /**
   * Checks the fields (focusing the first at fault), hands the card to `tokenize`, and resolves the method's id,
   * brand and last 4 — or an error, also shown in the form. The card data is dropped either way. Once a card is
   * tokenized, further calls resolve the same method without tokenizing again.
   */
  createToken: CardOperations['createToken'];
  /** createToken(), then `pay` with the method; a failed payment resolves its failure code, shown in the form. */
  checkout: CardOperations['checkout'];
  /** Drops everything typed and any tokenized card: back to an empty form. */
  clear: CardOperations['clear'];
  /** Focuses the first field (or the tokenized card's summary). */
  focus(): void;
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
  /** A decline of a previous attempt (e.g. a payment that failed later), shown in the form until the next try. */
  decline?: { code: string; message?: string | undefined } | undefined;
  disabled?: boolean;
  /**
   * The charge key (and Enter) charges nothing while true: `onChargeHeld` is called instead (the fields stay editable;
   * the amount waits for a confirmation shown in `chargeNotice`).
   */
  chargeHeld?: boolean;
  onChargeHeld?: () => void;
  /** What the agent must see (and confirm) right before the charge key, shown above it. */
  chargeNotice?: ReactNode;
  /** The charge key's words, saying what it charges ("Charge $1,199.99 MXN"); the component's "Continue" when not given. */
  chargeLabel?: string;
  /** The charge key's verb in the keys hint ("Enter charge"); the component's "continue" when not given. */
  chargeShortcut?: string;
  autoFocus?: boolean;
}

const caretOf = (input: HTMLInputElement): number => input.selectionStart ?? input.value.length;

export function CardCapture({
  ref,
  tokenize,
  pay,
  onEvent,
  onCardDataPresent,
  onCancel,
  decline,
  disabled = false,
  chargeHeld = false,
  onChargeHeld,
  chargeNotice,
  chargeLabel,
  chargeShortcut,
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
  const status = useRef<HTMLParagraphElement>(null);
  const summary = useRef<HTMLDivElement>(null);
  const elements: CardElements = {
    form,
    status,
    summary,
    inputOf: (field) =>
      (field === 'number' ? numberInput : field === 'expiry' ? expiryInput : field === 'cvc' ? cvcInput : holderInput)
        .current,
  };
  const { pendingCaretRef, pendingFocusRef } = useCardFocus(elements);
  const focus = { pendingCaretRef, pendingFocusRef };
  const operations = useCardOperations({ state, dispatch, tokenize, pay, decline, t, elements, focus });

  // --- Content protection: told on every change between "holds card data" and "empty", and on unmount. -------
  const present = hasCardData(state);
  const [presence] = useState(createPresence);
  const presentListener = useRef(onCardDataPresent);
  useEffect(() => {
    presentListener.current = onCardDataPresent;
    presence.update(present, onCardDataPresent);
  }, [presence, present, onCardDataPresent]);
  useEffect(() => () => presence.end(presentListener.current), [presence]);

  // --- Field edits. -----------------------------------------------------------------------------------------------
  function edited(field: CardFieldName, value: string, caret?: number): void {
    if (caret !== undefined) pendingCaretRef.current = { field, at: caret };
    dispatch({ type: 'edit', field, value, now: Date.now() });
  }

  function changeNumber(event: ChangeEvent<HTMLInputElement>): void {
    const input = event.currentTarget;
    const wasFinished = isNumberFinished(state.fields.number);
    const next = editCardNumber(
      state.fields.number,
      input.value,
      caretOf(input),
      deletionOf((event.nativeEvent as InputEvent).inputType),
    );
    edited('number', next.digits, next.caret);
    // A finished number typed at its end moves the agent on to the expiry.
    if (!wasFinished && isNumberFinished(next.digits) && next.caret === next.text.length) expiryInput.current?.focus();
  }

  function changeExpiry(event: ChangeEvent<HTMLInputElement>): void {
    const input = event.currentTarget;
    const next = editExpiry(
      state.fields.expiry,
      input.value,
      caretOf(input),
      deletionOf((event.nativeEvent as InputEvent).inputType),
    );
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

  useImperativeHandle(ref, () => ({
    ...operations,
    focus() {
      (state.phase.kind === 'entry' ? numberInput.current : summary.current)?.focus();
    },
  }));

  // --- Buttons and keys. -------------------------------------------------------------------------------------------
  const busy = isBusy(state);

  function submit(event: FormEvent<HTMLFormElement>): void {
    event.preventDefault();
    if (busy || disabled) return;
    if (chargeHeld) {
      onChargeHeld?.();
      return;
    }
    onEvent?.({ type: 'cta_clicked', button: 'continue' });
  }

  function cancel(): void {
    operations.clear();
    onCancel?.();
  }

  function anotherCard(): void {
    pendingFocusRef.current = 'number';
    operations.clear();
  }

  function keyDown(event: KeyboardEvent<HTMLFormElement>): void {
    if (event.key !== 'Escape' || !onCancel || busy || disabled) return;
    event.preventDefault();
    cancel();
  }

  // Keys typed after Enter opened the reservation, before this form was drawn, go into the card number now.
  useEffect(() => {
    if (autoFocus) releaseTypeAhead();
    // Once, when the form is first drawn.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // --- What is shown. ----------------------------------------------------------------------------------------------
  const shownError: { code: string; message?: string | undefined } | undefined =
    state.error ??
    (state.phase.kind === 'entry' && decline !== undefined && decline !== state.dismissedDecline ? decline : undefined);

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
          <CardSummary
            id={id}
            state={state}
            i18n={i18n}
            statusRef={status}
            summaryRef={summary}
            onAnotherCard={anotherCard}
          />
        )}

        {chargeNotice}
        <div className="card-capture__actions">
          <button
            type="submit"
            className="card-capture__primary"
            aria-keyshortcuts="Enter"
            aria-disabled={chargeHeld ? true : undefined}
          >
            {chargeLabel ?? t('card.action.continue')}
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
          <kbd>Enter</kbd> {chargeShortcut ?? t('card.shortcut.continue')}
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
