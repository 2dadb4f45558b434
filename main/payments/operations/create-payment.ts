/**
 * Create a payment (POST /payments, flows A, B and D; MSI when `installments` is true). One payment at a time per
 * reservation: an earlier attempt still unanswered is sent again first, with its own key and payload. Answered, it is
 * the payment the agent gets (not a new one); still unanswered, the new one is refused. An operation is its money
 * fields: resumed with another note or by another operator, it is re-sent as first written.
 */
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { centsToWire, isFinalPayment } from '../../../shared/payments';
import type { PaymentView } from '../../../shared/ipc/views';
import type { CreatePaymentInput, RequestTrace } from '../client';
import { ServiceError } from '../errors';
import { reservationKey, type Journal, type Operation, type StoredPayment } from '../journal';
import { isPastWindow } from '../window';
import { moneyOf } from './attempt-view';
import { checkChargesAcknowledged } from './charges-acknowledged';
import type { PaymentContext } from './context';
import { checked, CreatePaymentBody, PayInput } from './inputs';
import { ABANDONABLE, isLive } from './rules';

export async function pay(
  ctx: PaymentContext,
  input: z.input<typeof PayInput>,
  trace: RequestTrace | undefined,
): Promise<PaymentView> {
  const { keepCard, ...parsed } = checked(PayInput, input);
  const payment = await createPayment(ctx, parsed, trace);
  // Kept only with the guest's consent, once the service made the payment with this card (a refusal keeps nothing).
  if (keepCard === true)
    await ctx.journal.keepMethod(
      payment.methodId,
      payment.reservationId,
      parsed.operatorId,
      new Date(ctx.now()).toISOString(),
    );
  return payment;
}

async function createPayment(
  ctx: PaymentContext,
  parsed: Omit<z.output<typeof PayInput>, 'keepCard'>,
  trace: RequestTrace | undefined,
): Promise<PaymentView> {
  const { journal } = ctx;
  const { operationId, operatorId, note, installments, amountCents, acknowledgedPaymentIds, ...rest } = parsed;
  const returnUrl = rest.returnUrl ?? ctx.deps.config.returnUrl;
  const body: CreatePaymentInput = {
    ...rest,
    ...(returnUrl === undefined ? {} : { returnUrl }),
    // At most two decimals on the wire, from the integer: never a fractional sum.
    amount: centsToWire(amountCents),
    ...(installments ? { installments: { required: true } } : {}),
    metadata: { agent: operatorId, ...(note ? { note } : {}) },
  };
  const id = operationId ?? randomUUID();
  const meta = { reservationId: rest.reservationId, operatorId, resendable: true };
  let abandonedRead = false;
  for (;;) {
    // Two calls at once (on this desk or two desks) may both find the reservation free: the journal's unique index on
    // the reservation's unanswered payment lets one begin; the other is decided again here, finding it.
    const existing = await journal.operation(id);
    if (existing) ctx.ledger.checkResumable(existing, 'create_payment', body);
    if (existing?.state === 'done' && existing.resultId)
      return ctx.told(await ctx.fetchAndStore(existing.resultId, trace));
    // A payment of the reservation still in progress (being charged, waiting for the cardholder or for a plan) has no
    // outcome yet: a new attempt waits for it, or for the agent to abandon it. Read again first: it may be over.
    // The reservation's payments, read once for both checks below (nothing is written between them).
    const payments = existing ? [] : await journal.paymentsOf(rest.reservationId);
    const live = payments.find(isLive);
    if (live) {
      const now = await ctx.fetchAndStore(live.id, trace).catch((error: unknown) => {
        if (error instanceof ServiceError) return live;
        throw error;
      });
      if (isFinalPayment(now.status) || (now.abandonedAt !== undefined && ABANDONABLE.has(now.status))) continue;
      await ctx.emit(now.id);
      throw new ServiceError('invalid_input', 'reservation_payment_in_progress', {
        params: { amountCents: now.amountCents, currency: now.currency },
      });
    }
    // An abandoned payment is only left to expire: its cardholder may still approve the old link. Read once what the
    // service now says of those still waiting; one being charged after all is in progress again (checked above).
    if (!existing && !abandonedRead) {
      abandonedRead = true;
      const waiting = payments.filter((p) => p.abandonedAt !== undefined && !isFinalPayment(p.status));
      if (waiting.length > 0) {
        await Promise.all(waiting.map((p) => ctx.fetchAndStore(p.id, trace).catch(() => undefined)));
        continue;
      }
    }
    if (!existing) await checkCardMayBeCharged(journal, rest.methodId, rest.reservationId);
    const earlier = (await unansweredPayments(ctx, rest.reservationId)).filter((op) => op.operationId !== id);
    // An attempt past the service's window may have charged: the reservation waits for a supervisor to resolve it.
    if (!existing) await refuseWhileUnresolved(journal, rest.reservationId);
    if (earlier.length === 0) {
      // Begun only if, once its row holds the reservation, no payment of it is in progress: another desk's payment
      // answered between the reads above (its row freed the reservation) is found here, and nothing is written.
      // In the same transaction, the reservation's charges of today must all be ones the agent was shown (two calls at
      // once read each other's committed payments here).
      const op =
        existing ??
        (await ctx.ledger.beginUnlessTaken(id, 'create_payment', body, meta, async (tx) => {
          if ((await livePayment(tx, rest.reservationId)) !== undefined) return true;
          if ((await tx.paymentOperationsOf(rest.reservationId, ['reconcile'])).length > 0) return true;
          if (acknowledgedPaymentIds !== undefined)
            await checkChargesAcknowledged(
              tx,
              rest.reservationId,
              acknowledgedPaymentIds,
              ctx.now(),
              ctx.deps.timeZone,
            );
          return false;
        }));
      // Another call began this operation, or another payment of the reservation, first: decided again with it.
      if (op === undefined) continue;
      return sendPayment(ctx, op, trace);
    }
    const answered = await finishEarlierPayments(ctx, earlier, trace);
    if (answered) return answered;
  }
}

