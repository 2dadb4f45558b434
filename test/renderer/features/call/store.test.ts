// The call's store: one refund attempt id per slot until main answers it; the payment draft and when it goes; the lock screen forgets them.
import { describe, expect, it } from 'vitest';
import { useCall } from '../../../../renderer/src/features/call/store';

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
