/** The simulated service's state and operations: tenants, tokens, methods, payments, refunds, 3DS. */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { z } from 'zod';
import { FAILURE_MESSAGES, cardFacts, scenarioOf, type CardScenario, type FailureCode } from './cards';
import { MINUTE, SECOND, iso, type SimClock } from './clock';
import { PAYMENT_ID, parseBody, type Invalid, type Schemas } from './schemas';

export interface ServiceConfig {
  processingDelayMs: number;
  refundDelayMs: number;
  tokenTtlS: number;
  methodTtlS?: number | undefined;
}

/** An answer of the service before it is written: success body, or a §3 error. */
export type Outcome =
  | { status: number; body: unknown }
  | { status: number; error: { code: string; message: string; param?: string } };

export const fail = (status: number, code: string, message: string, param?: string): Outcome => ({
  status,
  error: param === undefined ? { code, message } : { code, message, param },
});
export const invalid = (i: Invalid): Outcome => fail(400, 'validation_error', i.message, i.param);

const ACTION_TTL = 15 * MINUTE;
const CONFIRMATION_TTL = 15 * MINUTE;
const MSI_PLANS = [3, 6, 9, 12, 18, 24] as const;
const MSI_CENTS_PER_MONTH = 100_00;

type PaymentStatus = 'pending_confirmation' | 'processing' | 'requires_action' | 'succeeded' | 'failed' | 'expired';
type RefundStatus = 'pending' | 'succeeded' | 'failed';

interface Method {
  id: string;
  card: { last4: string; brand: string; expMonth: number; expYear: number };
  scenario: CardScenario;
  msiEligible: boolean;
  createdAt: number;
  expiresAt: number | undefined;
}

interface Refund {
  id: string;
  paymentId: string;
  status: RefundStatus;
  amountCents: number;
  reason: string;
  createdAt: number;
}

interface Payment {
  id: string;
  status: PaymentStatus;
  amountCents: number;
  /** The amount at creation; shown once the amount has been updated. */
  originalAmountCents: number;
  amountUpdated: boolean;
  currency: 'usd' | 'mxn';
  methodId: string;
  reservationId: string;
  scenario: CardScenario;
  msiEligible: boolean;
  returnUrl: string | undefined;
  metadata: Record<string, string>;
  availableInstallments: number[];
  installments: { count: number; perInstallmentCents: number } | undefined;
  challengeUrl: string | undefined;
  failure: FailureCode | undefined;
  refunds: Refund[];
  createdAt: number;
  updatedAt: number;
  /** When the current timed state began (processing, requires_action). */
  since: number;
  /** pending_confirmation only. */
  expiresAt: number | undefined;
}

interface Tenant {
  clientId: string;
  secretDigest: Buffer;
  methods: Map<string, Method>;
  payments: Map<string, Payment>;
}

interface Challenge {
  tenant: Tenant;
  paymentId: string;
  used: boolean;
}

const newId = (prefix: string): string => prefix + randomBytes(16).toString('hex');
const digest = (s: string): Buffer => createHash('sha256').update(s).digest();
const amount = (cents: number): number => cents / 100;
const toCents = (n: number): number => Math.round(n * 100);

export class SimulatedService {
  private tenants = new Map<string, Tenant>();
  private tokens = new Map<string, { tenant: Tenant; expiresAt: number }>();
  private challenges = new Map<string, Challenge>();

  constructor(
    private readonly config: ServiceConfig,
    private readonly clock: SimClock,
    private readonly schemas: Schemas,
  ) {}

  // ---- tenants and tokens ----

  registerClient(clientId = newId('cli_'), clientSecret = 'sec_' + randomBytes(24).toString('hex')) {
    this.tenants.set(clientId, {
      clientId,
      secretDigest: digest(clientSecret),
      methods: new Map(),
      payments: new Map(),
    });
    return { clientId, clientSecret };
  }

  /** Forgets all state; `keep` tenants keep their credentials (and nothing else). */
  reset(keep: readonly string[]): void {
    const kept = keep.flatMap((id) => {
      const t = this.tenants.get(id);
      return t ? [{ ...t, methods: new Map<string, Method>(), payments: new Map<string, Payment>() }] : [];
    });
    this.tenants = new Map(kept.map((t) => [t.clientId, t]));
    this.tokens.clear();
    this.challenges.clear();
  }

  /** The tenant whose credentials these are, checked in constant time. */
  authenticateClient(clientId: string, clientSecret: string): string | undefined {
    const tenant = this.tenants.get(clientId);
    if (!tenant) return undefined;
    return timingSafeEqual(tenant.secretDigest, digest(clientSecret)) ? tenant.clientId : undefined;
  }

