/** What the journal holds, as its callers read and write it: operations, payments, methods, refunds, notices, leases. */
export type OperationKind = 'tokenize' | 'create_payment' | 'refund';
/**
 * pending: written, answer not yet known. done / failed: the service answered (failed = a definitive
 * refusal). reconcile: unanswered for 24 h, needs a person. abandoned: cannot be re-sent (a
 * tokenization: the card is never kept) and charged nothing.
 */
export type OperationState = 'pending' | 'done' | 'failed' | 'reconcile' | 'abandoned';

/** How an operation ends: answered, refused for good, past the window, or closed without being sent. */
export type Settlement =
  | { state: 'done'; resultId: string; httpStatus: number }
  | { state: 'failed' | 'reconcile' | 'abandoned'; errorCode: string; httpStatus?: number };

export interface Operation {
  key: string;
  operationId: string;
  kind: OperationKind;
  fingerprint: string;
  /** The request body as it will be re-sent; for a tokenization, without the card number or CVV. */
  payload: unknown;
  resendable: boolean;
  state: OperationState;
  reservationId: string;
  operatorId: string;
  paymentId: string | undefined;
  resultId: string | undefined;
  errorCode: string | undefined;
  createdAt: number;
  /**
   * When it began by the service's clock (its Date header, read as early as it may be): what the service's 24-hour
   * window is measured from. Undefined when no answer of the service had been read yet, and for older operations.
   */
  serviceCreatedAt?: number | undefined;
  /** The desk that began it (its desk id): each desk recovers only its own. */
  deskId: string;
}

/** What recover() completed: a payment made or a refund made after a restart, for the operator who began it. */
export interface RecoveredNotice {
  id: string;
  kind: 'payment' | 'refund';
  operatorId: string;
  reservationId: string;
  paymentId: string;
  refundId: string | undefined;
  amountCents: number | undefined;
  currency: string;
  status: string;
  takenAt: number;
  completedAt: number;
  deskId: string;
}

export interface StoredMethod {
  id: string;
  reservationId: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  expiresAt: string | undefined;
  createdAt: string;
  /** The guest agreed to keep the card for later charges: the operator who said so, and when (ISO). */
  keptBy: string | undefined;
  keptAt: string | undefined;
}

export interface StoredRefund {
  id: string;
  paymentId: string;
  /** Undefined when the service listed the refund without an amount (and it was never seen with one). */
  amountCents: number | undefined;
  currency: string;
  reason: string | undefined;
  status: string;
  operatorId: string | undefined;
  createdAt: string | undefined;
  /** The desk that first wrote it (undefined for a refund written before desk ids). */
  deskId: string | undefined;
}

export interface PaymentFilter {
  reservationIds?: readonly string[];
  paymentId?: string;
  /** The key of a short reference (shortReferenceKey): the last 8 characters of the payment id, lower case. */
  shortReference?: string;
  last4?: string;
  operatorId?: string;
  createdFrom?: string;
  createdTo?: string;
  limit: number;
}

export interface StoredPayment {
  id: string;
  reservationId: string;
  operatorId: string | undefined;
  methodId: string;
  status: string;
  amountCents: number;
  originalAmountCents: number | undefined;
  currency: string;
  availableInstallments: number[];
  installments: { count: number; perInstallmentCents: number } | undefined;
  nextActionUrl: string | undefined;
  failureCode: string | undefined;
  failureMessage: string | undefined;
  metadata: Record<string, unknown>;
  createdAt: string;
  updatedAt: string | undefined;
  expiresAt: string | undefined;
  refunds: StoredRefund[];
  /** The agent abandoned it while in progress (it is left to expire on the service): who, and when (ISO). */
  abandonedBy: string | undefined;
  abandonedAt: string | undefined;
  /** The desk where it was taken (the first desk that wrote it). */
  deskId: string;
  /** The desk where it was abandoned (its alert goes there when it succeeds after all). */
  abandonedDeskId: string | undefined;
  /** Its card's brand and last 4 (the method as tokenized at a desk of the center); undefined when no desk holds it. */
  brand: string | undefined;
  last4: string | undefined;
}

/** Who holds a payment's lease now (another desk, or this desk's other window): a change of it waits for theirs. */
export interface LeaseHolder {
  deskId: string;
  operatorId: string;
}

/** What a unique index of the journal refused: the same operation begun twice, or one of the center's money rules. */
export type JournalConflict = 'operation_exists' | 'payment_unanswered' | 'refund_in_flight';
