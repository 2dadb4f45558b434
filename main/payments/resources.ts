/** The service's resources as the engine reads them: known fields checked, unknown fields and statuses tolerated. */
import { z } from 'zod';

/** The six statuses of the spec (§3); the service may one day send others, which are tolerated. */
export const PAYMENT_STATUSES = ['pending_confirmation', 'processing', 'requires_action', 'succeeded', 'failed', 'expired'] as const;
export const TERMINAL_STATUSES = ['succeeded', 'failed', 'expired'] as const;

export const MethodResource = z.looseObject({
  id: z.string().min(1),
  type: z.string(),
  card: z.looseObject({
    last4: z.string(),
    brand: z.string(),
    expMonth: z.number().int(),
    expYear: z.number().int(),
  }),
  createdAt: z.string(),
  expiresAt: z.string().optional(),
});
export type MethodResource = z.infer<typeof MethodResource>;

export const RefundResource = z.looseObject({
  id: z.string().min(1),
  paymentId: z.string().optional(),
  /** pending, succeeded, failed — or a status this app does not know yet. */
  status: z.string(),
  amount: z.number(),
  currency: z.string(),
  reason: z.string().optional(),
  createdAt: z.string().optional(),
});
export type RefundResource = z.infer<typeof RefundResource>;

export const PaymentResource = z.looseObject({
  id: z.string().min(1),
  /** One of the six statuses of the spec, or one this app does not know yet. */
  status: z.string(),
  amount: z.number(),
  originalAmount: z.number().optional(),
  currency: z.string(),
  methodId: z.string(),
  reservationId: z.string(),
  availableInstallments: z.array(z.number().int()).optional(),
  installments: z.looseObject({ count: z.number().int(), perInstallment: z.number() }).optional(),
  nextAction: z.looseObject({ type: z.string().optional(), url: z.string() }).optional(),
  failure: z.looseObject({ code: z.string(), message: z.string().optional() }).optional(),
  refunds: z.array(RefundResource).default([]),
  metadata: z.record(z.string(), z.unknown()).default({}),
  createdAt: z.string(),
  updatedAt: z.string().optional(),
  expiresAt: z.string().optional(),
});
export type PaymentResource = z.infer<typeof PaymentResource>;

export const isTerminal = (status: string): boolean => (TERMINAL_STATUSES as readonly string[]).includes(status);
