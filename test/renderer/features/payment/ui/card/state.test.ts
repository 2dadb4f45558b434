// The card-data rules on the form's state: card data exists only while keyed, and every send, failure and
// cancel drops it, keeping at most brand and last 4 (and the error).
import { describe, expect, it } from 'vitest';
import {
  cardFormReducer,
  EMPTY_FIELDS,
  hasCardData,
  initialCardForm,
  isBusy,
  type CardFormAction,
  type CardFormState,
} from '../../../../../../renderer/src/features/payment/ui/card/state';
import type { MethodView } from '../../../../../../shared/ipc/views';

const NUMBER = '4000000000000002';
const EXPIRY = '1230';
const CVC = '987';
const HOLDER = 'Ana López';
const METHOD: MethodView = {
  id: `mth_${'a'.repeat(32)}`,
  brand: 'visa',
  last4: '0002',
  expMonth: 12,
  expYear: 2030,
  createdAt: '2025-06-15T00:00:00Z',
};

const run = (state: CardFormState, ...actions: CardFormAction[]): CardFormState =>
  actions.reduce(cardFormReducer, state);

function keyed(): CardFormState {
  return run(
    initialCardForm(1),
    { type: 'edit', field: 'number', value: NUMBER, now: 1 },
    { type: 'leave', field: 'number', now: 1 },
    { type: 'edit', field: 'expiry', value: EXPIRY, now: 1 },
    { type: 'edit', field: 'cvc', value: CVC, now: 1 },
    { type: 'edit', field: 'holder', value: HOLDER, now: 1 },
  );
}

/** Nothing of the card but brand and last 4 anywhere in the state. */
function expectNoCardData(state: CardFormState): void {
  const everything = JSON.stringify(state);
  expect(everything).not.toContain(NUMBER);
  expect(everything).not.toContain(NUMBER.slice(0, 12));
  expect(everything).not.toContain(EXPIRY);
  expect(everything).not.toContain(CVC);
  expect(everything).not.toContain(HOLDER);
  expect(state.fields).toEqual(EMPTY_FIELDS);
  expect(hasCardData(state)).toBe(false);
}

const tokenizing: CardFormAction = { type: 'tokenizing', brand: 'visa', last4: '0002', dismiss: undefined };

