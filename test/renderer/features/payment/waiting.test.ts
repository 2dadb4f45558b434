// The live panel's and the result's words about time and ids: elapsed time, what is owed (the short reference is
// shared/payments', tested with the receipt in test/main/app/receipt.test.ts), and which
// payment in progress the panel takes up.
import { describe, expect, it } from 'vitest';
import type { LivePaymentView, PaymentView } from '../../../../shared/ipc/views';
import {
  elapsedText,
  inProgressCents,
  livePaymentOf,
  owedCents,
  secondsSince,
} from '../../../../renderer/src/features/payment/waiting';

const live = (paymentId: string): LivePaymentView => ({
  paymentId,
  state: 'waiting_for_cardholder',
  amountCents: 98000,
  currency: 'usd',
  availableInstallments: [],
  startedAt: '2026-06-15T10:40:00Z',
  waitingSince: '2026-06-15T10:40:05Z',
});

describe('elapsed time', () => {
  it('counts whole seconds since the instant, as mm:ss, never below zero', () => {
    const since = '2026-06-15T10:40:05Z';
    expect(secondsSince(since, Date.parse(since) + 83_900)).toBe(83);
    expect(elapsedText(83)).toBe('01:23');
    expect(elapsedText(75 * 60 + 3)).toBe('75:03');
    expect(secondsSince(since, Date.parse(since) - 5_000)).toBe(0);
    expect(secondsSince('not a date', 0)).toBe(0);
  });
});

describe('owedCents', () => {
  it('is main’s count when it has one, else the reservation’s own balance', () => {
    expect(owedCents({ balanceDueCents: 98000 }, undefined)).toBe(98000);
    expect(
      owedCents(
        { balanceDueCents: 98000 },
        {
          sourceBalanceCents: 98000,
          takenCents: 25000,
          refundedCents: 0,
          reopenedCents: 0,
          owedCents: 73000,
          overpaidCents: 0,
          closed: false,
          currency: 'usd',
          chargedToday: [],
        },
      ),
    ).toBe(73000);
  });

  it('gives back a payment main still counted in progress that this desk knows ended unpaid', () => {
    const balance = {
      sourceBalanceCents: 98000,
      takenCents: 98000,
      refundedCents: 0,
      reopenedCents: 0,
      owedCents: 0,
      overpaidCents: 0,
      closed: false,
      currency: 'usd',
      chargedToday: [],
    };
    const known =
      (status: string, extra: Partial<PaymentView> = {}) =>
      (): PaymentView =>
        ({ status, ...extra }) as PaymentView;
    expect(owedCents({ balanceDueCents: 98000 }, balance, [live('pay_1')], known('failed'))).toBe(98000);
    expect(
      owedCents(
        { balanceDueCents: 98000 },
        balance,
        [live('pay_1')],
        known('requires_action', { abandonedAt: '2026-06-15T10:41:00Z' }),
      ),
    ).toBe(98000);
    expect(owedCents({ balanceDueCents: 98000 }, balance, [live('pay_1')], known('succeeded'))).toBe(0);
    expect(owedCents({ balanceDueCents: 98000 }, balance, [live('pay_1')], known('requires_action'))).toBe(0);
    expect(owedCents({ balanceDueCents: 98000 }, balance, [live('pay_1')])).toBe(0);
  });

  it('fills nothing once a cancellation closed the booking, and at most what a fraudulent refund made owed again', () => {
    const known = () => ({ status: 'failed' }) as PaymentView;
    const closed = {
      sourceBalanceCents: 98000,
      takenCents: 98000,
      refundedCents: 98000,
      reopenedCents: 0,
      owedCents: 0,
      overpaidCents: 0,
      closed: true,
      currency: 'usd',
      chargedToday: [],
    };
    expect(owedCents({ balanceDueCents: 98000 }, closed, [live('pay_1')], known)).toBe(0);
    const reopened = {
      ...closed,
      takenCents: 196000,
      refundedCents: 98000,
      reopenedCents: 98000,
      owedCents: 0,
      closed: false,
    };
    expect(owedCents({ balanceDueCents: 98000 }, reopened, [live('pay_1')], known)).toBe(98000);
  });
});

describe('livePaymentOf', () => {
  it('takes the first payment in progress not already known finished or abandoned', () => {
    const known = new Map<string, Partial<PaymentView>>([
      ['pay_done', { status: 'succeeded' }],
      ['pay_left', { status: 'requires_action', abandonedAt: '2026-06-15T10:41:00Z' }],
      ['pay_waiting', { status: 'requires_action' }],
    ]);
    const lookup = (id: string): PaymentView | undefined => known.get(id) as PaymentView | undefined;
    expect(livePaymentOf([live('pay_done'), live('pay_left'), live('pay_waiting')], lookup)?.paymentId).toBe(
      'pay_waiting',
    );
    expect(livePaymentOf([live('pay_unread')], lookup)?.paymentId).toBe('pay_unread');
    expect(livePaymentOf([live('pay_done')], lookup)).toBeUndefined();
  });
});

describe('inProgressCents', () => {
  const balance = {
    sourceBalanceCents: 98000,
    takenCents: 98000,
    refundedCents: 0,
    reopenedCents: 0,
    owedCents: 0,
    overpaidCents: 0,
    closed: false,
    currency: 'usd',
    chargedToday: [],
  };
  it('adds the payments in progress and the unanswered attempts in the balance’s currency', () => {
    const pending = {
      operationId: 'op',
      reservationId: 'CUN-6B3D8F',
      amountCents: 5000,
      currency: 'usd',
      installments: false,
      methodId: 'mth',
      startedAt: '2026-06-15T10:40:00Z',
      ageSeconds: 60,
    };
    expect(
      inProgressCents(
        balance,
        [live('pay_a'), { ...live('pay_b'), currency: 'mxn' }],
        [
          { ...pending, state: 'unanswered' },
          { ...pending, state: 'reconcile' },
        ],
      ),
    ).toBe(103000);
  });
  it('is nothing without main’s balance or anything in progress', () => {
    expect(inProgressCents(undefined, [live('pay_a')])).toBe(0);
    expect(inProgressCents(balance)).toBe(0);
  });
});
