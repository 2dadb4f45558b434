// The money is right before it moves, through the real door: a charge is in the reservation's currency, and a charge
// above what the reservation still owes (as main computes it now, the overview's balance) carries the agent's
// confirmation naming both amounts, or main refuses it and nothing is sent to the service. A retry of a charge already
// begun (its answer lost) is that same charge: its own amount now counts as taken, and the same confirmation still holds.
// A new attempt while an earlier one is unanswered gets what the engine makes of the earlier one (its payment, or
// payment_unanswered), never an over-balance refusal that counts the earlier attempt as taken.
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS } from '../../../main/payments/client';
import type { Output } from '../../../shared/ipc';
import { AGENT, openDesk, SUPERVISOR, type Desk } from './desk-kit';

// Sofía Núñez Ortega, 12,450.00 MXN due; Mónica Zúñiga Olvera, 1,199.99 MXN due (main/reservations/demo.ts).
const SOFIA = 'CUN-7F3K2A';
const MONICA = 'PCM-5P7R2S';
// One extra digit keyed: 11,999.90 on a balance of 1,199.99.
const TYPO = 1_199_990;

let desk: Desk;
beforeEach(async () => {
  desk = await openDesk();
  await desk.signIn(AGENT);
});
afterEach(async () => {
  await desk.close();
});

const overview = (reservationId: string) =>
  desk.ok<Output<'reservations:overview'>>('reservations:overview', { reservationId });
const charge = (
  reservationId: string,
  methodId: string,
  amountCents: number,
  currency: string,
  more: Record<string, unknown> = {},
) => ({
  operationId: randomUUID(),
  methodId,
  amountCents,
  currency,
  reservationId,
  ...more,
});

describe('payments:pay in another currency than the reservation', () => {
  it('is refused, naming both currencies, and nothing is charged', async () => {
    const methodId = await desk.card(SOFIA);
    const refused = await desk.refused('payments:pay', charge(SOFIA, methodId, 1_245_000, 'usd'));
    expect(refused).toMatchObject({
      code: 'currency_not_reservation',
      field: 'currency',
      params: { currency: 'USD', reservationCurrency: 'MXN' },
    });
    const after = await overview(SOFIA);
    expect(after.payments).toEqual([]);
    expect(after.pendingPayments).toEqual([]);
    expect(after.balance?.owedCents).toBe(1_245_000);
  });

  it('in the reservation’s own currency is charged', async () => {
    const paid = await desk.ok<Output<'payments:pay'>>(
      'payments:pay',
      charge(SOFIA, await desk.card(SOFIA), 1_245_000, 'mxn'),
    );
    expect(paid).toMatchObject({ amountCents: 1_245_000, currency: 'mxn' });
  });
});

describe('payments:pay on a reservation its source does not know', () => {
  // The journal keys a reservation as the lookup does (case, dashes, spaces ignored): a number the source does not list
  // would otherwise go unchecked and still count on the reservation it resembles.
  it.each(['CUN7F3K2A', 'CUN 7F3K2A', 'NOPE-000000'])(
    '%s is refused, naming the reservation field, and nothing is charged',
    async (reservationId) => {
      const methodId = await desk.card(reservationId);
      const refused = await desk.refused('payments:pay', charge(reservationId, methodId, 9_999_999, 'usd'));
      expect(refused).toMatchObject({ code: 'reservation_unknown', field: 'reservationId' });
      const after = await overview(SOFIA);
      expect(after.payments).toEqual([]);
      expect(after.balance?.chargedToday).toEqual([]);
      expect((await overview(reservationId)).payments).toEqual([]);
    },
  );

  it('in another case than the source’s is the same reservation, checked as such', async () => {
    const refused = await desk.refused(
      'payments:pay',
      charge('cun-7f3k2a', await desk.card('cun-7f3k2a'), 1_245_000, 'usd'),
    );
    expect(refused).toMatchObject({ code: 'currency_not_reservation' });
  });
});

