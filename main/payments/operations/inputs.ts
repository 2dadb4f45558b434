/** What the engine's operations take and send: the door's channel inputs with what main adds, parsed before anything. */
import { z } from 'zod';
import { Amount, Currency, MethodId, RefundReason, ReservationId, centsFromWire } from '../../../shared/payments';
import { CHANNELS } from '../../../shared/ipc/contract';
import { ServiceError } from '../errors';
import { fingerprint } from '../journal';

export const OperationId = z.uuid({ error: 'The operation id must be a UUID.' }).optional();
export const OperatorId = z.string().trim().min(1, 'The operator is missing.').max(64);

/**
 * The engine's inputs are the door's (the contract's channel input), with what the door adds (the operator) and what
 * only the door checks left out (the balance confirmation, the refund amount the screen named). Called by main itself
 * (recovery, approvals), an operation id is optional (one is made) and so are the acknowledgements.
 */
export const TokenizeInput = CHANNELS['payments:tokenize'].input.extend({
  operationId: OperationId,
  operatorId: OperatorId,
});

/** The create-payment body as sent, also used to re-read a journaled one at recovery. */
export const CreatePaymentBody = z.strictObject({
  methodId: MethodId,
  amount: Amount,
  currency: Currency,
  reservationId: ReservationId,
  installments: z.strictObject({ required: z.literal(true) }).optional(),
  returnUrl: z
    .url()
    .regex(/^https:\/\//, 'The return URL must start with https://.')
    .optional(),
  metadata: z.record(z.string(), z.string()).optional(),
});

const payChannel = CHANNELS['payments:pay'].input;
export const PayInput = payChannel.omit({ overBalance: true }).extend({
  operationId: OperationId,
  operatorId: OperatorId,
  /** Where the cardholder returns after 3-D Secure: the service's setting when not given. */
  returnUrl: CreatePaymentBody.shape.returnUrl,
  /**
   * The reservation's charges of today the screen showed the agent before this charge (chargesToAcknowledge): a charge
   * taken today and not named here refuses the new one.
   */
  acknowledgedPaymentIds: payChannel.shape.acknowledgedPaymentIds.optional(),
});

export const RefundBody = z.strictObject({ amount: Amount.optional(), reason: RefundReason });
const refundChannel = CHANNELS['refunds:create'].input;
export const RefundInput = refundChannel.omit({ expectedAmountCents: true }).extend({
  operationId: OperationId,
  operatorId: OperatorId,
  /** The payment's refunds the screen showed before this one: a refund made and not named here refuses it. */
  acknowledgedRefundIds: refundChannel.shape.acknowledgedRefundIds.optional(),
});

const zeros = (n: number): string => '0'.repeat(n);
const who = { reservationId: 'R', operatorId: 'o' };

/**
 * Every schema an operation parses, with an input that passes each of its checks (zeros: no card's number, no payment's
 * id): parsed at the engine's start rather than in the first payment's wait.
 */
export const OPERATION_SCHEMAS: readonly (readonly [z.ZodType, unknown])[] = [
  [TokenizeInput, { card: { number: zeros(16), expMonth: 12, expYear: 2100, cvv: zeros(3), holderName: 'A' }, ...who }],
  [
    PayInput,
    { methodId: `mth_${zeros(32)}`, amountCents: 1, currency: 'usd', note: 'A', acknowledgedPaymentIds: [], ...who },
  ],
  [RefundInput, { paymentId: `pay_${zeros(32)}`, reason: 'duplicate', acknowledgedRefundIds: [], operatorId: 'o' }],
  [
    CreatePaymentBody,
    { methodId: `mth_${zeros(32)}`, amount: 0.01, currency: 'usd', reservationId: 'R', metadata: {} },
  ],
  [RefundBody, { amount: 0.01, reason: 'duplicate' }],
];

/** Has zod compile each operation's schema and its checks now, parsing its sample (OPERATION_SCHEMAS). */
export function compileOperationSchemas(): void {
  for (const [schema, sample] of OPERATION_SCHEMAS) schema.safeParse(sample);
}

/** Parses input at the engine's door: refused before any request or journal write. */
export function checked<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const param = issue?.path.map(String).join('.');
  throw new ServiceError(
    'invalid_input',
    'invalid_input',
    issue?.message ?? 'The request is not valid.',
    param ? { param } : {},
  );
}

/** What identifies a payment operation: its money fields, never a note or the operator. */
export function moneyFields(payload: unknown): string {
  const body = CreatePaymentBody.safeParse(payload);
  if (!body.success) return fingerprint(payload);
  const { methodId, amount, currency, reservationId, installments } = body.data;
  return fingerprint({
    methodId,
    amountCents: centsFromWire(amount),
    currency,
    reservationId,
    installments: installments?.required === true,
  });
}