describe('the card form state', () => {
  it('holds the card while it is keyed', () => {
    const state = keyed();
    expect(state.fields).toEqual({ number: NUMBER, expiry: EXPIRY, cvc: CVC, holder: HOLDER });
    expect(hasCardData(state)).toBe(true);
    expect(state.left.number).toBe(true);
  });

  it('drops the card the moment it is handed to tokenization, keeping brand and last 4', () => {
    const state = run(keyed(), tokenizing);
    expectNoCardData(state);
    expect(state.phase).toEqual({ kind: 'tokenizing', brand: 'visa', last4: '0002' });
    expect(isBusy(state)).toBe(true);
    expect(state.left).toEqual({ number: false, expiry: false, cvc: false, holder: false });
  });

  it('keeps only the method (brand, last 4) after a successful tokenization', () => {
    const state = run(keyed(), tokenizing, { type: 'tokenized', method: METHOD });
    expectNoCardData(state);
    expect(state.phase).toEqual({ kind: 'tokenized', method: METHOD });
  });

  it('keeps nothing but the error after a refused tokenization', () => {
    const error = { code: 'invalid_card', message: 'The card details are not valid.' };
    const state = run(keyed(), tokenizing, { type: 'tokenizeFailed', error });
    expectNoCardData(state);
    expect(state.phase).toEqual({ kind: 'entry' });
    expect(state.error).toEqual(error);
  });

  it('drops everything on cancel (reset), typed or tokenized', () => {
    expectNoCardData(run(keyed(), { type: 'reset' }));
    const afterToken = run(keyed(), tokenizing, { type: 'tokenized', method: METHOD }, { type: 'reset' });
    expectNoCardData(afterToken);
    expect(afterToken.phase).toEqual({ kind: 'entry' });
    expect(afterToken.error).toBeUndefined();
  });

  it('takes no typing while the card is being sent', () => {
    const state = run(keyed(), tokenizing, { type: 'edit', field: 'number', value: NUMBER, now: 2 });
    expectNoCardData(state);
  });

  it('goes back to an empty form with the decline when the payment refuses the card', () => {
    const error = { code: 'card_declined', message: 'The card was declined by the issuer.' };
    const state = run(
      keyed(),
      tokenizing,
      { type: 'tokenized', method: METHOD },
      { type: 'paying', dismiss: undefined },
      { type: 'payFailed', error, keepMethod: false },
    );
    expectNoCardData(state);
    expect(state.phase).toEqual({ kind: 'entry' });
    expect(state.error).toEqual(error);
  });

  it('keeps the tokenized card (never the number) when the payment fails for a passing reason', () => {
    const error = { code: 'processing_error', message: 'Try again.' };
    const state = run(
      keyed(),
      tokenizing,
      { type: 'tokenized', method: METHOD },
      { type: 'paying', dismiss: undefined },
      { type: 'payFailed', error, keepMethod: true },
    );
    expectNoCardData(state);
    expect(state.phase).toEqual({ kind: 'tokenized', method: METHOD });
    expect(state.error).toEqual(error);
  });

  it('returns to the tokenized card once a payment is under way', () => {
    const paying = run(
      keyed(),
      tokenizing,
      { type: 'tokenized', method: METHOD },
      { type: 'paying', dismiss: undefined },
    );
    expect(isBusy(paying)).toBe(true);
    const paid = cardFormReducer(paying, { type: 'paid' });
    expect(paid.phase).toEqual({ kind: 'tokenized', method: METHOD });
    expect(isBusy(paid)).toBe(false);
  });

  it('pays only a tokenized card', () => {
    const state = keyed();
    expect(cardFormReducer(state, { type: 'paying', dismiss: undefined })).toBe(state);
  });

  it('shows every problem once the agent tries to go on', () => {
    const state = cardFormReducer(initialCardForm(1), { type: 'invalid', now: 5 });
    expect(state.submitted).toBe(true);
    expect(state.now).toBe(5);
    expect(run(state, { type: 'edit', field: 'cvc', value: '1', now: 6 }, tokenizing).submitted).toBe(false);
  });

  it('remembers a decline from outside as seen once the agent tries again', () => {
    const decline = { code: 'card_declined' };
    const state = run(keyed(), { ...tokenizing, dismiss: decline });
    expect(state.dismissedDecline).toBe(decline);
    expect(
      run(state, { type: 'tokenizeFailed', error: { code: 'x', message: '' } }, { type: 'reset' }).dismissedDecline,
    ).toBe(decline);
  });

  it('counts every change of the fields, never going back (a resend of the same typing is recognised without keeping it)', () => {
    const revisions = [
      keyed(),
      run(keyed(), tokenizing),
      run(keyed(), tokenizing, { type: 'tokenizeFailed', error: { code: 'x', message: '' } }),
      run(keyed(), { type: 'reset' }),
    ].map((state) => state.revision);
    expect(revisions[0]).toBe(4);
    expect(revisions.slice(1).every((revision) => revision > 4)).toBe(true);
    expect(run(keyed(), { type: 'leave', field: 'cvc', now: 1 }).revision).toBe(4);
  });

  it('counts the name alone as card data (content protection stays on)', () => {
    const state = cardFormReducer(initialCardForm(1), { type: 'edit', field: 'holder', value: 'A', now: 1 });
    expect(hasCardData(state)).toBe(true);
    expect(hasCardData(cardFormReducer(state, { type: 'edit', field: 'holder', value: '', now: 1 }))).toBe(false);
  });
});