/**
 * Sends a payment operation with its key and the payload as first written; kept: the payment (and `also`, in the
 * transaction of the answer: recover()'s notice for its operator). The payment is then followed.
 */
export async function sendPayment(
  ctx: PaymentContext,
  op: Operation,
  trace?: RequestTrace,
  also?: (journal: Journal, resultId: string) => Promise<void>,
): Promise<PaymentView> {
  const body = CreatePaymentBody.parse(op.payload);
  const payment = await ctx.ledger.run(
    op,
    (key) => ctx.client.createPayment(body, key, trace),
    async (p, journal) => {
      await journal.savePayment(p, { operatorId: op.operatorId });
      await also?.(journal, p.id);
      return p.id;
    },
  );
  ctx.poller.follow(payment.id, payment);
  return ctx.emit(payment.id);
}

/**
 * Sends this desk's earlier attempts again (each with its own key and payload). The payment one of them made, when
 * answered; undefined when every one was refused for good (nothing charged: the new one may go on). Still
 * unanswered: refused, the earlier payment named. Another desk's attempt is that desk's to send (now, or at its next
 * start; "check again" sends it from here on purpose): sent from here too, its own desk's answer could be "in
 * progress", so it is read, never sent, and while unanswered the new one is refused.
 */
async function finishEarlierPayments(
  ctx: PaymentContext,
  earlier: readonly Operation[],
  trace: RequestTrace | undefined,
): Promise<PaymentView | undefined> {
  for (const op of earlier) {
    if (op.deskId === ctx.journal.deskId) {
      await sendPayment(ctx, op, trace).catch((error: unknown) => {
        if (!(error instanceof ServiceError)) throw error;
      });
    }
    const now = (await ctx.journal.operation(op.operationId)) ?? op;
    if (now.state === 'done' && now.resultId) return ctx.emit(now.resultId);
    if (now.state === 'pending')
      throw new ServiceError('invalid_input', 'payment_unanswered', { params: moneyOf(now) });
  }
  return undefined;
}

/** A reservation's payment attempts still unanswered; one past 24 hours is marked for reconciliation instead (never re-sent). */
async function unansweredPayments(ctx: PaymentContext, reservationId: string): Promise<Operation[]> {
  const unanswered: Operation[] = [];
  for (const op of await ctx.journal.paymentOperationsOf(reservationId, ['pending'])) {
    if (!isPastWindow(op.createdAt, ctx.now())) unanswered.push(op);
    else await ctx.ledger.markForReconciliation(op);
  }
  return unanswered;
}

/** Refuses a new charge while an attempt of the reservation past the service's window is not resolved by a supervisor. */
async function refuseWhileUnresolved(journal: Journal, reservationId: string): Promise<void> {
  const [unresolved] = await journal.paymentOperationsOf(reservationId, ['reconcile']);
  if (unresolved === undefined) return;
  throw new ServiceError('invalid_input', 'payment_needs_reconciliation', { params: moneyOf(unresolved) });
}

/**
 * Saved cards by consent, whatever the screen offers: a card this desk tokenized is charged again only when the guest
 * agreed to keep it and it was never declined, and only for its own reservation. A card's first payment goes.
 */
async function checkCardMayBeCharged(journal: Journal, methodId: string, reservationId: string): Promise<void> {
  const method = await journal.method(methodId);
  if (!method) return;
  const used = await journal.paymentsOfMethod(methodId);
  const foreign = reservationKey(method.reservationId) !== reservationKey(reservationId);
  const declined = used.some((p) => p.status === 'failed');
  if (foreign || declined || (used.length > 0 && method.keptAt === undefined))
    throw new ServiceError('invalid_input', 'card_not_offered', { param: 'methodId' });
}

/**
 * The reservation's payment still in progress on the service, as last read: not over, and not abandoned while it
 * waited (one abandoned but approved by its cardholder after all is being charged: in progress again).
 */
async function livePayment(journal: Journal, reservationId: string): Promise<StoredPayment | undefined> {
  return (await journal.paymentsOf(reservationId)).find(isLive);
}
