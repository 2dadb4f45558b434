// The call's working state in zustand: which reservation, which payment, and the operation ids that make retries safe.
// Never card data: the card form keeps that in its own component state only. The ids are read only by the mutation hooks
// of the features' api.ts files (payment, refunds), which renew them after an answer; components only move the call on
// (open, close, new attempt, decline), which starts new ones.
// The call outlives a reload of the page (main reloads a page that crashed or hung): its ids are kept in sessionStorage.
import { create, type StateCreator } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { MessageChannel } from '../../../../shared/messaging';
import type { Currency } from '../../../../shared/payments';
import type { Language } from '../../../../shared/language';

/**
 * What the agent typed for the payment on the call, never card data: it survives a decline and a service error; the idle
 * lock forgets its texts (amount, note) and keeps the choices; it goes with a payment that succeeded, a closed reservation
 * or a sign-out. `amount` stays unset until the agent types one: the form then shows what is still owed.
 */
export interface PaymentDraft {
  amount?: string | undefined;
  currency?: Currency | undefined;
  note?: string | undefined;
  msi?: boolean | undefined;
  /** The 3DS link's channel and the language of the message to the guest, as last chosen. */
  channel?: MessageChannel | undefined;
  guestLanguage?: Language | undefined;
}

interface CallState {
  reservationId: string | undefined;
  /** The payment being taken on this call (its status comes from react-query). */
  paymentId: string | undefined;
  /**
   * One id per logical operation, made when the agent starts it; a retry of the same submit reuses it. A payment
   * whose answer was lost is kept by main with its own id (reservations:overview lists it, payments:checkAgain
   * resumes it), so a lock, a sign-out or reopening the reservation never makes it a new payment.
   */
  tokenizeOperationId: string;
  payOperationId: string;
  /**
   * The cards keyed on this call, by method id: brand and last 4 only (what may be shown), so that the result names the
   * card of a payment whose card was not kept as a saved card.
   */
  cards: Readonly<Record<string, { brand: string; last4: string }>>;
  cardKeyed: (methodId: string, card: { brand: string; last4: string }) => void;
  /** What the agent typed for this reservation's payment (never card data). */
  draft: PaymentDraft;
  /** The code of the last decline, shown inside the next card form (never card data). */
  decline: { code: string; message?: string | undefined } | undefined;
  openReservation: (id: string) => void;
  closeReservation: () => void;
  paymentStarted: (id: string) => void;
  editDraft: (patch: Partial<PaymentDraft>) => void;
  /** The payment succeeded and the agent goes on ("Done — new payment"): a new attempt, with what is still owed. */
  paymentDone: () => void;
  /** Main answered a tokenization (either way: the card is never kept): the next one is a new operation. */
  tokenizeAnswered: () => void;
  /** Main refused the charge for good: the next charge is a new operation. */
  payRefused: () => void;
  /** Another card, or another payment on the same reservation: new operations, new ids. */
  newAttempt: () => void;
  /** The payment failed: a new attempt starts at once, with the decline shown in the card form. */
  declined: (failure: { code: string; message?: string | undefined }) => void;
  /**
   * Refund attempts (a supervisor's refund, an agent's request), by slot ("refund:<payment>", "request:<payment>"):
   * one id per attempt, kept until main answers it, so that a retry after a lost answer reuses it.
   */
  attempts: Readonly<Record<string, string>>;
  /** The id of the attempt in this slot, made now if none is open. */
  attemptId: (slot: string) => string;
  /** Main answered the attempt (done, or refused for good): the next one gets a new id. */
  attemptAnswered: (slot: string) => void;
  /**
   * The desk locked: every text typed for the payment (amount, note) is forgotten, as the card form and the other forms
   * (unmounted) forget theirs; the call itself (reservation, payment followed, choices made) is kept.
   */
  locked: () => void;
  /** Sign-out, or another operator at the desk after the lock: forget the call. (The lock itself keeps it.) */
  reset: () => void;
}