  issueToken(clientId: string): { access_token: string; expires_in: number; token_type: 'Bearer' } {
    const tenant = this.tenants.get(clientId);
    if (!tenant) throw new Error('issueToken for an unknown client');
    const token = randomBytes(32).toString('base64url');
    this.tokens.set(token, { tenant, expiresAt: this.clock.now() + this.config.tokenTtlS * SECOND });
    return { access_token: token, expires_in: this.config.tokenTtlS, token_type: 'Bearer' };
  }

  /** The client id behind a bearer token, if the token is known and unexpired. */
  tenantOfToken(token: string): string | undefined {
    const entry = this.tokens.get(token);
    if (!entry) return undefined;
    if (this.clock.now() >= entry.expiresAt) {
      this.tokens.delete(token);
      return undefined;
    }
    return entry.tenant.clientId;
  }

  // ---- operations (the client id was authenticated by the caller) ----

  tokenize(clientId: string, body: unknown): Outcome {
    const parsed = parseBody(this.schemas.tokenize, body);
    if (!parsed.ok) return invalid(parsed.invalid);
    const { card } = parsed.value;
    const now = this.clock.now();
    const { scenario, msiEligible } = scenarioOf(card.number);
    const method: Method = {
      id: newId('mth_'),
      card: {
        last4: card.number.slice(-4),
        brand: cardFacts(card.number).brand,
        expMonth: card.expMonth,
        expYear: card.expYear,
      },
      scenario,
      msiEligible,
      createdAt: now,
      expiresAt: this.config.methodTtlS === undefined ? undefined : now + this.config.methodTtlS * SECOND,
    };
    this.tenant(clientId).methods.set(method.id, method);
    return { status: 201, body: methodView(method) };
  }

  createPayment(clientId: string, body: unknown, challengeBase: string): Outcome {
    const parsed = parseBody(this.schemas.createPayment, body);
    if (!parsed.ok) return invalid(parsed.invalid);
    const req = parsed.value;
    const tenant = this.tenant(clientId);
    const method = tenant.methods.get(req.methodId);
    const now = this.clock.now();
    if (!method) return fail(404, 'not_found', 'No method with this id.', 'methodId');
    if (method.expiresAt !== undefined && now >= method.expiresAt) {
      return fail(422, 'method_expired', 'This saved card has expired: take the card details again.', 'methodId');
    }
    const msi = req.installments?.required === true;
    if (msi && !(req.currency === 'mxn' && method.msiEligible)) {
      return fail(
        422,
        'installments_unavailable',
        'Installments (MSI) need a Mexican credit card and currency mxn.',
        'installments.required',
      );
    }
    const cents = toCents(req.amount);
    const payment: Payment = {
      id: newId('pay_'),
      status: 'pending_confirmation',
      amountCents: cents,
      originalAmountCents: cents,
      amountUpdated: false,
      currency: req.currency,
      methodId: method.id,
      reservationId: req.reservationId,
      scenario: method.scenario,
      msiEligible: method.msiEligible,
      returnUrl: req.returnUrl,
      metadata: req.metadata ?? {},
      availableInstallments: msi ? plansFor(cents) : [],
      installments: undefined,
      challengeUrl: undefined,
      failure: undefined,
      refunds: [],
      createdAt: now,
      updatedAt: now,
      since: now,
      expiresAt: msi ? now + CONFIRMATION_TTL : undefined,
    };
    if (!msi) this.submit(tenant, payment, now, challengeBase);
    tenant.payments.set(payment.id, payment);
    return { status: 201, body: paymentView(payment) };
  }

  getPayment(clientId: string, id: string): Outcome {
    const found = this.payment(clientId, id);
    return 'error' in found ? found : { status: 200, body: paymentView(found) };
  }

  updateAmount(clientId: string, id: string, body: unknown): Outcome {
    const change = this.change(clientId, id, this.schemas.updateAmount, body, 'update the amount of');
    if ('refused' in change) return change.refused;
    const { payment, value } = change;
    payment.amountCents = toCents(value.amount);
    payment.amountUpdated = true;
    payment.availableInstallments = plansFor(payment.amountCents);
    payment.updatedAt = this.clock.now();
    return { status: 200, body: paymentView(payment) };
  }

