// What a refund does to what a reservation owes, by its reason: the one rule main's balance applies.
import { describe, expect, it } from 'vitest';
import { owedAfterRefunds, REFUND_REASONS, refundEffect } from '../../../shared/payments';

/** An 899.99 MXN booking paid in full by one succeeded payment, then refunded in full for `reason`. */
const paidThenRefunded = (reason: string | undefined, status = 'succeeded', amountCents = 89_999) =>
  owedAfterRefunds({
    sourceBalanceCents: 89_999,
    takenCents: 89_999,
    succeededCents: 89_999,
    refunds: [{ reason, status, amountCents }],
  });

describe('refundEffect', () => {
  it('names an effect for every reason the service knows; an unknown or missing reason never reopens a debt', () => {
    expect(REFUND_REASONS.map((reason) => [reason, refundEffect(reason)])).toEqual([
      ['duplicate', 'settles'],
      ['fraudulent', 'reopens'],
      ['requested_by_customer', 'settles'],
      ['cancellation', 'closes'],
    ]);
    expect(refundEffect(undefined)).toBe('settles');
    expect(refundEffect('chargeback')).toBe('settles');
    expect(refundEffect('toString')).toBe('settles');
  });
});

describe('owedAfterRefunds', () => {
  it('a cancellation refunded in full closes the booking: nothing owed, nothing paid over', () => {
    expect(paidThenRefunded('cancellation')).toEqual({
      owedCents: 0,
      overpaidCents: 0,
      reopenedCents: 0,
      closed: true,
    });
  });

  it('a cancellation closes the booking even when the source still shows a balance and the refund is pending', () => {
    const result = owedAfterRefunds({
      sourceBalanceCents: 150_000,
      takenCents: 50_000,
      succeededCents: 50_000,
      refunds: [{ reason: 'cancellation', status: 'pending', amountCents: 30_000 }],
    });
    expect(result).toEqual({ owedCents: 0, overpaidCents: 0, reopenedCents: 0, closed: true });
  });

  it('a cancellation refund that failed closes nothing', () => {
    expect(paidThenRefunded('cancellation', 'failed')).toEqual({
      owedCents: 0,
      overpaidCents: 0,
      reopenedCents: 0,
      closed: false,
    });
    const partly = owedAfterRefunds({
      sourceBalanceCents: 100_000,
      takenCents: 40_000,
      succeededCents: 40_000,
      refunds: [{ reason: 'cancellation', status: 'failed', amountCents: 40_000 }],
    });
    expect(partly.owedCents).toBe(60_000);
  });

  it('a duplicate charge refunded takes the overpayment down and leaves nothing owed', () => {
    const twice = { sourceBalanceCents: 89_999, takenCents: 179_998, succeededCents: 179_998 };
    expect(owedAfterRefunds({ ...twice, refunds: [] })).toEqual({
      owedCents: 0,
      overpaidCents: 89_999,
      reopenedCents: 0,
      closed: false,
    });
    expect(
      owedAfterRefunds({ ...twice, refunds: [{ reason: 'duplicate', status: 'succeeded', amountCents: 89_999 }] }),
    ).toEqual({ owedCents: 0, overpaidCents: 0, reopenedCents: 0, closed: false });
    // Refunded as a duplicate though it was the only charge: still not owed again.
    expect(paidThenRefunded('duplicate')).toEqual({ owedCents: 0, overpaidCents: 0, reopenedCents: 0, closed: false });
  });

  it('a refund the guest asked for (goodwill) does not reopen the debt; a partial one leaves what was owed as it was', () => {
    expect(paidThenRefunded('requested_by_customer', 'succeeded', 20_000)).toEqual({
      owedCents: 0,
      overpaidCents: 0,
      reopenedCents: 0,
      closed: false,
    });
    const part = owedAfterRefunds({
      sourceBalanceCents: 100_000,
      takenCents: 60_000,
      succeededCents: 60_000,
      refunds: [{ reason: 'requested_by_customer', status: 'succeeded', amountCents: 10_000 }],
    });
    expect(part.owedCents).toBe(40_000);
  });

  it('a fraudulent charge refunded is owed again, once the refund succeeded', () => {
    expect(paidThenRefunded('fraudulent')).toEqual({
      owedCents: 89_999,
      overpaidCents: 0,
      reopenedCents: 89_999,
      closed: false,
    });
    // Pending, it may still fail: not owed yet.
    expect(paidThenRefunded('fraudulent', 'pending')).toEqual({
      owedCents: 0,
      overpaidCents: 0,
      reopenedCents: 0,
      closed: false,
    });
    // Without a known amount: owed reads low, never high.
    const unknown = owedAfterRefunds({
      sourceBalanceCents: 89_999,
      takenCents: 89_999,
      succeededCents: 89_999,
      refunds: [{ reason: 'fraudulent', status: 'succeeded', amountCents: undefined }],
    });
    expect(unknown.owedCents).toBe(0);
  });

  it('an unknown reason reads like a refund that settles', () => {
    expect(paidThenRefunded(undefined)).toEqual(paidThenRefunded('duplicate'));
    expect(paidThenRefunded('chargeback')).toEqual(paidThenRefunded('duplicate'));
  });

  it('what succeeded beyond the balance is paid over; a payment in progress is not, and a refund of unknown amount clears it', () => {
    // 11,999.90 charged on a 1,199.99 balance.
    const over = { sourceBalanceCents: 119_999, takenCents: 1_199_990, succeededCents: 1_199_990 };
    expect(owedAfterRefunds({ ...over, refunds: [] })).toEqual({
      owedCents: 0,
      overpaidCents: 1_079_991,
      reopenedCents: 0,
      closed: false,
    });
    expect(owedAfterRefunds({ ...over, succeededCents: 0, refunds: [] }).overpaidCents).toBe(0);
    expect(
      owedAfterRefunds({
        ...over,
        refunds: [{ reason: 'requested_by_customer', status: 'pending', amountCents: 1_079_991 }],
      }).overpaidCents,
    ).toBe(0);
    expect(
      owedAfterRefunds({ ...over, refunds: [{ reason: 'duplicate', status: 'succeeded', amountCents: undefined }] })
        .overpaidCents,
    ).toBe(0);
    expect(
      owedAfterRefunds({ ...over, refunds: [{ reason: 'duplicate', status: 'failed', amountCents: 1_079_991 }] })
        .overpaidCents,
    ).toBe(1_079_991);
    // The fraudulent overcharge refunded in full: the balance is owed again, nothing paid over.
    expect(
      owedAfterRefunds({ ...over, refunds: [{ reason: 'fraudulent', status: 'succeeded', amountCents: 1_199_990 }] }),
    ).toEqual({ owedCents: 119_999, overpaidCents: 0, reopenedCents: 1_199_990, closed: false });
  });
});