describe('payments:pay above what the reservation still owes', () => {
  it('without a confirmation is refused with both amounts, and nothing is charged', async () => {
    const methodId = await desk.card(MONICA);
    const refused = await desk.refused('payments:pay', charge(MONICA, methodId, TYPO, 'mxn'));
    expect(refused).toMatchObject({
      code: 'over_balance_not_confirmed',
      field: 'amountCents',
      params: { owedCents: 119_999, amountCents: TYPO, currency: 'mxn' },
    });
    const after = await overview(MONICA);
    expect(after.payments).toEqual([]);
    expect(after.pendingPayments).toEqual([]);
  });

  it('with a confirmation of another owed amount or another amount (stale) is refused', async () => {
    const methodId = await desk.card(MONICA);
    const staleOwed = await desk.refused(
      'payments:pay',
      charge(MONICA, methodId, TYPO, 'mxn', { overBalance: { owedCents: 120_000, amountCents: TYPO } }),
    );
    expect(staleOwed).toMatchObject({
      code: 'over_balance_not_confirmed',
      params: { owedCents: 119_999, amountCents: TYPO, currency: 'mxn' },
    });
    const otherAmount = await desk.refused(
      'payments:pay',
      charge(MONICA, methodId, TYPO, 'mxn', { overBalance: { owedCents: 119_999, amountCents: 1_199_900 } }),
    );
    expect(otherAmount).toMatchObject({
      code: 'over_balance_not_confirmed',
      params: { owedCents: 119_999, amountCents: TYPO },
    });
    expect((await overview(MONICA)).payments).toEqual([]);
  });

  it('once the owed amount changed since the screen showed it, the old confirmation is refused', async () => {
    const first = await desk.ok<Output<'payments:pay'>>(
      'payments:pay',
      charge(MONICA, await desk.card(MONICA), 20_000, 'mxn'),
    );
    await desk.until(first.id, (s) => s === 'succeeded');
    const refused = await desk.refused(
      'payments:pay',
      charge(MONICA, await desk.card(MONICA), 150_000, 'mxn', {
        overBalance: { owedCents: 119_999, amountCents: 150_000 },
      }),
    );
    expect(refused).toMatchObject({
      code: 'over_balance_not_confirmed',
      params: { owedCents: 99_999, amountCents: 150_000 },
    });
  });

  it('with the confirmation naming what is owed now and the amount is charged, and the trail records the confirmation', async () => {
    const paid = await desk.ok<Output<'payments:pay'>>(
      'payments:pay',
      charge(MONICA, await desk.card(MONICA), TYPO, 'mxn', { overBalance: { owedCents: 119_999, amountCents: TYPO } }),
    );
    expect(paid).toMatchObject({ amountCents: TYPO, currency: 'mxn' });
    await desk.signIn(SUPERVISOR);
    const { rows } = await desk.ok<Output<'audit:list'>>('audit:list', { action: 'payment.create' });
    const row = rows.find((r) => r.action === 'payment.create' && r.resource === paid.id);
    expect(row?.details).toMatchObject({
      amountCents: TYPO,
      overBalanceOwedCents: 119_999,
      overBalanceAmountCents: TYPO,
    });
  });

  it('at or below what is owed needs no confirmation', async () => {
    const paid = await desk.ok<Output<'payments:pay'>>(
      'payments:pay',
      charge(MONICA, await desk.card(MONICA), 119_999, 'mxn'),
    );
    expect(paid).toMatchObject({ amountCents: 119_999 });
  });

  it('its answer lost, the same charge tried again (same operation, same confirmation) is accepted: one key, one payment', async () => {
    const methodId = await desk.card(MONICA);
    const input = charge(MONICA, methodId, TYPO, 'mxn', { overBalance: { owedCents: 119_999, amountCents: TYPO } });
    await desk.simulator().fault('POST /payments', 'drop_after_commit', MAX_ATTEMPTS);
    expect(await desk.refused('payments:pay', input)).toMatchObject({ code: 'network_error' });
    // The unanswered attempt now holds the balance: nothing is owed by main's count.
    const between = await overview(MONICA);
    expect(between.balance?.owedCents).toBe(0);
    expect(between.pendingPayments).toHaveLength(1);

    const again = await desk.ok<Output<'payments:pay'>>('payments:pay', input);
    expect(again).toMatchObject({ amountCents: TYPO, currency: 'mxn' });
    const after = await overview(MONICA);
    expect(after.payments.map((p) => p.id)).toEqual([again.id]);
    expect(after.pendingPayments).toEqual([]);
    // A new charge is a new operation: it is checked against what is owed now.
    const next = await desk.refused(
      'payments:pay',
      charge(MONICA, await desk.card(MONICA), 100, 'mxn', { acknowledgedPaymentIds: [again.id] }),
    );
    expect(next).toMatchObject({ code: 'over_balance_not_confirmed', params: { owedCents: 0, amountCents: 100 } });
  });
});