  confirm(clientId: string, id: string, body: unknown, challengeBase: string): Outcome {
    const change = this.change(clientId, id, this.schemas.confirm, body ?? {}, 'confirm');
    if ('refused' in change) return change.refused;
    const { payment, value } = change;
    const count = value.installments?.count;
    if (count !== undefined) {
      if (!payment.availableInstallments.includes(count)) {
        const offered = payment.availableInstallments.join(', ') || 'none';
        return fail(
          422,
          'invalid_installments',
          `${count} installments are not offered for this payment (offered: ${offered}).`,
          'installments.count',
        );
      }
      payment.installments = { count, perInstallmentCents: Math.round(payment.amountCents / count) };
    }
    const now = this.clock.now();
    payment.expiresAt = undefined;
    payment.availableInstallments = [];
    this.submit(this.tenant(clientId), payment, now, challengeBase);
    return { status: 200, body: paymentView(payment) };
  }

  refund(clientId: string, id: string, body: unknown): Outcome {
    const change = this.change(clientId, id, this.schemas.refund, body, 'refund');
    if ('refused' in change) return change.refused;
    const { payment, value } = change;
    const refunded = payment.refunds.filter((r) => r.status !== 'failed').reduce((sum, r) => sum + r.amountCents, 0);
    const left = payment.amountCents - refunded;
    const cents = value.amount === undefined ? left : toCents(value.amount);
    if (left === 0 || cents > left) {
      const leftText = `${amount(left).toFixed(2)} ${payment.currency.toUpperCase()}`;
      return fail(422, 'refund_exceeds_remaining', `Only ${leftText} is left to refund on this payment.`, 'amount');
    }
    const now = this.clock.now();
    const refund: Refund = {
      id: newId('ref_'),
      paymentId: payment.id,
      status: this.config.refundDelayMs === 0 ? 'succeeded' : 'pending',
      amountCents: cents,
      reason: value.reason,
      createdAt: now,
    };
    payment.refunds.push(refund);
    return { status: 201, body: refundView(refund, payment.currency) };
  }

  // ---- the cardholder's 3DS page ----

  /** The payment behind a challenge link, if the link can still be answered. */
  challenge(
    token: string,
  ):
    | { state: 'unknown' | 'used' | 'expired' }
    | { state: 'open'; amount: number; currency: string; brand: string; last4: string } {
    const entry = this.challenges.get(token);
    if (!entry) return { state: 'unknown' };
    if (entry.used) return { state: 'used' };
    const payment = this.settled(entry.tenant, entry.paymentId);
    if (payment?.status !== 'requires_action') return { state: 'expired' };
    const method = entry.tenant.methods.get(payment.methodId);
    return {
      state: 'open',
      amount: amount(payment.amountCents),
      currency: payment.currency,
      brand: method?.card.brand ?? 'card',
      last4: method?.card.last4 ?? '',
    };
  }

  answerChallenge(token: string, outcome: 'approve' | 'decline'): { returnUrl: string | undefined } | undefined {
    const entry = this.challenges.get(token);
    if (!entry || this.challenge(token).state !== 'open') return undefined;
    const payment = entry.tenant.payments.get(entry.paymentId);
    if (!payment) return undefined;
    entry.used = true;
    const now = this.clock.now();
    payment.challengeUrl = undefined;
    if (outcome === 'approve') {
      payment.status = 'processing';
      payment.since = now;
    } else {
      payment.status = 'failed';
      payment.failure = 'authentication_failed';
    }
    payment.updatedAt = now;
    return { returnUrl: payment.returnUrl };
  }

  // ---- internals ----

  private tenant(clientId: string): Tenant {
    const tenant = this.tenants.get(clientId);
    if (!tenant) throw new Error('operation for an unknown client');
    return tenant;
  }

  /**
   * A change to a payment, checked as the service checks it: its body first, then the payment, then the status the
   * change needs (`what`: notAllowed says which).
   */
  private change<T>(
    clientId: string,
    id: string,
    schema: z.ZodType<T>,
    body: unknown,
    what: ChangeName,
  ): { payment: Payment; value: T } | { refused: Outcome } {
    const parsed = parseBody(schema, body);
    if (!parsed.ok) return { refused: invalid(parsed.invalid) };
    const payment = this.payment(clientId, id);
    if ('error' in payment) return { refused: payment };
    if (payment.status !== NEEDED_STATUS[what]) return { refused: notAllowed(payment, what) };
    return { payment, value: parsed.value };
  }

  private payment(clientId: string, id: string): Payment | Extract<Outcome, { error: unknown }> {
    if (!PAYMENT_ID.test(id)) {
      return {
        status: 400,
        error: {
          code: 'validation_error',
          message: 'The payment id must look like pay_ followed by 32 hex characters.',
          param: 'id',
        },
      };
    }
    return (
      this.settled(this.tenant(clientId), id) ?? {
        status: 404,
        error: { code: 'not_found', message: 'No payment with this id.', param: 'id' },
      }
    );
  }