const ids = () => ({ tokenizeOperationId: crypto.randomUUID(), payOperationId: crypto.randomUUID() });

/** What of the call is kept in sessionStorage: the ids and choices that bring the call back, no text anyone typed. */
type KeptCall = Pick<
  CallState,
  'reservationId' | 'paymentId' | 'tokenizeOperationId' | 'payOperationId' | 'cards' | 'attempts' | 'draft' | 'decline'
>;

/** The sessionStorage key of the kept call. */
export const CALL_STORAGE_KEY = 'cpd.call';

/**
 * Only ids, the cards' brand and last 4, and the choices made (currency, MSI, channel, the guest's language): never the
 * draft's texts (amount, note) nor a decline's message. Chromium may keep a page's sessionStorage on disk (its session
 * restore), so nothing typed goes there; card data is never in this store at all.
 */
function kept(state: CallState): KeptCall {
  // Named one by one: a text field added to the draft later stays out unless named here.
  const { currency, msi, channel, guestLanguage } = state.draft;
  const choices: PaymentDraft = { currency, msi, channel, guestLanguage };
  return {
    reservationId: state.reservationId,
    paymentId: state.paymentId,
    tokenizeOperationId: state.tokenizeOperationId,
    payOperationId: state.payOperationId,
    cards: state.cards,
    attempts: state.attempts,
    draft: choices,
    decline: state.decline === undefined ? undefined : { code: state.decline.code },
  };
}

const callState: StateCreator<CallState, [['zustand/persist', unknown]]> = (set, get) => ({
  reservationId: undefined,
  attempts: {},
  attemptId: (slot) => {
    const open = get().attempts[slot];
    if (open !== undefined) return open;
    const id = crypto.randomUUID();
    set((state) => ({ attempts: { ...state.attempts, [slot]: id } }));
    return id;
  },
  attemptAnswered: (slot) =>
    set((state) => ({ attempts: Object.fromEntries(Object.entries(state.attempts).filter(([key]) => key !== slot)) })),
  paymentId: undefined,
  decline: undefined,
  ...ids(),
  draft: {},
  cards: {},
  cardKeyed: (methodId, { brand, last4 }) =>
    set((state) => ({ cards: { ...state.cards, [methodId]: { brand, last4 } } })),
  openReservation: (id) =>
    set((state) =>
      state.reservationId === id
        ? {}
        : { reservationId: id, paymentId: undefined, decline: undefined, draft: {}, cards: {}, ...ids() },
    ),
  closeReservation: () =>
    set({ reservationId: undefined, paymentId: undefined, decline: undefined, draft: {}, cards: {}, ...ids() }),
  paymentStarted: (id) => set({ paymentId: id, decline: undefined }),
  editDraft: (patch) => set((state) => ({ draft: { ...state.draft, ...patch } })),
  paymentDone: () => set({ paymentId: undefined, decline: undefined, draft: {}, ...ids() }),
  tokenizeAnswered: () => set({ tokenizeOperationId: crypto.randomUUID() }),
  payRefused: () => set({ payOperationId: crypto.randomUUID() }),
  newAttempt: () => set({ paymentId: undefined, decline: undefined, ...ids() }),
  declined: (failure) => set({ paymentId: undefined, decline: failure, ...ids() }),
  locked: () => set((state) => ({ draft: { ...state.draft, amount: undefined, note: undefined } })),
  reset: () =>
    set({
      reservationId: undefined,
      paymentId: undefined,
      decline: undefined,
      draft: {},
      cards: {},
      attempts: {},
      ...ids(),
    }),
});

// sessionStorage: one per window and gone with it; it survives a reload and a renderer crash (Chromium keeps it in the
// browser process), not a restart of the app. What forgets the call (reset: a sign-out, another operator) empties it there too.
export const useCall = create<CallState>()(
  persist(callState, {
    name: CALL_STORAGE_KEY,
    version: 1,
    storage: createJSONStorage(() => sessionStorage),
    partialize: kept,
  }),
);
