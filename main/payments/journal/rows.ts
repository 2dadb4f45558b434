/** Rows as the journal's callers read them: a row of each table mapped to its stored shape. */
import type { MethodRecord, OperationRecord, PaymentRecord, RecoveredRecord, RefundRecord } from './tables';
import type { Operation, RecoveredNotice, StoredMethod, StoredPayment, StoredRefund } from './types';

export const cents = (amount: number): number => Math.round(amount * 100);

export const opt = <T>(v: T | null): T | undefined => (v === null ? undefined : v);

export function toPayment(
  row: PaymentRecord,
  refunds: StoredRefund[],
  deskId: string,
  card: { brand: string; last4: string } | undefined,
): StoredPayment {
  return {
    id: row.id,
    reservationId: row.reservation_id,
    operatorId: opt(row.operator_id),
    methodId: row.method_id,
    status: row.status,
    amountCents: Number(row.amount_cents),
    originalAmountCents: row.original_amount_cents === null ? undefined : Number(row.original_amount_cents),
    currency: row.currency,
    availableInstallments: JSON.parse(row.available_installments) as number[],
    installments:
      row.installments_count === null || row.per_installment_cents === null
        ? undefined
        : { count: row.installments_count, perInstallmentCents: Number(row.per_installment_cents) },
    nextActionUrl: opt(row.next_action_url),
    failureCode: opt(row.failure_code),
    failureMessage: opt(row.failure_message),
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    createdAt: row.created_at,
    updatedAt: opt(row.updated_at),
    expiresAt: opt(row.expires_at),
    refunds,
    abandonedBy: opt(row.abandoned_by),
    abandonedAt: opt(row.abandoned_at),
    deskId: row.desk_id ?? deskId,
    abandonedDeskId: opt(row.abandoned_desk_id) ?? (row.abandoned_at === null ? undefined : (row.desk_id ?? deskId)),
    brand: card?.brand,
    last4: card?.last4,
  };
}

export function toRefund(r: RefundRecord): StoredRefund {
  return {
    id: r.id,
    paymentId: r.payment_id,
    amountCents: r.amount_cents === null ? undefined : Number(r.amount_cents),
    currency: r.currency,
    reason: opt(r.reason),
    status: r.status,
    operatorId: opt(r.operator_id),
    createdAt: opt(r.created_at),
    deskId: opt(r.desk_id),
  };
}

export function toOperation(row: OperationRecord, deskId: string): Operation {
  return {
    key: row.key,
    operationId: row.operation_id,
    kind: row.kind,
    fingerprint: row.fingerprint,
    payload: JSON.parse(row.payload) as unknown,
    resendable: Number(row.resendable) === 1,
    state: row.state,
    reservationId: row.reservation_id,
    operatorId: row.operator_id,
    paymentId: opt(row.payment_id),
    resultId: opt(row.result_id),
    errorCode: opt(row.error_code),
    createdAt: Number(row.created_at),
    serviceCreatedAt: row.service_created_at === null ? undefined : Number(row.service_created_at),
    deskId: row.desk_id ?? deskId,
  };
}

export const toRecovered = (r: RecoveredRecord): RecoveredNotice => ({
  id: r.operation_id,
  kind: r.kind,
  operatorId: r.operator_id,
  reservationId: r.reservation_id,
  paymentId: r.payment_id,
  refundId: opt(r.refund_id),
  amountCents: r.amount_cents === null ? undefined : Number(r.amount_cents),
  currency: r.currency,
  status: r.status,
  takenAt: Number(r.taken_at),
  completedAt: Number(r.completed_at),
  deskId: r.desk_id,
});

export const toMethod = (m: MethodRecord): StoredMethod => ({
  id: m.id,
  reservationId: m.reservation_id,
  brand: m.brand,
  last4: m.last4,
  expMonth: m.exp_month,
  expYear: m.exp_year,
  expiresAt: opt(m.expires_at),
  createdAt: m.created_at,
  keptBy: opt(m.kept_by),
  keptAt: opt(m.kept_at),
});