  /** Starts processing, or asks for 3DS when the card needs it. */
  private submit(tenant: Tenant, payment: Payment, now: number, challengeBase: string): void {
    payment.since = now;
    payment.updatedAt = now;
    if (payment.scenario.kind === 'challenge') {
      const token = randomBytes(24).toString('base64url');
      this.challenges.set(token, { tenant, paymentId: payment.id, used: false });
      payment.status = 'requires_action';
      payment.challengeUrl = `${challengeBase}/${token}`;
    } else {
      payment.status = 'processing';
    }
  }

  /** The payment with every transition that is due by now applied (nothing runs on timers). */
  private settled(tenant: Tenant, id: string): Payment | undefined {
    const p = tenant.payments.get(id);
    if (!p) return undefined;
    const now = this.clock.now();
    if (p.status === 'processing' && now >= p.since + this.config.processingDelayMs) {
      const at = p.since + this.config.processingDelayMs;
      if (p.scenario.kind === 'fail') {
        p.status = 'failed';
        p.failure = p.scenario.code;
      } else {
        p.status = 'succeeded';
      }
      p.updatedAt = at;
    } else if (p.status === 'requires_action' && now >= p.since + ACTION_TTL) {
      p.status = 'expired';
      p.challengeUrl = undefined;
      p.updatedAt = p.since + ACTION_TTL;
    } else if (p.status === 'pending_confirmation' && p.expiresAt !== undefined && now >= p.expiresAt) {
      p.status = 'expired';
      p.updatedAt = p.expiresAt;
      p.expiresAt = undefined;
      p.availableInstallments = [];
    }
    for (const r of p.refunds) {
      if (r.status === 'pending' && now >= r.createdAt + this.config.refundDelayMs) r.status = 'succeeded';
    }
    return p;
  }
}

/** MSI plans whose count × 100.00 MXN fits in the amount (interface-decisions §8). */
export const plansFor = (cents: number): number[] => MSI_PLANS.filter((n) => n * MSI_CENTS_PER_MONTH <= cents);

type ChangeName = 'update the amount of' | 'confirm' | 'refund';

/** The status a payment must be in for each change. */
const NEEDED_STATUS: Record<ChangeName, Payment['status']> = {
  'update the amount of': 'pending_confirmation',
  confirm: 'pending_confirmation',
  refund: 'succeeded',
};

function notAllowed(p: Payment, what: ChangeName): Outcome {
  return fail(
    422,
    'invalid_state',
    `Cannot ${what} this payment: it is ${p.status.replace('_', ' ')}, and it must be ${NEEDED_STATUS[what].replace('_', ' ')}.`,
  );
}

function methodView(m: Method) {
  return {
    id: m.id,
    type: 'card' as const,
    card: { ...m.card },
    createdAt: iso(m.createdAt),
    ...(m.expiresAt === undefined ? {} : { expiresAt: iso(m.expiresAt) }),
  };
}

function refundView(r: Refund, currency: string) {
  return {
    id: r.id,
    paymentId: r.paymentId,
    status: r.status,
    amount: amount(r.amountCents),
    currency,
    reason: r.reason,
    createdAt: iso(r.createdAt),
  };
}

function paymentView(p: Payment) {
  return {
    id: p.id,
    status: p.status,
    amount: amount(p.amountCents),
    ...(p.amountUpdated ? { originalAmount: amount(p.originalAmountCents) } : {}),
    currency: p.currency,
    methodId: p.methodId,
    reservationId: p.reservationId,
    ...(p.status === 'pending_confirmation'
      ? { availableInstallments: [...p.availableInstallments], expiresAt: iso(p.expiresAt ?? p.createdAt) }
      : {}),
    ...(p.installments
      ? { installments: { count: p.installments.count, perInstallment: amount(p.installments.perInstallmentCents) } }
      : {}),
    ...(p.status === 'requires_action' && p.challengeUrl
      ? { nextAction: { type: 'three_d_secure', url: p.challengeUrl } }
      : {}),
    ...(p.status === 'failed' && p.failure
      ? { failure: { code: p.failure, message: FAILURE_MESSAGES[p.failure] } }
      : {}),
    refunds: p.refunds.map((r) => refundView(r, p.currency)),
    metadata: { ...p.metadata },
    ...(p.returnUrl === undefined ? {} : { returnUrl: p.returnUrl }),
    createdAt: iso(p.createdAt),
    updatedAt: iso(p.updatedAt),
  };
}
