// @vitest-environment happy-dom
// The call's store: one refund attempt id per slot until main answers it; the payment draft and when it goes; the lock screen forgets them.
import { describe, expect, it, vi } from 'vitest';
import { CALL_STORAGE_KEY, useCall } from '../../../../renderer/src/features/call/store';

describe('refund attempt ids', () => {
  it('one id per slot until answered; the next attempt gets a new one; reset forgets them', () => {
    const store = useCall.getState();
    const first = store.attemptId('refund:pay_1');
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(useCall.getState().attemptId('refund:pay_1')).toBe(first);
    expect(useCall.getState().attemptId('refund:pay_2')).not.toBe(first);
    useCall.getState().attemptAnswered('refund:pay_1');
    const second = useCall.getState().attemptId('refund:pay_1');
    expect(second).not.toBe(first);
    useCall.getState().reset();
    expect(useCall.getState().attempts).toEqual({});
  });
});

describe('the payment draft', () => {
  it('survives a decline and a new attempt; goes with a payment done, a closed reservation and a reset', () => {
    const store = useCall.getState();
    store.openReservation('CUN-6B3D8F');
    useCall.getState().editDraft({ amount: '250', note: 'Deposit', msi: true, channel: 'whatsapp' });
    const payId = useCall.getState().payOperationId;
    useCall.getState().declined({ code: 'card_declined' });
    expect(useCall.getState().draft).toEqual({ amount: '250', note: 'Deposit', msi: true, channel: 'whatsapp' });
    expect(useCall.getState().payOperationId).not.toBe(payId);
    useCall.getState().newAttempt();
    expect(useCall.getState().draft.amount).toBe('250');
    // Opening the same reservation again keeps it; another reservation starts empty.
    useCall.getState().openReservation('CUN-6B3D8F');
    expect(useCall.getState().draft.note).toBe('Deposit');
    useCall.getState().paymentStarted('pay_1');
    useCall.getState().paymentDone();
    expect(useCall.getState().draft).toEqual({});
    useCall.getState().editDraft({ amount: '10' });
    useCall.getState().openReservation('SJD-4X6Y9Z');
    expect(useCall.getState().draft).toEqual({});
    useCall.getState().editDraft({ amount: '10' });
    useCall.getState().closeReservation();
    expect(useCall.getState().draft).toEqual({});
    useCall.getState().editDraft({ amount: '10' });
    useCall.getState().reset();
    expect(useCall.getState().draft).toEqual({});
  });
});

describe('the call over a reload of the page', () => {
  /** The page loaded again: a fresh copy of the store module over the same sessionStorage, as after a reload or a renderer crash. */
  async function reloaded(): Promise<typeof useCall> {
    vi.resetModules();
    return (await import('../../../../renderer/src/features/call/store')).useCall;
  }

  it('comes back: the reservation, the payment followed, the operation and attempt ids, the cards’ brand and last 4, the choices', async () => {
    const store = useCall.getState();
    store.reset();
    store.openReservation('CUN-6B3D8F');
    useCall.getState().cardKeyed('pm_1', { brand: 'visa', last4: '4242' });
    useCall.getState().editDraft({
      amount: '1,199.99',
      note: 'Depósito de la suite',
      currency: 'mxn',
      msi: true,
      channel: 'sms',
      guestLanguage: 'en-US',
    });
    useCall.getState().paymentStarted('pay_0123456789abcdef0123456789abcdef');
    const refundAttempt = useCall.getState().attemptId('refund:pay_1');
    const before = useCall.getState();

    const after = (await reloaded()).getState();
    expect(after).toMatchObject({
      reservationId: 'CUN-6B3D8F',
      paymentId: 'pay_0123456789abcdef0123456789abcdef',
      tokenizeOperationId: before.tokenizeOperationId,
      payOperationId: before.payOperationId,
      attempts: { 'refund:pay_1': refundAttempt },
      cards: { pm_1: { brand: 'visa', last4: '4242' } },
    });
    // The choices come back; what was typed (amount, note) does not.
    expect(after.draft).toEqual({ currency: 'mxn', msi: true, channel: 'sms', guestLanguage: 'en-US' });
  });

  it('sessionStorage holds ids and choices only: no amount, no note, no decline message', () => {
    useCall.getState().reset();
    useCall.getState().openReservation('SJD-4X6Y9Z');
    useCall.getState().editDraft({ amount: '987.65', note: 'Nota para el folio 5512' });
    useCall.getState().declined({ code: 'card_declined', message: 'Declined by issuer 4000 0000 0000 0002' });
    const stored = sessionStorage.getItem(CALL_STORAGE_KEY) ?? '';
    expect(stored).toContain('SJD-4X6Y9Z');
    expect(stored).toContain('card_declined');
    for (const typed of ['987.65', 'Nota para el folio', 'Declined by issuer', '4000'])
      expect(stored).not.toContain(typed);
  });

  it('a reset (sign-out, another operator) empties it: a reload brings back no call', async () => {
    useCall.getState().openReservation('CUN-6B3D8F');
    useCall.getState().paymentStarted('pay_1');
    useCall.getState().reset();
    expect(sessionStorage.getItem(CALL_STORAGE_KEY)).not.toContain('CUN-6B3D8F');
    const after = (await reloaded()).getState();
    expect(after.reservationId).toBeUndefined();
    expect(after.paymentId).toBeUndefined();
  });
});