describe('payments:updateAmount of an MSI payment above what the reservation owes besides it', () => {
  it('is refused without a confirmation of both amounts, and goes with one; a lower amount needs none', async () => {
    const methodId = await desk.card(MONICA, '4000004840000008');
    const payment = await desk.ok<Output<'payments:pay'>>(
      'payments:pay',
      charge(MONICA, methodId, 119_999, 'mxn', { installments: true }),
    );
    expect(payment.status).toBe('pending_confirmation');
    const refused = await desk.refused('payments:updateAmount', { paymentId: payment.id, amountCents: TYPO });
    expect(refused).toMatchObject({
      code: 'over_balance_not_confirmed',
      field: 'amountCents',
      params: { owedCents: 119_999, amountCents: TYPO, currency: 'mxn' },
    });
    const stale = await desk.refused('payments:updateAmount', {
      paymentId: payment.id,
      amountCents: TYPO,
      overBalance: { owedCents: 0, amountCents: TYPO },
    });
    expect(stale).toMatchObject({ code: 'over_balance_not_confirmed' });
    expect(await desk.ok<Output<'payments:get'>>('payments:get', { paymentId: payment.id })).toMatchObject({
      amountCents: 119_999,
    });

    const lower = await desk.ok<Output<'payments:updateAmount'>>('payments:updateAmount', {
      paymentId: payment.id,
      amountCents: 100_000,
    });
    expect(lower.amountCents).toBe(100_000);
    const confirmed = await desk.ok<Output<'payments:updateAmount'>>('payments:updateAmount', {
      paymentId: payment.id,
      amountCents: TYPO,
      overBalance: { owedCents: 119_999, amountCents: TYPO },
    });
    expect(confirmed.amountCents).toBe(TYPO);
  });
});

describe('payments:pay as a new attempt while an earlier one of the reservation has no answer', () => {
  // The engine sends the earlier attempt again first: answered, its payment is the one the agent gets; still unanswered,
  // the new one is refused as payment_unanswered. The door's check of what is owed must not refuse it before that.
  const lost = async (input: ReturnType<typeof charge>): Promise<void> => {
    await desk.simulator().fault('POST /payments', 'drop_after_commit', MAX_ATTEMPTS);
    expect(await desk.refused('payments:pay', input)).toMatchObject({ code: 'network_error' });
  };

  it('of what is owed, gets the earlier attempt’s payment once it is answered: one payment', async () => {
    const methodId = await desk.card(MONICA);
    await lost(charge(MONICA, methodId, 119_999, 'mxn'));
    const next = await desk.ok<Output<'payments:pay'>>('payments:pay', charge(MONICA, methodId, 119_999, 'mxn'));
    expect(next).toMatchObject({ amountCents: 119_999, currency: 'mxn' });
    const after = await overview(MONICA);
    expect(after.payments.map((p) => p.id)).toEqual([next.id]);
    expect(after.pendingPayments).toEqual([]);
  });

  it('above what is owed, confirmed as the form showed it, gets the earlier attempt’s payment: one payment', async () => {
    const methodId = await desk.card(MONICA);
    const confirmed = { overBalance: { owedCents: 119_999, amountCents: TYPO } };
    await lost(charge(MONICA, methodId, TYPO, 'mxn', confirmed));
    const next = await desk.ok<Output<'payments:pay'>>(
      'payments:pay',
      charge(MONICA, methodId, TYPO, 'mxn', confirmed),
    );
    expect(next).toMatchObject({ amountCents: TYPO, currency: 'mxn' });
    expect((await overview(MONICA)).payments.map((p) => p.id)).toEqual([next.id]);
  });

  it('still unanswered, is refused as payment_unanswered naming the earlier attempt, nothing charged', async () => {
    const methodId = await desk.card(MONICA);
    await lost(charge(MONICA, methodId, 119_999, 'mxn'));
    await desk.simulator().fault('POST /payments', 'error_503', 10 * MAX_ATTEMPTS);
    const refused = await desk.refused('payments:pay', charge(MONICA, methodId, 119_999, 'mxn'));
    expect(refused).toMatchObject({ code: 'payment_unanswered', params: { amountCents: 119_999, currency: 'mxn' } });
  });
});

describe('payments:updateAmount above what is owed, confirmed, its answer lost', () => {
  it('tried again with the same confirmation is accepted: the payment’s own new amount is not counted against it', async () => {
    const methodId = await desk.card(MONICA, '4000004840000008');
    const payment = await desk.ok<Output<'payments:pay'>>(
      'payments:pay',
      charge(MONICA, methodId, 119_999, 'mxn', { installments: true }),
    );
    const update = { paymentId: payment.id, amountCents: TYPO, overBalance: { owedCents: 119_999, amountCents: TYPO } };
    await desk.simulator().fault('PATCH /payments/{id}', 'drop_after_commit', 1);
    await desk.call('payments:updateAmount', update);
    const again = await desk.ok<Output<'payments:updateAmount'>>('payments:updateAmount', update);
    expect(again.amountCents).toBe(TYPO);
  });
});
