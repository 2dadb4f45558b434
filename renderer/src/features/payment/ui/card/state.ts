/**
 * The card form's state and its transitions, pure. Card data (number, expiry, CVC, name) lives here only while it
 * is being keyed: every transition that sends it, cancels it or fails drops it, keeping at most brand and last 4.
 */
import type { MethodView } from '../../../../../../shared/ipc/views';
import type { CardError } from './errors';
import type { CardFieldName, CardFields } from './fields';

export type Phase =
  /** The agent keys the card. */
  | { kind: 'entry' }
  /** The card was handed to `tokenize`; only what may be shown is kept. */
  | { kind: 'tokenizing'; brand: string; last4: string }
  /** A method (brand, last 4, id) stands in for the card. */
  | { kind: 'tokenized'; method: MethodView }
  | { kind: 'paying'; method: MethodView };

export interface CardFormState {
  fields: CardFields;
  /** Goes up with every change of the fields, never down: tells apart two moments of typing without keeping either. */
  revision: number;
  left: Readonly<Record<CardFieldName, boolean>>;
  /** The agent tried to go on: every problem is shown, empty required fields too. */
  submitted: boolean;
  /** When the expiry was last judged: set by the event that changed it, so that rendering stays pure. */
  now: number;
  phase: Phase;
  /** The last refusal or decline, shown inside the form (code and message only). */
  error: CardError | undefined;
  /** A decline handed in from outside that the agent has moved past by trying again (compared by identity). */
  dismissedDecline: object | undefined;
}

export type CardFormAction =
  | { type: 'edit'; field: CardFieldName; value: string; now: number }
  | { type: 'leave'; field: CardFieldName; now: number }
  | { type: 'invalid'; now: number }
  | { type: 'tokenizing'; brand: string; last4: string; dismiss: object | undefined }
  | { type: 'tokenized'; method: MethodView }
  | { type: 'tokenizeFailed'; error: CardError }
  | { type: 'paying'; dismiss: object | undefined }
  | { type: 'paid' }
  | { type: 'payFailed'; error: CardError; keepMethod: boolean }
  | { type: 'reset' };

export const EMPTY_FIELDS: CardFields = Object.freeze({ number: '', expiry: '', cvc: '', holder: '' });
const NOT_LEFT = Object.freeze({ number: false, expiry: false, cvc: false, holder: false });

export function initialCardForm(now: number): CardFormState {
  return {
    fields: EMPTY_FIELDS,
    revision: 0,
    left: NOT_LEFT,
    submitted: false,
    now,
    phase: { kind: 'entry' },
    error: undefined,
    dismissedDecline: undefined,
  };
}

/** The form without any card data: what every send, failure and cancel leaves behind. */
const wiped = (state: CardFormState): CardFormState => ({
  ...state,
  fields: EMPTY_FIELDS,
  revision: state.revision + 1,
  left: NOT_LEFT,
  submitted: false,
});

export function cardFormReducer(state: CardFormState, action: CardFormAction): CardFormState {
  switch (action.type) {
    case 'edit':
      if (state.phase.kind !== 'entry') return state;
      return {
        ...state,
        fields: { ...state.fields, [action.field]: action.value },
        revision: state.revision + 1,
        now: action.now,
      };
    case 'leave':
      if (state.phase.kind !== 'entry' || state.left[action.field]) return { ...state, now: action.now };
      return { ...state, left: { ...state.left, [action.field]: true }, now: action.now };
    case 'invalid':
      return { ...state, submitted: true, now: action.now };
    case 'tokenizing':
      return {
        ...wiped(state),
        phase: { kind: 'tokenizing', brand: action.brand, last4: action.last4 },
        error: undefined,
        dismissedDecline: action.dismiss ?? state.dismissedDecline,
      };
    case 'tokenized':
      return { ...wiped(state), phase: { kind: 'tokenized', method: action.method }, error: undefined };
    case 'tokenizeFailed':
      return { ...wiped(state), phase: { kind: 'entry' }, error: action.error };
    case 'paying':
      if (state.phase.kind !== 'tokenized') return state;
      return {
        ...state,
        phase: { kind: 'paying', method: state.phase.method },
        error: undefined,
        dismissedDecline: action.dismiss ?? state.dismissedDecline,
      };
    case 'paid':
      return state.phase.kind === 'paying'
        ? { ...state, phase: { kind: 'tokenized', method: state.phase.method } }
        : state;
    case 'payFailed':
      if (action.keepMethod && (state.phase.kind === 'paying' || state.phase.kind === 'tokenized')) {
        return { ...state, phase: { kind: 'tokenized', method: state.phase.method }, error: action.error };
      }
      return { ...wiped(state), phase: { kind: 'entry' }, error: action.error };
    case 'reset':
      return { ...initialCardForm(state.now), revision: state.revision + 1, dismissedDecline: state.dismissedDecline };
  }
}

/** True while any card data is in the form (number, expiry, CVC or name). */
export const hasCardData = (state: CardFormState): boolean => Object.values(state.fields).some((value) => value !== '');

export const isBusy = (state: CardFormState): boolean =>
  state.phase.kind === 'tokenizing' || state.phase.kind === 'paying';
