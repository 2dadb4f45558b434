/** What the app is shown of the journal's payments and cards: the shared views, never card data beyond brand and last 4. */
import { refundableCents } from '../../shared/payments';
import type { MethodView, PaymentView } from '../../shared/ipc/views';
import type { StoredMethod, StoredPayment } from './journal';

/** A payment as the app shows it; `nextCheckAt`, when the engine will next read it while it is followed. */
export function paymentView(p: StoredPayment, nextCheckAt: number | undefined): PaymentView {
  return {
    id: p.id,
    reservationId: p.reservationId,
    status: p.status,
    amountCents: p.amountCents,
    originalAmountCents: p.originalAmountCents,
    currency: p.currency,
    methodId: p.methodId,
    availableInstallments: p.availableInstallments,
    installments: p.installments && {
      count: p.installments.count,
      perInstallmentCents: p.installments.perInstallmentCents,
    },
    // A 3DS link waits to be sent to the cardholder (the link itself stays in main).
    hasChallengeLink: p.status === 'requires_action' && p.nextActionUrl !== undefined,
    failure: p.failureCode === undefined ? undefined : { code: p.failureCode, message: p.failureMessage },
    refunds: p.refunds.map((r) => ({
      id: r.id,
      amountCents: r.amountCents,
      currency: r.currency,
      reason: r.reason,
      status: r.status,
      createdAt: r.createdAt,
    })),
    refundableCents: refundableCents(p) ?? 0,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
    expiresAt: p.expiresAt,
    nextCheckAt,
    abandonedAt: p.abandonedAt,
    brand: p.brand,
    last4: p.last4,
  };
}

export function methodView(m: StoredMethod): MethodView {
  return {
    id: m.id,
    brand: m.brand,
    last4: m.last4,
    expMonth: m.expMonth,
    expYear: m.expYear,
    expiresAt: m.expiresAt,
    createdAt: m.createdAt,
    keptBy: m.keptBy,
    keptAt: m.keptAt,
  };
}
