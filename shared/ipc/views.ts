// What main may send the renderer about payments: brand and last 4 at most, never a card number, secret or token.
import { z } from 'zod';

export const RefundView = z.object({
  id: z.string(),
  /** Absent when the service listed the refund without an amount. */
  amount: z.number().optional(),
  currency: z.string(),
  reason: z.string().optional(),
  status: z.string(),
  createdAt: z.string().optional(),
});

export const PaymentView = z.object({
  id: z.string(),
  reservationId: z.string(),
  status: z.string(),
  amount: z.number(),
  originalAmount: z.number().optional(),
  currency: z.string(),
  methodId: z.string(),
  availableInstallments: z.array(z.number().int()),
  installments: z.object({ count: z.number().int(), perInstallment: z.number() }).optional(),
  /** The 3DS link, to be sent to the cardholder; the app never opens it. */
  nextActionUrl: z.string().optional(),
  failure: z.object({ code: z.string(), message: z.string().optional() }).optional(),
  refunds: z.array(RefundView),
  refundable: z.number(),
  createdAt: z.string(),
  updatedAt: z.string().optional(),
  expiresAt: z.string().optional(),
  nextCheckAt: z.number().optional(),
});
export type PaymentView = z.infer<typeof PaymentView>;

export const MethodView = z.object({
  id: z.string(),
  brand: z.string(),
  last4: z.string().regex(/^\d{0,4}$/),
  expMonth: z.number().int(),
  expYear: z.number().int(),
  expiresAt: z.string().optional(),
  createdAt: z.string(),
});
export type MethodView = z.infer<typeof MethodView>;

/** A payment in the supervisor's search: the view, with the card's brand and last 4 and who took it. */
export const PaymentSummary = PaymentView.extend({
  brand: z.string().optional(),
  last4: z.string().regex(/^\d{0,4}$/).optional(),
  operatorId: z.string().optional(),
});
export type PaymentSummary = z.infer<typeof PaymentSummary>;
