/** The service's resources as the engine reads them: known fields checked, unknown fields, statuses and odd refund entries tolerated. */
import { z } from 'zod';
import { isFinalPayment } from '../../shared/payments';

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

/**
 * One refund. Only its id is needed: a field missing or of another type is kept as unknown (an entry without an amount
 * has an unknown amount; without a status, the status `unknown`, which is not final), so that one odd entry never makes
 * the whole payment unreadable.
 */
export const RefundResource = z.looseObject({
  id: z.string().min(1),
  paymentId: z.string().optional().catch(undefined),
  /** pending, succeeded, failed, canceled — or a status this app does not know yet. */
  status: z.string().min(1).catch('unknown'),
  amount: z.number().optional().catch(undefined),
  currency: z.string().optional().catch(undefined),
  reason: z.string().optional().catch(undefined),
  createdAt: z.string().optional().catch(undefined),
});
export type RefundResource = z.infer<typeof RefundResource>;

/** A payment's refunds: entries without an id cannot be told apart and are left out (the service still counts them). */
const RefundList = z
  .array(z.unknown())
  .default([])
  .transform((entries) =>
    entries.flatMap((entry) => {
      const refund = RefundResource.safeParse(entry);
      return refund.success ? [refund.data] : [];
    }),
  );

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
  refunds: RefundList,
  metadata: z.record(z.string(), z.unknown()).default({}),
  createdAt: z.string(),
  updatedAt: z.string().optional(),
  expiresAt: z.string().optional(),
});
export type PaymentResource = z.infer<typeof PaymentResource>;

/** Final for a payment (shared vocabulary): succeeded, failed, expired, canceled. */
export const isTerminal = isFinalPayment;

/**
 * The schemas a schema runs its own input through: its fields, items, options, the inside of a wrapper, the first of a
 * pipe (the second gets what the first made, never an empty object).
 */
function innerSchemas(schema: z.ZodType): unknown[] {
  const def = schema._zod.def as unknown as Record<string, unknown>;
  const { shape, options } = def;
  return [
    ...(typeof shape === 'object' && shape !== null ? Object.values(shape as Record<string, unknown>) : []),
    ...(Array.isArray(options) ? (options as unknown[]) : []),
    def['element'],
    def['innerType'],
    def['valueType'],
    def['in'],
    def['left'],
    def['right'],
  ];
}

/**
 * Has zod compile the fast path of each object schema now (the engine is made at the app's start) rather than at its
 * first parse: compiled on first use, the schemas a payment parses cost the first payment of a process some 13 ms of the
 * agent's wait. Parsing an empty object compiles an object schema and has no other effect; every object schema inside
 * one (a field's, an item's, an option's) is parsed so too, as an empty object stops at the outer one's first field.
 */
export function compileSchemas(schemas: readonly z.ZodType[]): void {
  const seen = new Set<unknown>();
  const visit = (schema: unknown): void => {
    if (!(schema instanceof z.ZodType) || seen.has(schema)) return;
    seen.add(schema);
    try {
      schema.safeParse({});
    } catch {
      // A transform that expects what its schema checked first: compiled all the same, and the start goes on.
    }
    for (const inner of innerSchemas(schema)) visit(inner);
  };
  for (const schema of schemas) visit(schema);
}
