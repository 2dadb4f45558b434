/** What the journal and the service say of payments, for the screens: read, kept, and the listeners told. */
import { PaymentId, ReservationId, isFinalPayment, isFinalRefund } from '../../../shared/payments';
import type { MethodView, PaymentView, PendingPaymentView } from '../../../shared/ipc/views';
import type { RequestTrace } from '../client';
import type { PaymentFilter } from '../journal';
import { methodView } from '../view-projection';
import { pendingView } from './attempt-view';
import { chargesToAcknowledge, chargeToday, recoveredPaymentIds, type ChargeToday } from './charges-acknowledged';
import type { PaymentContext } from './context';
import { checked } from './inputs';
import { abandonedError } from './rules';

export interface ReservationPayments {
  payments: PaymentView[];
  methods: MethodView[];
  pendingPayments: PendingPaymentView[];
  chargedToday: ChargeToday[];
}

export type SearchedPayment = PaymentView & {
  brand: string | undefined;
  last4: string | undefined;
  operatorId: string | undefined;
  deskId: string;
};

/** GET /payments/{id}: the service's word, kept in the journal; every listener is told of it as the journal holds it. */
export async function getPayment(ctx: PaymentContext, paymentId: string, trace?: RequestTrace): Promise<PaymentView> {
  return ctx.told(await ctx.fetchAndStore(checked(PaymentId, paymentId), trace));
}

/** A payment as the journal holds it now, without asking the service or telling the listeners. */
export async function stored(ctx: PaymentContext, paymentId: string): Promise<PaymentView | undefined> {
  const payment = await ctx.journal.payment(paymentId);
  if (payment) await ctx.lateSuccesses.notice(payment);
  return payment && ctx.view(payment);
}

/** Makes sure the payment is followed until settled; its changes reach every listener. */
export async function follow(ctx: PaymentContext, paymentId: string): Promise<string> {
  const id = checked(PaymentId, paymentId);
  const payment = await ctx.journal.payment(id);
  if (!payment || !isFinalPayment(payment.status) || payment.refunds.some((r) => !isFinalRefund(r.status)))
    ctx.poller.follow(id);
  return id;
}

/** The 3DS link of a payment waiting for the cardholder; none once abandoned (refused). */
export async function challengeLink(ctx: PaymentContext, paymentId: string): Promise<string | undefined> {
  const payment = await ctx.journal.payment(checked(PaymentId, paymentId));
  if (payment?.abandonedAt !== undefined) throw abandonedError();
  return payment?.status === 'requires_action' ? payment.nextActionUrl : undefined;
}

/**
 * What the journal knows of a reservation: its payments, its saved cards, and payment attempts whose outcome is not
 * known. A saved card is one the guest agreed to keep (`payments:pay` with `keepCard`) and that was never declined:
 * every other card tokenized for the reservation served its one payment and is not offered again.
 */
export async function listReservation(ctx: PaymentContext, reservationId: string): Promise<ReservationPayments> {
  const { journal } = ctx;
  const id = checked(ReservationId, reservationId);
  const payments = await journal.paymentsOf(id);
  const declined = new Set(payments.filter((p) => p.status === 'failed').map((p) => p.methodId));
  const pending = await journal.paymentOperationsOf(id, ['pending', 'reconcile']);
  const recovered = await recoveredPaymentIds(journal, id);
  return {
    payments: payments.map((p) => ctx.view(p)),
    methods: (await journal.methodsOf(id)).filter((m) => m.keptAt !== undefined && !declined.has(m.id)).map(methodView),
    pendingPayments: await Promise.all(pending.map((op) => pendingView(journal, op, ctx.now()))),
    chargedToday: chargesToAcknowledge(payments, recovered, ctx.now(), ctx.deps.timeZone).map(chargeToday),
  };
}

/** The journal's payments for the supervisor's search, newest first, with the card's brand and last 4 and the agent. */
export async function search(ctx: PaymentContext, filter: PaymentFilter): Promise<SearchedPayment[]> {
  return (await ctx.journal.searchPayments(filter)).map((p) => ({
    ...ctx.view(p),
    brand: p.brand,
    last4: p.last4,
    operatorId: p.operatorId,
    deskId: p.deskId,
  }));
}
