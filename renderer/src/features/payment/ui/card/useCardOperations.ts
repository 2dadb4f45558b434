/**
 * The card form's operations, behind its handle: createToken() checks the fields and hands the card to `tokenize` (once
 * per version of the fields), checkout() charges the method with `pay`, clear() drops everything. A second call while
 * one runs never sends the card or charges twice; an answer that arrives after clear() changes nothing on screen.
 */
import { useRef, type Dispatch } from 'react';
import type { MethodView, PaymentView } from '../../../../../../shared/ipc/views';
import { cardBrand, type CardInput } from '../../../../../../shared/payments/card';
import type { I18n } from '../../../../i18n';
import { lastFour } from './brand';
import { describeCardError, refusesTheCard, toCardError, type CardError } from './errors';
import { buildCardInput } from './fields';
import { messageText } from './messages';
import type { CardFormAction, CardFormState } from './state';
import type { CardElements, CardFocus } from './useCardFocus';

export type CardCaptureError = { error: { code: string; message: string } };
export type CreateTokenResult = { token: { id: string; card: { last4: string; brand: string } } } | CardCaptureError;
export type CheckoutResult = { payment: { id: string; status: string } } | CardCaptureError;

export interface CardOperations {
  createToken(): Promise<CreateTokenResult>;
  checkout(): Promise<CheckoutResult>;
  clear(): void;
}

interface Options {
  state: CardFormState;
  dispatch: Dispatch<CardFormAction>;
  tokenize: (card: CardInput) => Promise<MethodView>;
  pay: ((method: MethodView) => Promise<PaymentView>) | undefined;
  decline: object | undefined;
  t: I18n['t'];
  elements: CardElements;
  focus: CardFocus;
}

const failureOf = (payment: PaymentView): CardError => ({
  code: payment.failure?.code ?? 'processing_error',
  message: payment.failure?.message ?? '',
});

export function useCardOperations({
  state,
  dispatch,
  tokenize,
  pay,
  decline,
  t,
  elements,
  focus,
}: Options): CardOperations {
  const { form, inputOf } = elements;
  const { pendingCaretRef, pendingFocusRef } = focus;
  /**
   * What a handle call made before React re-rendered must not be redone by the next call: the method already
   * obtained, and the revision of the fields already handed to `tokenize` (a number: the card itself is not kept).
   */
  const heldMethod = useRef<MethodView | undefined>(undefined);
  const sentRevision = useRef<number | undefined>(undefined);
  /** Bumped by clear(): an answer that arrives after the form was cleared changes nothing on screen. */
  const generation = useRef(0);
  /** The operation under way: a second call while it runs never sends the card or charges twice. */
  const inflight = useRef<{ kind: 'token' | 'checkout'; promise: Promise<unknown> } | undefined>(undefined);

  const failure = (error: CardError): CardCaptureError => ({
    error: { code: error.code, message: describeCardError(error, t) },
  });
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
    if (form.current?.contains(document.activeElement)) pendingFocusRef.current = 'status';
    sentRevision.current = state.revision;
    const mine = generation.current;
    dispatch({
      type: 'tokenizing',
      brand: cardBrand(built.card.number),
      last4: lastFour(built.card.number),
      dismiss: decline,
    });
    try {
      const method = await tokenize(built.card);
      if (generation.current !== mine) return cancelledError();
      heldMethod.current = method;
      pendingFocusRef.current = 'summary';
      dispatch({ type: 'tokenized', method });
      return { method };
    } catch (thrown) {
      if (generation.current !== mine) return cancelledError();
      const error = toCardError(thrown);
      pendingFocusRef.current = 'number';
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
      if (generation.current !== mine)
        return payment.status === 'failed'
          ? failure(failureOf(payment))
          : { payment: { id: payment.id, status: payment.status } };
      if (payment.status === 'failed') {
        const error = failureOf(payment);
        heldMethod.current = undefined;
        pendingFocusRef.current = 'number';
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
      pendingFocusRef.current = keepMethod ? 'summary' : 'number';
      dispatch({ type: 'payFailed', error, keepMethod });
      return failure(error);
    }
  }

  /** Runs one operation at a time: called while one runs, the same kind answers with its promise, the other `busy`. */
  function once<R>(kind: 'token' | 'checkout', run: () => Promise<R>): Promise<R | CardCaptureError> {
    const running = inflight.current;
    // The promise kept under a kind is the one its `run` made.
    if (running) return running.kind === kind ? (running.promise as Promise<R>) : Promise.resolve(busyError());
    const promise = run().finally(() => {
      inflight.current = undefined;
    });
    inflight.current = { kind, promise };
    return promise;
  }

  return {
    createToken: () => once('token', runCreateToken),
    checkout: () => once('checkout', runCheckout),
    clear() {
      generation.current += 1;
      heldMethod.current = undefined;
      pendingCaretRef.current = undefined;
      dispatch({ type: 'reset' });
    },
  };
}
