/** A payment attempt whose answer is not known, as the screens show it: its amount, its card, how old it is. */
import { centsFromWire, formatMoney } from '../../../shared/payments';
import type { PendingPaymentView } from '../../../shared/ipc/views';
import type { Journal, Operation } from '../journal';
import { CreatePaymentBody } from './inputs';

export async function pendingView(journal: Journal, op: Operation, now: number): Promise<PendingPaymentView> {
  const body = CreatePaymentBody.parse(op.payload);
  const method = (await journal.methodsOf(op.reservationId)).find((m) => m.id === body.methodId);
  return {
    operationId: op.operationId,
    reservationId: op.reservationId,
    amountCents: centsFromWire(body.amount),
    currency: body.currency,
    installments: body.installments?.required === true,
    methodId: body.methodId,
    ...(method ? { brand: method.brand, last4: method.last4 } : {}),
    startedAt: new Date(op.createdAt).toISOString(),
    // By the engine's clock, as the attempt was stamped: the screen's escalation never reads the desk's wall clock.
    ageSeconds: Math.max(0, Math.floor((now - op.createdAt) / 1000)),
    state: op.state === 'reconcile' ? 'reconcile' : 'unanswered',
  };
}

/** An unanswered payment attempt's amount, as an error's params. */
export function moneyOf(op: Operation): { amountCents: number; currency: string } | undefined {
  const body = CreatePaymentBody.safeParse(op.payload);
  return body.success ? { amountCents: centsFromWire(body.data.amount), currency: body.data.currency } : undefined;
}

/** An attempt's amount in words, for the check's answer (PaymentCheck's `message`). */
export function amountOf(op: Operation): string {
  const body = CreatePaymentBody.parse(op.payload);
  return formatMoney(centsFromWire(body.amount), body.currency);
}

export const unansweredMessage = (op: Operation): string => {
  const body = CreatePaymentBody.safeParse(op.payload);
  const amount = body.success ? formatMoney(centsFromWire(body.data.amount), body.data.currency) : 'this reservation';
  return `The earlier payment of ${amount} has no answer yet; it is being checked — do not charge again.`;
};
