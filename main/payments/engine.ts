/** The engine facade: the app's payment operations, journaled and idempotent; the only thing the IPC layer calls. */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  Amount,
  CardInput,
  Cents,
  Currency,
  MethodId,
  PaymentId,
  RefundReason,
  ReservationId,
  cardBrand,
  centsFromWire,
  centsToWire,
  countsAgainstRefundable,
  formatMoney,
  isFinalPayment,
  isFinalRefund,
  refundableCents,
} from '../../shared/payments';
import { CHANNELS } from '../../shared/ipc/contract';
import type { MethodView, PaymentCheck, PaymentView, PendingPaymentView, RefundView } from '../../shared/ipc/views';
import { ServiceClient, type Attempt, type CreatePaymentInput, type RequestTrace } from './client';
import type { SecretStore, ServiceConfig } from './config';
import { ServiceError } from './errors';
import { chargeDay, dayIn } from './balance';
import {
  fingerprint,
  journalConflict,
  reservationKey,
  type Journal,
  type Operation,
  type OperationKind,
  type OperationState,
  type PaymentFilter,
  type RecoveredNotice,
  type StoredPayment,
} from './journal';
import { Poller } from './poller';
import { isTransactionConflict, StorageError } from '../storage';
import { MethodResource, PaymentResource, RefundResource, compileSchemas } from './resources';
import { ServiceClock } from './service-clock';
import { TokenManager } from './tokens';
import { ErrorBody, OAuthErrorBody, TokenBody } from './wire';
import { isPastWindow } from './window';
import { CLOCK_DRIFT_MS, DatabaseClock } from './database-clock';
import { DeskState } from './desk-state';
import { methodView, paymentView } from './view-projection';

export { IDEMPOTENCY_WINDOW_MS, RESEND_WINDOW_MS } from './window';
export { CLOCK_DRIFT_MS } from './database-clock';

/** Where the engine logs: pino fits. Nothing but ids, statuses and times is ever passed. */
export interface EngineLogger {
  info(fields: object, message?: string): void;
  warn(fields: object, message?: string): void;
}

export interface EngineDeps {
  config: ServiceConfig;
  secrets: SecretStore;
  journal: Journal;
  /** The app's one fetch (Electron's net.fetch in the app: the OS proxy, PAC and certificates): never the global one. */
  fetch: typeof fetch;
  logger?: EngineLogger;
  now?: () => number;
  /** A clock no one sets (performance.now by default): carries the center's and the service's readings forward. */
  monotonic?: () => number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  backoffBaseMs?: number;
  pollSchedule?: readonly number[];
  /**
   * Whether an unanswered refund may be sent again by a path other than its operator's own call (the desk's start, a
   * new refund of the payment finishing the earlier ones first): the caps of its operator as they stand now. Refused,
   * it is marked for reconciliation, never sent (its payment is read: the service's refunds list says if it was made).
   */
  mayResendRefund?: (op: Operation) => Promise<boolean>;
  /** The desk's time zone: a charge "taken today" is one of the desk's calendar day (the system's when not given). */
  timeZone?: string;
}

export type { MethodView, PaymentView, RefundView };

export type EngineEvent = { type: 'payment'; payment: PaymentView };

/**
 * Money the guest may be owed that a supervisor must decide on: a confirmation the service charged at another amount
 * than the agent saw (the difference), or an abandoned payment that succeeded after all (all of it, a duplicate of the
 * payment that replaced it). Whichever desk sees it first writes it; the handler writes it once across the center.
 */
export interface RefundNeeded {
  origin: 'confirmed_amount_differs' | 'late_success';
  paymentId: string;
  reservationId: string;
  amountCents: number;
  currency: string;
  /** The operator who confirmed, or who abandoned it. */
  operatorId: string;
  /** A late success: the desk it was abandoned at (the alert goes there) and the reservation's payment after it. */
  alertDeskId?: string;
  linkedPaymentId?: string;
}

/**
 * How far recover() is: `total`, the unanswered operations it completes this time (re-sent, closed or marked for
 * reconciliation), said before the first; then after each, `done` of them.
 */
export interface RecoveryProgress {
  onProgress?(done: number, total: number): void;
}

export interface RecoveryReport {
  resent: string[];
  failed: string[];
  abandoned: string[];
  reconcile: string[];
  following: string[];
}

const OperationId = z.uuid({ error: 'The operation id must be a UUID.' }).optional();
const OperatorId = z.string().trim().min(1, 'The operator is missing.').max(64);

/**
 * The engine's inputs are the door's (the contract's channel input), with what the door adds (the operator) and what
 * only the door checks left out (the balance confirmation, the refund amount the screen named). Called by main itself
 * (recovery, approvals), an operation id is optional (one is made) and so are the acknowledgements.
 */
const TokenizeInput = CHANNELS['payments:tokenize'].input.extend({ operationId: OperationId, operatorId: OperatorId });

/** The create-payment body as sent, also used to re-read a journaled one at recovery. */
const CreatePaymentBody = z.strictObject({
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
const PayInput = payChannel.omit({ overBalance: true }).extend({
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

const RefundBody = z.strictObject({ amount: Amount.optional(), reason: RefundReason });
const refundChannel = CHANNELS['refunds:create'].input;
const RefundInput = refundChannel.omit({ expectedAmountCents: true }).extend({
  operationId: OperationId,
  operatorId: OperatorId,
  /** The payment's refunds the screen showed before this one: a refund made and not named here refuses it. */
  acknowledgedRefundIds: refundChannel.shape.acknowledgedRefundIds.optional(),
});

/** Parses input at the engine's door: refused before any request or journal write. */
function checked<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
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

/**
 * How long a change of a payment holds its lease at most: longer than a change takes with its retries; a desk that
 * stopped while holding it frees the payment after this.
 */
const LEASE_MS = 2 * 60_000;

/** A refusal that will not change by asking again (so the journal can close the operation). */
const isDefinitive = (e: unknown): e is ServiceError =>
  e instanceof ServiceError &&
  e.kind === 'http' &&
  (e.details.status ?? 0) >= 400 &&
  (e.details.status ?? 0) < 500 &&
  ![401, 408, 429].includes(e.details.status ?? 0) &&
  e.code !== 'idempotency_in_progress';

/**
 * A rule checked where a new operation is written (in its transaction, its row included, read committed on the center):
 * it takes the turn its read needs so that another desk cannot overtake it (Journal.refundOperationsBegunBetween's
 * `turn`). It refuses by throwing. `operationId` is the new operation's.
 */
export type BeginCheck = (journal: Journal, operationId: string) => Promise<void>;

/** Delays in ms between tries to write an answer the center could not take; the last value repeats. */
const KEPT_ANSWER_SCHEDULE: readonly number[] = [250, 1000, 2000, 5000, 10_000, 30_000];

/** The center could not be reached, or the transaction collided: writing the same thing again later is the remedy. */
const isCenterDown = (error: unknown): boolean =>
  (error instanceof StorageError && error.code === 'center_unavailable') || isTransactionConflict(error);

export class PaymentEngine {
  private readonly client: ServiceClient;
  private readonly tokens: TokenManager;
  /** The service's clock, from the Date of its answers: what its 24-hour window follows. */
  private readonly serviceClock: ServiceClock;
  private readonly monotonic: () => number;
  /** Keys begun by this engine and not sent yet: their first send needs no look at the window. */
  private readonly unsent = new Set<string>();
  private readonly poller: Poller;
  private readonly journal: Journal;
  /** The database's clock carried forward monotonically: what operations are stamped and aged by. */
  private readonly clock: DatabaseClock;
  private readonly listeners = new Set<(event: EngineEvent) => void>();
  private readonly keptListeners = new Set<
    (answer: { operationId: string; kind: OperationKind; resultId: string | undefined }) => void
  >();
  /** Changes of a payment (amount update, confirmation) run one after the other on this desk. */
  private readonly changing = new Map<string, Promise<unknown>>();
  /** Where money a supervisor must decide on is written (main/refunds' queue); nothing when not given. */
  private refundNeeded: ((needed: RefundNeeded) => Promise<void>) | undefined;
  /** Abandoned payments found succeeded: the writing of their refund request (a read meanwhile waits for the same one). */
  private readonly lateSuccesses = new Map<string, Promise<void>>();
  private readonly desk: DeskState;
  /** Writes of the attempts log still under way (close waits for them). */
  private readonly logging = new Set<Promise<void>>();
  private readonly stopListening: () => void;
  /** Answers the center could not take yet, by idempotency key: the timer of the next try to write each. */
  private readonly kept = new Map<string, ReturnType<typeof setTimeout>>();
  private closed = false;

  constructor(private readonly deps: EngineDeps) {
    this.journal = deps.journal;
    // What every payment parses, compiled at the engine's start rather than in the first payment's wait.
    compileSchemas([TokenBody, ErrorBody, OAuthErrorBody, MethodResource, PaymentResource, RefundResource, CardInput]);
    compileSchemas([TokenizeInput, PayInput, RefundInput, CreatePaymentBody, RefundBody]);
    const deskNow = deps.now ?? Date.now;
    this.monotonic = deps.monotonic ?? (() => performance.now());
    this.serviceClock = new ServiceClock(this.monotonic, deskNow, CLOCK_DRIFT_MS);
    this.clock = new DatabaseClock({
      databaseNow: () => this.journal.databaseNow(),
      deskNow,
      monotonic: this.monotonic,
      logger: deps.logger,
    });
    this.desk = new DeskState({
      hasUnfinished: () => this.journal.hasUnfinished(),
      alsoBusy: () => this.kept.size > 0,
      logger: deps.logger,
    });
    this.stopListening = deps.journal.onChange(() => this.desk.wrote());
    const tokens = new TokenManager({
      authUrl: deps.config.authUrl,
      clientId: deps.config.clientId,
      secrets: deps.secrets,
      timeoutMs: deps.config.requestTimeoutMs,
      fetch: deps.fetch,
      clock: this.serviceClock,
      ...(deps.now ? { now: deps.now } : {}),
      ...(deps.sleep ? { sleep: deps.sleep } : {}),
    });
    this.tokens = tokens;
    this.client = new ServiceClient({
      config: deps.config,
      tokens,
      fetch: deps.fetch,
      clock: this.serviceClock,
      ...(deps.sleep ? { sleep: deps.sleep } : {}),
      ...(deps.random ? { random: deps.random } : {}),
      ...(deps.backoffBaseMs === undefined ? {} : { backoffBaseMs: deps.backoffBaseMs }),
      onAttempt: (attempt) => this.onAttempt(attempt),
    });
    this.poller = new Poller({
      read: async (id) => (await this.client.getPayment(id)).value,
      onUpdate: async (payment) => void (await this.store(payment)),
      onError: (paymentId, error) =>
        deps.logger?.warn({ paymentId, code: error instanceof ServiceError ? error.code : 'unknown' }, 'poll failed'),
      ...(deps.pollSchedule ? { schedule: deps.pollSchedule } : {}),
    });
  }

  /** The time operations are stamped and aged by: the database's clock carried forward monotonically. */
  now(): number {
    return this.clock.now();
  }

  /**
   * Whether an operation may be past the service's window, by the engine's clock and by the service's own, read again
   * now (a new token: its answer's Date) so that neither a clock set back on this desk nor one read minutes ago can
   * make the operation look younger. When the service cannot be read now, its clock as last read and carried forward
   * monotonically decides; an operation begun before any reading is aged by the engine's clock alone.
   */
  private async pastWindow(op: Operation): Promise<boolean> {
    if (isPastWindow(op.createdAt, this.now())) return true;
    if (op.serviceCreatedAt === undefined) return false;
    await this.tokens.renew().catch(() => undefined);
    const serviceNow = this.serviceClock.latest();
    return serviceNow !== undefined && isPastWindow(op.serviceCreatedAt, serviceNow);
  }

  /** Marks an unanswered operation past the service's window for a supervisor to reconcile: never sent again. */
  private markForReconciliation(op: Operation): Promise<void> {
    return this.journal.settle(op.key, { state: 'reconcile', errorCode: 'unanswered_24h' }, this.now());
  }

  /** Marks an operation that may be past the service's window for a supervisor to reconcile; true when it did. */
  private async closeIfPastWindow(op: Operation): Promise<boolean> {
    if (!(await this.pastWindow(op))) return false;
    await this.markForReconciliation(op);
    this.deps.logger?.warn(
      { operationId: op.operationId, kind: op.kind },
      'an unanswered operation reached the end of the service’s window: not sent again, for a supervisor to reconcile',
    );
    return true;
  }

  /**
   * Subscribes to the answers this desk kept while the center was down, once written (the refund desk settles the
   * request an approval's refund was for); answers the unsubscribe.
   */
  onKeptAnswer(
    listener: (answer: { operationId: string; kind: OperationKind; resultId: string | undefined }) => void,
  ): () => void {
    this.keptListeners.add(listener);
    return () => this.keptListeners.delete(listener);
  }

  /**
   * Where the engine puts money a supervisor must decide on (RefundNeeded): awaited before the call that found it
   * answers. One handler; a second replaces it. It must not read the payment through the engine (`stored`, `getPayment`):
   * a read of a late success waits for its handler.
   */
  whenRefundNeeded(handler: (needed: RefundNeeded) => Promise<void>): void {
    this.refundNeeded = handler;
  }

  /** Subscribes to every payment change the engine learns of; answers the unsubscribe. */
  on(listener: (event: EngineEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Follows one payment: the listener gets its changes until it is settled. */
  watch(paymentId: string, listener: (payment: PaymentView) => void): () => void {
    const id = checked(PaymentId, paymentId);
    this.follow(id).catch((error: unknown) =>
      this.deps.logger?.warn({ paymentId: id, code: error instanceof Error ? error.name : 'unknown' }, 'follow failed'),
    );
    return this.on((event) => {
      if (event.payment.id === id) listener(event.payment);
    });
  }

  /**
   * The verification link has just reached the cardholder, who usually answers within the minute while still on the
   * phone: the payment is checked again from the start of the backoff schedule, not at its longest interval.
   */
  linkSent(paymentId: string): void {
    // Nothing read first: this comes after the message went out, and must not fail it (a settled payment is read once more).
    this.poller.restartSoon(checked(PaymentId, paymentId));
  }

  /**
   * A payment as the journal holds it now, without asking the service or telling the listeners: what another desk of the
   * center wrote, read once to show it (main/live).
   */
  async stored(paymentId: string): Promise<PaymentView | undefined> {
    const stored = await this.journal.payment(paymentId);
    if (stored) await this.noticeLateSuccess(stored);
    return stored && this.view(stored);
  }

  /** Makes sure the payment is followed until settled; its changes reach every `on` listener. */
  async follow(paymentId: string): Promise<string> {
    const id = checked(PaymentId, paymentId);
    const stored = await this.journal.payment(id);
    if (!stored || !isFinalPayment(stored.status) || stored.refunds.some((r) => !isFinalRefund(r.status)))
      this.poller.follow(id);
    return id;
  }

  /** POST /methods. The card lives only in this call: the journal keeps brand, last 4 and expiry. */
  tokenize(input: z.input<typeof TokenizeInput>, trace?: RequestTrace): Promise<MethodView> {
    return this.busyWith(() => this.tokenizeNow(input, trace));
  }

  private async tokenizeNow(
    input: z.input<typeof TokenizeInput>,
    trace: RequestTrace | undefined,
  ): Promise<MethodView> {
    const { operationId, card, guestEmail, reservationId, operatorId } = checked(TokenizeInput, input);
    const redacted = {
      type: 'card',
      guestEmail,
      card: {
        brand: cardBrand(card.number),
        last4: card.number.slice(-4),
        expMonth: card.expMonth,
        expYear: card.expYear,
      },
    };
    const op = await this.beginOrResume(operationId, 'tokenize', redacted, {
      reservationId,
      operatorId,
      resendable: false,
    });
    if (op.state === 'done' && op.resultId) {
      const known = (await this.journal.methodsOf(reservationId)).find((m) => m.id === op.resultId);
      if (known) return methodView(known);
    }
    const method = await this.run(
      op,
      (key) => this.client.tokenize(card, key, guestEmail, trace),
      async (m, journal) => {
        await journal.saveMethod(m, reservationId);
        return m.id;
      },
    );
    const { brand, last4, expMonth, expYear } = method.card;
    // A new card is not kept: the guest's consent comes with its payment (`keepCard`).
    return {
      id: method.id,
      brand,
      last4,
      expMonth,
      expYear,
      expiresAt: method.expiresAt,
      createdAt: method.createdAt,
      keptBy: undefined,
      keptAt: undefined,
    };
  }

  /**
   * POST /payments (flows A, B and D); MSI when `installments` is true. One payment at a time per reservation: an
   * earlier attempt still unanswered is sent again first, with its own key and payload. Answered, it is the payment
   * the agent gets (not a new one); still unanswered, the new one is refused in words. An operation is its money
   * fields: resumed with another note or by another operator, it is re-sent as first written.
   */
  pay(input: z.input<typeof PayInput>, trace?: RequestTrace): Promise<PaymentView> {
    return this.busyWith(() => this.payNow(input, trace));
  }

  private async payNow(input: z.input<typeof PayInput>, trace: RequestTrace | undefined): Promise<PaymentView> {
    const { keepCard, ...parsed } = checked(PayInput, input);
    const payment = await this.createPayment(parsed, trace);
    // Kept only with the guest's consent, once the service made the payment with this card (a refusal keeps nothing).
    if (keepCard === true)
      await this.journal.keepMethod(
        payment.methodId,
        payment.reservationId,
        parsed.operatorId,
        new Date(this.now()).toISOString(),
      );
    return payment;
  }

  private async createPayment(
    parsed: Omit<z.output<typeof PayInput>, 'keepCard'>,
    trace: RequestTrace | undefined,
  ): Promise<PaymentView> {
    const { operationId, operatorId, note, installments, amountCents, acknowledgedPaymentIds, ...rest } = parsed;
    const returnUrl = rest.returnUrl ?? this.deps.config.returnUrl;
    const body: CreatePaymentInput = {
      ...rest,
      ...(returnUrl === undefined ? {} : { returnUrl }),
      // At most two decimals on the wire, from the integer: never a fractional sum.
      amount: centsToWire(amountCents),
      ...(installments ? { installments: { required: true } } : {}),
      metadata: { agent: operatorId, ...(note ? { note } : {}) },
    };
    const id = operationId ?? randomUUID();
    const meta = { reservationId: rest.reservationId, operatorId, resendable: true };
    let abandonedRead = false;
    for (;;) {
      // Two calls at once (on this desk or two desks) may both find the reservation free: the journal's unique index on
      // the reservation's unanswered payment lets one begin; the other is decided again here, finding it.
      const existing = await this.journal.operation(id);
      if (existing) this.checkResumable(existing, 'create_payment', body);
      if (existing?.state === 'done' && existing.resultId) return this.getPayment(existing.resultId, trace);
      // A payment of the reservation still in progress (being charged, waiting for the cardholder or for a plan) has no
      // outcome yet: a new attempt waits for it, or for the agent to abandon it. Read again first: it may be over.
      // The reservation's payments, read once for both checks below (nothing is written between them).
      const payments = existing ? [] : await this.journal.paymentsOf(rest.reservationId);
      const live = payments.find(isLive);
      if (live) {
        const now = await this.fetchAndStore(live.id, trace).catch((error: unknown) => {
          if (error instanceof ServiceError) return live;
          throw error;
        });
        if (isFinalPayment(now.status) || (now.abandonedAt !== undefined && ABANDONABLE.has(now.status))) continue;
        await this.emit(now.id);
        throw new ServiceError(
          'invalid_input',
          'reservation_payment_in_progress',
          `The payment of ${formatMoney(now.amountCents, now.currency)} on this reservation is still in progress: wait for its result, or abandon it, before another charge.`,
          { params: { amountCents: now.amountCents, currency: now.currency } },
        );
      }
      // An abandoned payment is only left to expire: its cardholder may still approve the old link. Read once what the
      // service now says of those still waiting; one being charged after all is in progress again (checked above).
      if (!existing && !abandonedRead) {
        abandonedRead = true;
        const waiting = payments.filter((p) => p.abandonedAt !== undefined && !isFinalPayment(p.status));
        if (waiting.length > 0) {
          await Promise.all(waiting.map((p) => this.fetchAndStore(p.id, trace).catch(() => undefined)));
          continue;
        }
      }
      if (!existing) await this.checkCardMayBeCharged(rest.methodId, rest.reservationId);
      const earlier = (await this.unansweredPayments(rest.reservationId)).filter((op) => op.operationId !== id);
      // An attempt past the service's window may have charged: the reservation waits for a supervisor to resolve it.
      if (!existing) await this.refuseWhileUnresolved(rest.reservationId);
      if (earlier.length === 0) {
        // Begun only if, once its row holds the reservation, no payment of it is in progress: another desk's payment
        // answered between the reads above (its row freed the reservation) is found here, and nothing is written.
        // In the same transaction, the reservation's charges of today must all be ones the agent was shown (two calls at
        // once read each other's committed payments here).
        const op =
          existing ??
          (await this.beginUnlessTaken(id, 'create_payment', body, meta, async (journal) => {
            if ((await this.livePayment(rest.reservationId, journal)) !== undefined) return true;
            if ((await journal.paymentOperationsOf(rest.reservationId, ['reconcile'])).length > 0) return true;
            if (acknowledgedPaymentIds !== undefined)
              await this.checkChargesAcknowledged(journal, rest.reservationId, acknowledgedPaymentIds);
            return false;
          }));
        // Another call began this operation, or another payment of the reservation, first: decided again with it.
        if (op === undefined) continue;
        return this.sendPayment(op, trace);
      }
      const answered = await this.finishEarlierPayments(earlier, trace);
      if (answered) return answered;
    }
  }

  /**
   * "Check again": an unanswered payment attempt is sent again with its own key and payload (or, answered already,
   * its payment is read). Says what the service did: the payment, still no answer, a refusal, or reconciliation.
   */
  checkAgain(operationId: string, trace?: RequestTrace): Promise<PaymentCheck> {
    return this.busyWith(() => this.checkAgainNow(operationId, trace));
  }

  private async checkAgainNow(operationId: string, trace: RequestTrace | undefined): Promise<PaymentCheck> {
    const id = checked(z.uuid({ error: 'This is not a payment attempt id.' }), operationId);
    const op = await this.journal.operation(id);
    if (op?.kind !== 'create_payment') {
      throw new ServiceError(
        'invalid_input',
        'attempt_not_found',
        'There is no payment attempt with this id on this desk.',
        { param: 'operationId' },
      );
    }
    if (op.state === 'pending') {
      // Past the service's window it is not sent (run marks it for reconciliation): what the journal says is answered.
      await this.sendPayment(op, trace).catch((error: unknown) => {
        if (!(error instanceof ServiceError)) throw error;
      });
    }
    const now = (await this.journal.operation(id)) ?? op;
    if (now.state === 'done' && now.resultId) {
      const payment = await this.getPayment(now.resultId, trace).catch(() => this.emit(now.resultId ?? ''));
      return { state: 'answered', payment };
    }
    if (now.state === 'pending')
      return { state: 'unanswered', attempt: await this.pendingView(now), message: unansweredMessage(now) };
    if (now.state === 'reconcile') {
      return {
        state: 'reconcile',
        attempt: await this.pendingView(now),
        message: `The payment of ${this.amountOf(now)} was never answered in 24 hours. It is not sent again: a supervisor must find out with the service whether it was charged.`,
      };
    }
    return {
      state: 'refused',
      code: now.errorCode ?? 'refused',
      message: `The service refused the payment of ${this.amountOf(now)}: nothing was charged.`,
    };
  }

  /**
   * A supervisor's word on an attempt past the service's window, found out with the service: not charged (closed, and
   * its reservation free for a new charge), or charged as `paymentId` — read from the service and taken only when it
   * is the payment this attempt would have made (its reservation, amount, currency and card).
   */
  async resolveAttempt(
    input: {
      operationId: string;
      outcome: 'not_charged' | 'charged';
      paymentId?: string | undefined;
      operatorId: string;
    },
    trace?: RequestTrace,
  ): Promise<{ outcome: 'not_charged' | 'charged'; paymentId?: string }> {
    const op = await this.journal.operation(checked(z.uuid(), input.operationId));
    const notWaiting = (): ServiceError =>
      new ServiceError(
        'invalid_input',
        'attempt_not_to_reconcile',
        'This payment attempt is not waiting for a supervisor.',
        { param: 'operationId' },
      );
    if (op?.kind !== 'create_payment' || op.state !== 'reconcile') throw notWaiting();
    // One word stands: another supervisor's, written since this one read the attempt, refuses this one (nothing written).
    if (input.outcome === 'not_charged') {
      if (
        !(await this.journal.resolve(op.key, { state: 'abandoned', errorCode: 'reconciled_not_charged' }, this.now()))
      )
        throw notWaiting();
      return { outcome: 'not_charged' };
    }
    const paymentId = checked(PaymentId, input.paymentId);
    const body = CreatePaymentBody.parse(op.payload);
    // A payment the journal holds is another attempt's answer: never this one's (its own would stay hidden behind it).
    if ((await this.journal.payment(paymentId)) !== undefined) {
      throw new ServiceError(
        'invalid_input',
        'payment_does_not_match',
        'That payment is not the one this attempt would have made.',
        { param: 'paymentId' },
      );
    }
    const payment = (await this.client.getPayment(paymentId, trace)).value;
    const same =
      reservationKey(payment.reservationId) === reservationKey(body.reservationId) &&
      centsFromWire(payment.originalAmount ?? payment.amount) === centsFromWire(body.amount) &&
      payment.currency === body.currency &&
      payment.methodId === body.methodId;
    if (!same) {
      throw new ServiceError(
        'invalid_input',
        'payment_does_not_match',
        'That payment is not the one this attempt would have made.',
        { param: 'paymentId' },
      );
    }
    await this.journal.transaction(async (journal) => {
      await journal.savePayment(payment, { operatorId: op.operatorId });
      if (!(await journal.resolve(op.key, { state: 'done', resultId: payment.id, httpStatus: 200 }, this.now())))
        throw notWaiting();
    });
    this.poller.follow(payment.id, payment);
    await this.emit(payment.id);
    return { outcome: 'charged', paymentId: payment.id };
  }

  /** Refuses a new charge while an attempt of the reservation past the service's window is not resolved by a supervisor. */
  private async refuseWhileUnresolved(reservationId: string): Promise<void> {
    const [unresolved] = await this.journal.paymentOperationsOf(reservationId, ['reconcile']);
    if (unresolved === undefined) return;
    throw new ServiceError(
      'invalid_input',
      'payment_needs_reconciliation',
      `The earlier payment of ${this.amountOf(unresolved)} was never answered and may have been charged: no new charge until a supervisor resolves it.`,
      { params: this.moneyOf(unresolved) },
    );
  }

  /**
   * PATCH /payments/{id} (flow C): plans are recomputed by the service. Never re-sent blindly (the client reads the
   * payment after a lost answer); one change of a payment at a time across the center (its lease).
   */
  async updateAmount(
    input: { paymentId: string; amountCents: number; operatorId: string },
    trace?: RequestTrace,
  ): Promise<PaymentView> {
    const { paymentId, amountCents, operatorId } = checked(
      z.strictObject({ paymentId: PaymentId, amountCents: Cents, operatorId: OperatorId }),
      input,
    );
    return this.exclusive(paymentId, operatorId, async () => {
      const payment = (await this.client.updateAmount(paymentId, centsToWire(amountCents), trace)).value;
      const view = await this.store(payment);
      if (payment.status !== 'pending_confirmation') {
        throw new ServiceError(
          'http',
          'invalid_state',
          `The payment is no longer waiting for confirmation (it is ${payment.status.replace('_', ' ')}): its amount cannot change now.`,
        );
      }
      return view;
    });
  }

  /**
   * POST /payments/{id}/confirmation, with a plan or for a single payment, holding the payment's lease (no desk's
   * amount update lands meanwhile). The payment is read first: the amount the service holds must be the amount the agent
   * saw, or nothing is confirmed. A service that still charges another amount (changed by a client outside the center)
   * is an error in words, and the difference charged over what the agent saw goes to the supervisors' queue.
   */
  async confirm(
    input: { paymentId: string; installmentsCount?: number; expectedAmountCents: number; operatorId: string },
    trace?: RequestTrace,
  ): Promise<PaymentView> {
    const { paymentId, installmentsCount, expectedAmountCents, operatorId } = checked(
      z.strictObject({
        paymentId: PaymentId,
        installmentsCount: z.number().int().min(1).max(48).optional(),
        expectedAmountCents: Cents,
        operatorId: OperatorId,
      }),
      input,
    );
    return this.exclusive(paymentId, operatorId, async () => {
      const current = await this.fetchAndStore(paymentId, trace);
      if (current.abandonedAt !== undefined) throw abandonedError();
      const amountChanged = (heldCents: number): ServiceError =>
        new ServiceError(
          'invalid_input',
          'amount_changed',
          `The service now holds ${formatMoney(heldCents, current.currency)} for this payment, not the ${formatMoney(expectedAmountCents, current.currency)} on your screen. Check the amount with the guest before confirming.`,
          {
            param: 'expectedAmountCents',
            params: { heldCents, expectedCents: expectedAmountCents, currency: current.currency },
          },
        );
      if (current.amountCents !== expectedAmountCents) {
        await this.emit(paymentId);
        throw amountChanged(current.amountCents);
      }
      // After a lost answer the confirmation is sent again only while the payment still holds the amount the agent saw.
      const payment = (await this.client.confirm(paymentId, installmentsCount, trace, centsToWire(expectedAmountCents)))
        .value;
      const view = await this.store(payment);
      if (payment.status === 'pending_confirmation') throw amountChanged(centsFromWire(payment.amount));
      this.poller.restartSoon(paymentId);
      const chargedCents = centsFromWire(payment.amount);
      if (chargedCents !== expectedAmountCents) {
        this.deps.logger?.warn(
          { paymentId, status: payment.status },
          'confirmed amount differs from the amount the agent saw',
        );
        if (chargedCents > expectedAmountCents) {
          const needed = {
            origin: 'confirmed_amount_differs',
            paymentId,
            reservationId: view.reservationId,
            amountCents: chargedCents - expectedAmountCents,
            currency: view.currency,
            operatorId,
          } as const;
          // The agent is told of the amount whatever became of the request (the log says it for IT).
          await this.refundNeeded?.(needed).catch((error: unknown) => {
            this.deps.logger?.warn(
              { paymentId, code: error instanceof Error ? error.name : 'unknown' },
              'the difference confirmed could not be queued for a refund',
            );
          });
        }
        throw new ServiceError(
          'unexpected_response',
          'confirmed_amount_differs',
          `The service confirmed this payment for ${formatMoney(chargedCents, view.currency)}, not the ${formatMoney(expectedAmountCents, view.currency)} on your screen. Tell the guest; ${chargedCents > expectedAmountCents ? "a refund of the difference is in the supervisors' queue" : 'nothing more was charged'}.`,
          {
            param: 'expectedAmountCents',
            params: { expectedCents: expectedAmountCents, chargedCents, currency: view.currency },
          },
        );
      }
      return view;
    });
  }

  /**
   * "Abandon and use another card": a payment waiting for the cardholder (3-D Secure) or for a plan (MSI) is left to
   * expire on the service and recorded as abandoned, which frees its reservation for a new charge. Only once the
   * service, asked now, says it did not succeed: a succeeded payment is refused (it went through: no second charge),
   * one being charged right now too (its outcome is not known yet), and so is any payment the service could not be
   * asked about. A payment already over (failed, expired) needs nothing: it is answered as it is.
   */
  async abandon(input: { paymentId: string; operatorId: string }, trace?: RequestTrace): Promise<PaymentView> {
    const { paymentId, operatorId } = checked(z.strictObject({ paymentId: PaymentId, operatorId: OperatorId }), input);
    return this.exclusive(paymentId, operatorId, async () => {
      if (!(await this.journal.payment(paymentId))) {
        throw new ServiceError(
          'invalid_input',
          'payment_not_on_desk',
          'This payment was not taken on this desk: it cannot be abandoned here.',
          { param: 'paymentId' },
        );
      }
      let current: StoredPayment;
      try {
        current = await this.fetchAndStore(paymentId, trace);
      } catch (error) {
        if (!(error instanceof ServiceError)) throw error;
        throw new ServiceError(
          error.kind,
          'abandon_outcome_unknown',
          'The payment service could not say whether this payment went through, so it is not abandoned and no new charge can be made yet. Try again in a moment.',
          { params: { paymentId } },
        );
      }
      const amount = { amountCents: current.amountCents, currency: current.currency };
      if (current.status === 'succeeded') {
        await this.emit(paymentId);
        throw new ServiceError(
          'invalid_input',
          'payment_already_succeeded',
          `This payment of ${formatMoney(current.amountCents, current.currency)} went through: it cannot be abandoned. Do not charge again.`,
          {
            params: amount,
          },
        );
      }
      if (!ABANDONABLE.has(current.status) && !isFinalPayment(current.status)) {
        await this.emit(paymentId);
        throw new ServiceError(
          'invalid_input',
          'payment_being_charged',
          `The card is being charged ${formatMoney(current.amountCents, current.currency)} right now: wait for the result before using another card.`,
          {
            params: amount,
          },
        );
      }
      if (!isFinalPayment(current.status))
        await this.journal.abandonPayment(paymentId, operatorId, new Date(this.now()).toISOString());
      return this.emit(paymentId);
    });
  }

  /** POST /payments/{id}/refunds: over-refund is refused here, before any request. */
  /**
   * `whenBegun` (the daily cap of main/refunds) runs inside the transaction that writes a new refund operation, after
   * its row: throwing there writes nothing. Two desks beginning at once cannot both pass it on what the other has not
   * written yet: the check takes its operator's turn, and the second reads after the first committed, its row included.
   */
  refund(input: z.input<typeof RefundInput>, whenBegun?: BeginCheck, trace?: RequestTrace): Promise<PaymentView> {
    return this.busyWith(() => this.refundNow(input, whenBegun, trace));
  }

  private async refundNow(
    input: z.input<typeof RefundInput>,
    whenBegun: BeginCheck | undefined,
    trace: RequestTrace | undefined,
  ): Promise<PaymentView> {
    const { operationId, paymentId, amountCents, reason, operatorId, acknowledgedRefundIds } = checked(
      RefundInput,
      input,
    );
    // A retry of an operation already begun is not checked again: its own refund may be what is counted now.
    const begun = operationId === undefined ? undefined : await this.journal.operation(operationId);
    if (!begun) await this.finishEarlierRefunds(paymentId, operationId, trace);
    const known = (await this.journal.payment(paymentId)) ?? (await this.fetchAndStore(paymentId, trace));
    const left = refundableCents(known);
    if (known.status !== 'succeeded' && !begun) {
      throw new ServiceError('invalid_input', 'payment_not_refundable', 'Only a succeeded payment can be refunded.', {
        param: 'paymentId',
      });
    }
    if (!begun && left === undefined) throw refundAmountUnknown();
    if (!begun && left !== undefined && (amountCents !== undefined ? amountCents > left : left === 0)) {
      throw new ServiceError(
        'invalid_input',
        'refund_exceeds_remaining',
        `Only ${formatMoney(left, known.currency)} is left to refund on this payment.`,
        {
          param: 'amountCents',
          params: { leftCents: left, currency: known.currency },
        },
      );
    }
    const body = checked(RefundBody, {
      ...(amountCents === undefined ? {} : { amount: centsToWire(amountCents) }),
      reason,
    });
    // A new refund, in the transaction that writes it: every refund made of the payment was shown first, then the caller's rule.
    const check: BeginCheck = async (journal, id) => {
      if (acknowledgedRefundIds !== undefined)
        await this.checkRefundsAcknowledged(journal, paymentId, acknowledgedRefundIds);
      await whenBegun?.(journal, id);
    };
    const op = await this.beginOrResume(
      operationId,
      'refund',
      body,
      { reservationId: known.reservationId, operatorId, resendable: true, paymentId },
      check,
      begun ?? 'none',
    );
    if (op.state !== 'done') {
      await this.run(
        op,
        (key) => this.client.createRefund(paymentId, body, key, trace),
        async (r, journal) => {
          await journal.saveRefund(
            r,
            { id: paymentId, currency: known.currency, reservationId: known.reservationId },
            operatorId,
          );
          return r.id;
        },
      );
    }
    this.poller.restartSoon(paymentId);
    return this.emit(paymentId);
  }

  /** The refund (or payment, or method) an operation made, once the service answered it. */
  async resultOf(operationId: string): Promise<string | undefined> {
    const op = await this.journal.operation(operationId);
    return op?.state === 'done' ? op.resultId : undefined;
  }

  /** The journal's payments for the supervisor's search, newest first, with the card's brand and last 4 and the agent. */
  async search(filter: PaymentFilter): Promise<
    (PaymentView & {
      brand: string | undefined;
      last4: string | undefined;
      operatorId: string | undefined;
      deskId: string;
    })[]
  > {
    return (await this.journal.searchPayments(filter)).map((p) => ({
      ...this.view(p),
      brand: p.brand,
      last4: p.last4,
      operatorId: p.operatorId,
      deskId: p.deskId,
    }));
  }

  /** Where an operation stands in the journal; undefined when it was never begun. */
  async operationState(operationId: string): Promise<OperationState | undefined> {
    return (await this.journal.operation(operationId))?.state;
  }

  /**
   * True while a payment of this desk may still change or an operation is unanswered (no update restarts then): as the
   * journal said at its last write (read again after each), or while this engine is running an operation.
   */
  busy(): boolean {
    return this.desk.busy();
  }

  /** Reads again whether this desk is busy (after a write; the reads never overlap, the last write is always read). */
  readBusy(): Promise<void> {
    return this.desk.read();
  }

  private busyWith<T>(fn: () => Promise<T>): Promise<T> {
    return this.desk.during(async () => {
      // Every operation stamps and ages attempts: by the center's clock, measured again when it is old.
      await this.clock.sync();
      return fn();
    });
  }

  /** GET /payments/{id}: the service's word, kept in the journal. */
  async getPayment(paymentId: string, trace?: RequestTrace): Promise<PaymentView> {
    const id = checked(PaymentId, paymentId);
    // As the journal holds it once the service's word is written (read once: it is what every listener is told).
    return this.told(await this.fetchAndStore(id, trace));
  }

  /** The 3DS link of a payment waiting for the cardholder, for main to send (it never crosses to the renderer); none once abandoned. */
  async challengeLink(paymentId: string): Promise<string | undefined> {
    const stored = await this.journal.payment(checked(PaymentId, paymentId));
    if (stored?.abandonedAt !== undefined) throw abandonedError();
    return stored?.status === 'requires_action' ? stored.nextActionUrl : undefined;
  }

  /**
   * What the journal knows of a reservation: its payments, its saved cards, and payment attempts whose outcome is not
   * known. A saved card is one the guest agreed to keep (`payments:pay` with `keepCard`) and that was never declined:
   * every other card tokenized for the reservation served its one payment and is not offered again.
   */
  async listReservation(reservationId: string): Promise<{
    payments: PaymentView[];
    methods: MethodView[];
    pendingPayments: PendingPaymentView[];
    chargedToday: ChargeToday[];
  }> {
    const id = checked(ReservationId, reservationId);
    const payments = await this.journal.paymentsOf(id);
    const declined = new Set(payments.filter((p) => p.status === 'failed').map((p) => p.methodId));
    const pending = await this.journal.paymentOperationsOf(id, ['pending', 'reconcile']);
    return {
      payments: payments.map((p) => this.view(p)),
      methods: (await this.journal.methodsOf(id))
        .filter((m) => m.keptAt !== undefined && !declined.has(m.id))
        .map(methodView),
      pendingPayments: await Promise.all(pending.map((op) => this.pendingView(op))),
      chargedToday: this.chargesToAcknowledge(payments, await this.recoveredPaymentIds(this.journal, id)).map(
        chargeToday,
      ),
    };
  }

  /** What recover() completed that these operators (one) or this reservation were not yet told of, oldest first, on every desk. */
  recovered(of: { operatorId: string } | { reservationId: string }): Promise<RecoveredNotice[]> {
    return this.journal.recoveredNotices(of);
  }

  /** The operator saw these notices of theirs (others' are left as they are): answers how many were acknowledged. */
  acknowledgeRecovered(ids: readonly string[], operatorId: string): Promise<number> {
    return this.journal.acknowledgeRecovered(ids, checked(OperatorId, operatorId), this.now());
  }

  /**
   * A reservation's charges the agent must have been shown before another charge: taken today on the desk's calendar
   * day by the engine's clock (the rule of the screen's "Already charged … today": main/payments/balance.ts), succeeded
   * or still in progress (not one abandoned while it waited); and, whatever its day, one recover() completed whose notice
   * is not acknowledged yet (`recovered`): a desk restarted the morning after completes the evening's payment then.
   */
  private chargesToAcknowledge(payments: readonly StoredPayment[], recovered: ReadonlySet<string>): StoredPayment[] {
    const timeZone = this.deps.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
    const today = dayIn(this.now(), timeZone);
    return payments
      .filter(
        (p) =>
          p.status === 'succeeded' ||
          (!isFinalPayment(p.status) && !(p.abandonedAt !== undefined && ABANDONABLE.has(p.status))),
      )
      .filter((p) => chargeDay(p, timeZone) === today || recovered.has(p.id))
      .sort((a, b) => (b.updatedAt ?? b.createdAt).localeCompare(a.updatedAt ?? a.createdAt));
  }

  /** The reservation's payments recover() completed whose notice its operator has not acknowledged yet. */
  private async recoveredPaymentIds(journal: Journal, reservationId: string): Promise<Set<string>> {
    return new Set(
      (await journal.recoveredNotices({ reservationId })).filter((n) => n.kind === 'payment').map((n) => n.paymentId),
    );
  }

  /** Refuses a new charge while a charge of today on the reservation is not among those the agent was shown. */
  private async checkChargesAcknowledged(
    journal: Journal,
    reservationId: string,
    acknowledged: readonly string[],
  ): Promise<void> {
    const shown = new Set(acknowledged);
    const charges = this.chargesToAcknowledge(
      await journal.paymentsOf(reservationId),
      await this.recoveredPaymentIds(journal, reservationId),
    );
    const unseen = charges.filter((p) => !shown.has(p.id));
    const [newest] = unseen;
    if (newest === undefined) return;
    const at = newest.updatedAt ?? newest.createdAt;
    throw new ServiceError(
      'invalid_input',
      'charges_not_acknowledged',
      `This reservation was already charged ${formatMoney(newest.amountCents, newest.currency)} today (at ${at})${unseen.length > 1 ? ` and ${unseen.length - 1} more time(s)` : ''}, and that charge was not on your screen. Open the reservation again, check its charges with the guest, then charge only if more is owed.`,
      {
        param: 'acknowledgedPaymentIds',
        params: { count: unseen.length, amountCents: newest.amountCents, currency: newest.currency, at },
      },
    );
  }

  /** A refund's approval checked before it is decided: refused while a refund made of the payment is not among those shown. */
  async checkRefundsShown(paymentId: string, acknowledged: readonly string[]): Promise<void> {
    await this.checkRefundsAcknowledged(this.journal, checked(PaymentId, paymentId), acknowledged);
  }

  /** Refuses a new refund while a refund made of the payment (pending or succeeded) is not among those the operator was shown. */
  private async checkRefundsAcknowledged(
    journal: Journal,
    paymentId: string,
    acknowledged: readonly string[],
  ): Promise<void> {
    const shown = new Set(acknowledged);
    const payment = await journal.payment(paymentId);
    const unseen = (payment?.refunds ?? [])
      .filter((r) => countsAgainstRefundable(r.status) && !shown.has(r.id))
      .reverse();
    const [newest] = unseen;
    if (newest === undefined) return;
    const at = newest.createdAt ?? '';
    const amount =
      newest.amountCents === undefined ? 'an unknown amount' : formatMoney(newest.amountCents, newest.currency);
    throw new ServiceError(
      'invalid_input',
      'refunds_not_acknowledged',
      `This payment was already refunded ${amount}${unseen.length > 1 ? ` and ${unseen.length - 1} more time(s)` : ''}, and that refund was not on your screen. Open the payment again and check what is left before refunding.`,
      {
        param: 'acknowledgedRefundIds',
        params: { count: unseen.length, amountCents: newest.amountCents ?? 0, currency: newest.currency, at },
      },
    );
  }

  /** Every card tokenized for the reservation at any desk, kept or not (brand and last 4 for what its payments show). */
  async cardsOf(reservationId: string): Promise<MethodView[]> {
    return (await this.journal.methodsOf(checked(ReservationId, reservationId))).map(methodView);
  }

  /** A card tokenized for the reservation, kept or not (brand and last 4 for a message about its payment). */
  async methodOf(reservationId: string, methodId: string): Promise<MethodView | undefined> {
    const method = (await this.journal.methodsOf(reservationId)).find((m) => m.id === methodId);
    return method && methodView(method);
  }

  /** An operation as journaled (main's own wiring: the audit of what recovery completed). */
  operation(operationId: string): Promise<Operation | undefined> {
    return this.journal.operation(operationId);
  }

  /**
   * At start-up: unanswered operations younger than 24 h are re-sent with their original key and
   * payload; older ones are marked for reconciliation, never re-sent with a new key. A tokenization
   * cannot be re-sent (the card was not kept) and is closed: it charged nothing. Payments that may
   * still change are followed again.
   */
  async recover(progress: RecoveryProgress = {}): Promise<RecoveryReport> {
    // Busy while it runs: what it re-sends is a payment on the wire.
    return this.desk.during(() => this.recoverNow(progress));
  }

  private async recoverNow(progress: RecoveryProgress): Promise<RecoveryReport> {
    const report: RecoveryReport = { resent: [], failed: [], abandoned: [], reconcile: [], following: [] };
    await this.clock.sync(true);
    // This desk's own operations only: another desk's are that desk's to recover (each at its own start).
    const pending = await this.journal.pendingOperations();
    let done = 0;
    progress.onProgress?.(done, pending.length);
    for (const op of pending) {
      // Closed meanwhile (the app is quitting, the agent chose so): nothing more is sent; the rest stays pending, with its
      // key, for the next start.
      if (this.closed) break;
      await this.recoverOne(op, report);
      done += 1;
      progress.onProgress?.(done, pending.length);
    }
    for (const id of await this.journal.unsettledPaymentIds()) {
      this.poller.follow(id);
      report.following.push(id);
    }
    // What an update asks before restarting: known from the start, written or not.
    await this.readBusy();
    this.deps.logger?.info(
      { ...Object.fromEntries(Object.entries(report).map(([k, v]) => [k, (v as string[]).length])) },
      'recovery',
    );
    return report;
  }

  /** One unanswered operation completed: re-sent with its key, closed, or marked for reconciliation (in `report`). */
  private async recoverOne(op: Operation, report: RecoveryReport): Promise<void> {
    if (isPastWindow(op.createdAt, this.now())) {
      await this.markForReconciliation(op);
      report.reconcile.push(op.operationId);
      if (op.paymentId) await this.fetchAndStore(op.paymentId).catch(() => undefined);
      return;
    }
    if (!op.resendable) {
      await this.journal.settle(op.key, { state: 'abandoned', errorCode: 'card_not_kept' }, this.now());
      report.abandoned.push(op.operationId);
      return;
    }
    try {
      // What it made is noted for its operator in the transaction that writes the answer: both are written, or neither.
      await this.resend(op, undefined, (journal, resultId) => this.noticeRecovered(op, resultId, journal));
      report.resent.push(op.operationId);
    } catch (error) {
      if (!isReconcile(error)) {
        report.failed.push(op.operationId);
        return;
      }
      // The service's clock says what the desk's did not: past the window, marked for reconciliation, not sent.
      report.reconcile.push(op.operationId);
      if (op.paymentId) await this.fetchAndStore(op.paymentId).catch(() => undefined);
    }
  }

  /**
   * What recover() made of an operation the agent never got the answer to (a payment, a refund) is written as a notice for
   * the operator who began it: told first at their next sign-in, on any desk, until they acknowledge it.
   */
  private async noticeRecovered(op: Operation, resultId: string, journal: Journal): Promise<void> {
    const paymentId = op.kind === 'create_payment' ? resultId : op.paymentId;
    if (paymentId === undefined || op.kind === 'tokenize') return;
    const payment = await journal.payment(paymentId);
    if (payment === undefined) return;
    const refund = op.kind === 'refund' ? payment.refunds.find((r) => r.id === resultId) : undefined;
    if (op.kind === 'refund' && refund === undefined) return;
    const base = {
      id: op.operationId,
      operatorId: op.operatorId,
      reservationId: payment.reservationId,
      paymentId,
      takenAt: op.createdAt,
      completedAt: this.now(),
    };
    await journal.addRecovered(
      refund === undefined
        ? {
            ...base,
            kind: 'payment',
            refundId: undefined,
            amountCents: payment.amountCents,
            currency: payment.currency,
            status: payment.status,
          }
        : {
            ...base,
            kind: 'refund',
            refundId: refund.id,
            amountCents: refund.amountCents,
            currency: refund.currency,
            status: refund.status,
          },
    );
  }

  /** Stops following payments; the attempts log still being written is awaited (the journal may close after). */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.kept.values()) clearTimeout(timer);
    this.kept.clear();
    this.poller.stopAll();
    this.listeners.clear();
    this.keptListeners.clear();
    this.stopListening();
    this.desk.stop();
    await Promise.all([...this.logging]);
    await this.desk.settled();
  }

  // ---- internals ----

  /** `also`: written in the transaction of the answer, with what the operation made (recover()'s notice for its operator). */
  private async resend(
    op: Operation,
    trace?: RequestTrace,
    also?: (journal: Journal, resultId: string) => Promise<void>,
  ): Promise<void> {
    if (op.kind === 'create_payment') {
      await this.sendPayment(op, trace, also);
    } else if (op.kind === 'refund' && op.paymentId) {
      const paymentId = op.paymentId;
      const body = RefundBody.parse(op.payload);
      if (this.deps.mayResendRefund !== undefined && !(await this.deps.mayResendRefund(op))) {
        await this.journal.settle(op.key, { state: 'reconcile', errorCode: 'over_cap_now' }, this.now());
        await this.fetchAndStore(paymentId, trace).catch(() => undefined);
        throw reconcileError();
      }
      const known = (await this.journal.payment(paymentId)) ?? (await this.fetchAndStore(paymentId, trace));
      await this.run(
        op,
        (key) => this.client.createRefund(paymentId, body, key, trace),
        async (r, journal) => {
          await journal.saveRefund(
            r,
            { id: paymentId, currency: known.currency, reservationId: known.reservationId },
            op.operatorId,
          );
          await also?.(journal, r.id);
          return r.id;
        },
      );
      this.poller.restartSoon(paymentId);
    }
  }

  /**
   * A new refund while an earlier one of the same payment is still unanswered (its screen was closed, the
   * app reloaded): the earlier one is sent again first, with its own key, and the new one is refused so the
   * supervisor sees what is left now. Two attempts in flight could otherwise both be made. One unanswered for
   * 24 hours is never sent again (the service may have forgotten its key): it is marked for reconciliation, the
   * payment is read (its refunds list shows whether it was made) and the new refund goes on against that.
   */
  private async finishEarlierRefunds(
    paymentId: string,
    operationId: string | undefined,
    trace: RequestTrace | undefined,
  ): Promise<void> {
    // On every desk: the journal holds one unanswered refund per payment, wherever it was begun.
    const earlier = (await this.journal.pendingRefundsOf(paymentId)).filter((op) => op.operationId !== operationId);
    if (earlier.length === 0) return;
    const fresh = earlier.filter((op) => !isPastWindow(op.createdAt, this.now()));
    for (const op of earlier) {
      if (!fresh.includes(op)) await this.markForReconciliation(op);
    }
    if (fresh.length === 0) {
      await this.fetchAndStore(paymentId, trace);
      await this.emit(paymentId);
      return;
    }
    // Another desk's refund is that desk's to send (now, or at its next start): this one is refused, nothing sent.
    if (fresh.some((op) => op.deskId !== this.journal.deskId)) throw refundInFlight();
    let resent = 0;
    for (const op of fresh) {
      try {
        await this.resend(op, trace);
        resent++;
      } catch (error) {
        // Past the service's window by its clock: marked for reconciliation, not sent; the new refund goes on against what is read.
        if (!isReconcile(error)) throw error;
      }
    }
    await this.fetchAndStore(paymentId, trace);
    await this.emit(paymentId);
    if (resent === 0) return;
    throw new ServiceError(
      'invalid_input',
      'earlier_refund_completed',
      'An earlier refund of this payment had not been answered; it has now been sent again and answered. Check what is left before refunding again.',
    );
  }

  /**
   * Saved cards by consent, whatever the screen offers: a card this desk tokenized is charged again only when the guest
   * agreed to keep it and it was never declined, and only for its own reservation. A card's first payment goes.
   */
  private async checkCardMayBeCharged(methodId: string, reservationId: string): Promise<void> {
    const method = await this.journal.method(methodId);
    if (!method) return;
    const used = await this.journal.paymentsOfMethod(methodId);
    const foreign = reservationKey(method.reservationId) !== reservationKey(reservationId);
    const declined = used.some((p) => p.status === 'failed');
    if (foreign || declined || (used.length > 0 && method.keptAt === undefined)) {
      throw new ServiceError(
        'invalid_input',
        'card_not_offered',
        'This card cannot be charged again: it was declined, the guest did not agree to keep it, or it was kept for another reservation. Key the card again.',
        { param: 'methodId' },
      );
    }
  }

  /**
   * The reservation's payment still in progress on the service, as last read: not over, and not abandoned while it
   * waited (one abandoned but approved by its cardholder after all is being charged: in progress again).
   */
  private async livePayment(
    reservationId: string,
    journal: Journal = this.journal,
  ): Promise<StoredPayment | undefined> {
    return (await journal.paymentsOf(reservationId)).find(isLive);
  }

  /** A reservation's payment attempts still unanswered; one past 24 hours is marked for reconciliation instead (never re-sent). */
  private async unansweredPayments(reservationId: string): Promise<Operation[]> {
    const unanswered: Operation[] = [];
    for (const op of await this.journal.paymentOperationsOf(reservationId, ['pending'])) {
      if (!isPastWindow(op.createdAt, this.now())) unanswered.push(op);
      else await this.markForReconciliation(op);
    }
    return unanswered;
  }

  /**
   * Sends this desk's earlier attempts again (each with its own key and payload). The payment one of them made, when
   * answered; undefined when every one was refused for good (nothing charged: the new one may go on). Still
   * unanswered: refused in words, the earlier payment named. Another desk's attempt is that desk's to send (now, or at
   * its next start; "check again" sends it from here on purpose): sent from here too, its own desk's answer could be
   * "in progress", so it is read, never sent, and while unanswered the new one is refused.
   */
  private async finishEarlierPayments(
    earlier: readonly Operation[],
    trace: RequestTrace | undefined,
  ): Promise<PaymentView | undefined> {
    for (const op of earlier) {
      if (op.deskId === this.journal.deskId) {
        await this.sendPayment(op, trace).catch((error: unknown) => {
          if (!(error instanceof ServiceError)) throw error;
        });
      }
      const now = (await this.journal.operation(op.operationId)) ?? op;
      if (now.state === 'done' && now.resultId) return this.emit(now.resultId);
      if (now.state === 'pending')
        throw new ServiceError('invalid_input', 'payment_unanswered', unansweredMessage(now), {
          params: this.moneyOf(now),
        });
    }
    return undefined;
  }

  /** Sends a payment operation with its key and the payload as first written; the payment is then followed. */
  private async sendPayment(
    op: Operation,
    trace?: RequestTrace,
    also?: (journal: Journal, resultId: string) => Promise<void>,
  ): Promise<PaymentView> {
    const body = CreatePaymentBody.parse(op.payload);
    const payment = await this.run(
      op,
      (key) => this.client.createPayment(body, key, trace),
      async (p, journal) => {
        await journal.savePayment(p, { operatorId: op.operatorId });
        await also?.(journal, p.id);
        return p.id;
      },
    );
    this.poller.follow(payment.id, payment);
    return this.emit(payment.id);
  }

  private async pendingView(op: Operation): Promise<PendingPaymentView> {
    const body = CreatePaymentBody.parse(op.payload);
    const method = (await this.journal.methodsOf(op.reservationId)).find((m) => m.id === body.methodId);
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
      ageSeconds: Math.max(0, Math.floor((this.now() - op.createdAt) / 1000)),
      state: op.state === 'reconcile' ? 'reconcile' : 'unanswered',
    };
  }

  /** An unanswered payment attempt's amount, as an error's params. */
  private moneyOf(op: Operation): { amountCents: number; currency: string } | undefined {
    const body = CreatePaymentBody.safeParse(op.payload);
    return body.success ? { amountCents: centsFromWire(body.data.amount), currency: body.data.currency } : undefined;
  }

  private amountOf(op: Operation): string {
    const body = CreatePaymentBody.parse(op.payload);
    return formatMoney(centsFromWire(body.amount), body.currency);
  }

  /** The operation for this logical request: new (journaled before anything is sent), or the one already begun. */
  private async beginOrResume(
    operationId: string | undefined,
    kind: OperationKind,
    payload: unknown,
    meta: { reservationId: string; operatorId: string; resendable: boolean; paymentId?: string },
    /** Run in the transaction that writes a new operation (not for one begun already): throwing writes nothing. */
    whenBegun?: BeginCheck,
    /**
     * What the caller just read of this id ('none': not begun), so the first turn does not read it again. Begun since
     * (a call at once), the unique index refuses the new row and the next turn reads it.
     */
    readAlready?: Operation | 'none',
  ): Promise<Operation> {
    const id = operationId ?? randomUUID();
    let known = operationId === undefined ? undefined : readAlready;
    for (;;) {
      const existing = known === undefined ? await this.journal.operation(id) : known === 'none' ? undefined : known;
      known = undefined;
      if (existing) {
        this.checkResumable(existing, kind, payload, meta.paymentId);
        return existing;
      }
      const check = whenBegun && (async (journal: Journal): Promise<boolean> => (await whenBegun(journal, id), false));
      const begun = await this.beginUnlessTaken(id, kind, payload, meta, check);
      if (begun) return begun;
    }
  }

  /**
   * Begins the operation unless the journal's unique indexes refuse it: undefined when its id was begun meanwhile (by a
   * call at once on this desk, or another desk) or, for a payment, when another payment of the reservation was (the
   * caller decides again, finding it). A refund while another of the payment is unanswered, on any desk, is refused.
   */
  private async beginUnlessTaken(
    operationId: string,
    kind: OperationKind,
    payload: unknown,
    meta: { reservationId: string; operatorId: string; resendable: boolean; paymentId?: string },
    /** Read in the same transaction, after the row is written: true rolls the operation back (undefined is answered). */
    blocked?: (journal: Journal) => Promise<boolean>,
  ): Promise<Operation | undefined> {
    // The service's clock is read before the first operation (a token's answer; none asked again while one is held), and
    // again when the desk's clocks disagree on the time since (a sleep): its start is stamped by it, or not by it at all.
    if (this.serviceClock.readAt() === undefined) await this.tokens.get().catch(() => undefined);
    else if (this.serviceClock.drifted()) await this.tokens.renew().catch(() => undefined);
    try {
      if (blocked === undefined) return await this.begin(this.journal, operationId, kind, payload, meta);
      return await this.journal.transaction(async (journal) => {
        const op = await this.begin(journal, operationId, kind, payload, meta);
        if (await blocked(journal)) throw new NotBegun();
        return op;
      });
    } catch (error) {
      // Not begun, or (the embedded file) another connection was writing: decided again, from what is written now.
      if (error instanceof NotBegun || (blocked !== undefined && isTransactionConflict(error))) return undefined;
      const conflict = journalConflict(error);
      if (conflict === undefined) throw error;
      if (conflict === 'refund_in_flight' && (await this.journal.operation(operationId)) === undefined)
        throw refundInFlight();
      return undefined;
    }
  }

  /** Journals a new operation before anything is sent: its key is the Idempotency-Key of every try. */
  private async begin(
    journal: Journal,
    operationId: string,
    kind: OperationKind,
    payload: unknown,
    meta: { reservationId: string; operatorId: string; resendable: boolean; paymentId?: string },
  ): Promise<Operation> {
    const key = randomUUID();
    this.unsent.add(key);
    try {
      return await journal.begin({
        key,
        operationId,
        kind,
        payload,
        createdAt: this.now(),
        serviceCreatedAt: this.serviceClock.earliest(),
        paymentId: meta.paymentId,
        ...meta,
      });
    } catch (error) {
      this.unsent.delete(key);
      throw error;
    }
  }

  /**
   * An operation asked for again by its id must be the same operation: for a payment, the same money fields
   * (method, amount, currency, reservation, installments; a note or the operator do not count); otherwise the whole
   * request, and for a refund the same payment (its body does not name it: another payment's refund would be sent with this
   * key). Never one recovery closed, nor one whose key the service may have forgotten.
   */
  private checkResumable(existing: Operation, kind: OperationKind, payload: unknown, paymentId?: string): void {
    const same =
      kind === 'create_payment'
        ? moneyFields(existing.payload) === moneyFields(payload)
        : existing.fingerprint === fingerprint(payload);
    const samePayment = paymentId === undefined || existing.paymentId === undefined || existing.paymentId === paymentId;
    if (existing.kind !== kind || !same || !samePayment) {
      throw new ServiceError(
        'invalid_input',
        'operation_changed',
        'This operation was already started with different details. Start a new one.',
      );
    }
    if (existing.state === 'reconcile') {
      throw new ServiceError(
        'invalid_input',
        'operation_needs_reconciliation',
        'This operation was never answered and a supervisor must reconcile it. Do not start it again.',
      );
    }
    if (existing.state === 'abandoned') {
      throw new ServiceError(
        'invalid_input',
        'operation_closed',
        'This operation was closed after a restart. Start a new one.',
      );
    }
    if (existing.state !== 'done' && isPastWindow(existing.createdAt, this.now())) {
      throw new ServiceError(
        'invalid_input',
        'operation_too_old',
        'This operation is more than 24 hours old; a supervisor must reconcile it.',
      );
    }
  }

  /** Sends with the operation's key; the journal is completed only once the answer is in hand. */
  private async run<T>(
    op: Operation,
    send: (key: string) => Promise<{ value: T }>,
    keep: (value: T, journal: Journal) => Promise<string>,
  ): Promise<T> {
    // A key the service may have seen goes again only inside its window, whichever path sends it (retry, check, recovery).
    if (!this.unsent.delete(op.key) && (await this.closeIfPastWindow(op))) throw reconcileError();
    let value: T;
    try {
      ({ value } = await send(op.key));
    } catch (error) {
      // A definitive refusal closes the operation; otherwise the answer is unknown and it stays
      // pending, to be re-sent with the same key (by the same operation id, or at the next start).
      if (isDefinitive(error)) {
        const failed = {
          state: 'failed' as const,
          errorCode: error.code,
          ...(error.details.status ? { httpStatus: error.details.status } : {}),
        };
        const at = this.now();
        await this.writeAnswer(op, async () => {
          await this.journal.settle(op.key, failed, at);
          return undefined;
        }).catch((lost: unknown) => {
          // The refusal stands whatever became of its record: the agent is told of it, not of the center.
          if (!isCenterDown(lost)) throw lost;
        });
      }
      throw error;
    }
    const at = this.now();
    await this.writeAnswer(op, () =>
      this.journal.transaction(async (journal) => {
        const resultId = await keep(value, journal);
        await journal.settle(op.key, { state: 'done', resultId, httpStatus: 201 }, at);
        return resultId;
      }),
    );
    return value;
  }

  /**
   * Writes the service's answer to an operation. When the center cannot take it, the answer is not dropped: this desk
   * keeps it in memory and writes it as soon as the center is back (retried with backoff), while the agent is told the
   * center is down. A desk closed or killed in that window leaves the operation unanswered in the journal, and it is
   * re-sent with its same key at the next start (the service answers it again, no second charge).
   */
  private async writeAnswer(op: Operation, write: () => Promise<string | undefined>): Promise<void> {
    try {
      await write();
    } catch (error) {
      if (isCenterDown(error)) this.keepAnswer(op, write);
      throw error;
    }
  }

  private keepAnswer(op: Operation, write: () => Promise<string | undefined>): void {
    if (this.kept.has(op.key) || this.closed) return;
    this.deps.logger?.warn(
      { operationId: op.operationId, kind: op.kind },
      'the center cannot be written: the answer is kept on this desk until it is back',
    );
    let attempt = 0;
    const again = (): void => {
      const delay = KEPT_ANSWER_SCHEDULE[Math.min(attempt, KEPT_ANSWER_SCHEDULE.length - 1)] ?? 30_000;
      attempt++;
      const timer = setTimeout(() => {
        if (this.closed) return;
        // Answered meanwhile (the agent tried again with the same key once the center was back): that answer stands. One
        // marked for reconciliation meanwhile (another desk found it unanswered for 24 hours) still takes the answer, as
        // an answer written at once does (settle writes 'done' over anything but 'done'): the service made it.
        const writeUnlessAnswered = async (): Promise<string | undefined> => {
          const now = await this.journal.operationByKey(op.key);
          return now !== undefined && now.state !== 'pending' && now.state !== 'reconcile' ? now.resultId : write();
        };
        writeUnlessAnswered().then(
          (resultId) => {
            this.kept.delete(op.key);
            this.deps.logger?.info(
              { operationId: op.operationId, kind: op.kind },
              'the kept answer is written in the center',
            );
            void this.afterKeptAnswer(op, resultId);
          },
          (error: unknown) => {
            if (isCenterDown(error) && !this.closed) {
              again();
              return;
            }
            // Not the center's absence: left unanswered in the journal, re-sent with its key at the next start.
            this.kept.delete(op.key);
            this.deps.logger?.warn(
              { operationId: op.operationId, kind: op.kind, code: error instanceof Error ? error.name : 'unknown' },
              'the kept answer could not be written',
            );
          },
        );
      }, delay);
      this.kept.set(op.key, timer);
    };
    again();
  }

  /** Once a kept answer is written: its payment is followed and every open view told, as if it had been written at once. */
  private async afterKeptAnswer(op: Operation, resultId: string | undefined): Promise<void> {
    for (const listener of this.keptListeners) listener({ operationId: op.operationId, kind: op.kind, resultId });
    const paymentId = op.kind === 'create_payment' ? resultId : op.kind === 'refund' ? op.paymentId : undefined;
    if (paymentId === undefined) return;
    try {
      const payment = await this.journal.payment(paymentId);
      if (payment === undefined) return;
      if (!isFinalPayment(payment.status) || payment.refunds.some((r) => !isFinalRefund(r.status)))
        this.poller.restartSoon(paymentId);
      await this.emit(paymentId);
    } catch (error) {
      this.deps.logger?.warn(
        { paymentId, code: error instanceof Error ? error.name : 'unknown' },
        'a kept answer was written but its payment could not be read',
      );
    }
  }

  /** Runs `change` after every earlier change of the same payment has finished. */
  private async oneAtATime<T>(paymentId: string, change: () => Promise<T>): Promise<T> {
    const before = this.changing.get(paymentId) ?? Promise.resolve();
    const run = before.catch(() => undefined).then(change);
    this.changing.set(paymentId, run);
    try {
      return await run;
    } finally {
      if (this.changing.get(paymentId) === run) this.changing.delete(paymentId);
    }
  }

  /**
   * A change of a payment (amount update, confirmation, abandon) holds its lease in the journal while it runs: one at a
   * time across the center, in turn on this desk. Held by another desk or operator, it is refused in words, naming them;
   * a holder that stopped frees it when its lease expires (LEASE_MS, the database's clock).
   */
  private async exclusive<T>(paymentId: string, operatorId: string, change: () => Promise<T>): Promise<T> {
    return this.oneAtATime(paymentId, async () => {
      const lease = await this.journal.takeLease(paymentId, operatorId, LEASE_MS);
      if ('heldBy' in lease) {
        const { deskId, operatorId: holder } = lease.heldBy;
        throw new ServiceError(
          'invalid_input',
          'payment_change_in_progress',
          `${holder} is changing this payment right now${deskId === this.journal.deskId ? '' : ' at another desk'}: wait for it to finish, open the payment again, then try again.`,
          { param: 'paymentId', params: { operatorId: holder, deskId } },
        );
      }
      try {
        return await change();
      } finally {
        await this.journal.releaseLease(paymentId, lease.token).catch((error: unknown) => {
          // Not released: it expires by itself.
          this.deps.logger?.warn(
            { paymentId, code: error instanceof Error ? error.name : 'unknown' },
            'payment lease not released',
          );
        });
      }
    });
  }

  /**
   * An abandoned payment the service says succeeded (its cardholder approved the old link: the service has no cancel)
   * is a second charge: its whole amount goes to the supervisors' queue as a duplicate of the reservation's payment after
   * it, and the desk that abandoned it is alerted. Whichever desk learns it first writes it; written once per payment.
   */
  private noticeLateSuccess(stored: StoredPayment): Promise<void> {
    const handler = this.refundNeeded;
    if (stored.abandonedAt === undefined || stored.status !== 'succeeded' || handler === undefined)
      return Promise.resolve();
    const known = this.lateSuccesses.get(stored.id);
    if (known !== undefined) return known;
    const writing = this.queueLateSuccess(stored, handler);
    this.lateSuccesses.set(stored.id, writing);
    return writing;
  }

  private async queueLateSuccess(
    stored: StoredPayment,
    handler: (needed: RefundNeeded) => Promise<void>,
  ): Promise<void> {
    try {
      const later = (await this.journal.paymentsOf(stored.reservationId)).filter(
        (p) => p.id !== stored.id && p.createdAt > stored.createdAt,
      );
      const replacement = later.find((p) => p.status !== 'failed' && p.abandonedAt === undefined) ?? later[0];
      await handler({
        origin: 'late_success',
        paymentId: stored.id,
        reservationId: stored.reservationId,
        amountCents: stored.amountCents,
        currency: stored.currency,
        operatorId: stored.abandonedBy ?? stored.operatorId ?? 'system',
        ...(stored.abandonedDeskId === undefined ? {} : { alertDeskId: stored.abandonedDeskId }),
        ...(replacement === undefined ? {} : { linkedPaymentId: replacement.id }),
      });
    } catch (error) {
      // Written at the next read of it (here or at another desk).
      this.lateSuccesses.delete(stored.id);
      this.deps.logger?.warn(
        { paymentId: stored.id, code: error instanceof Error ? error.name : 'unknown' },
        'the late success of an abandoned payment could not be queued',
      );
    }
  }

  private async fetchAndStore(paymentId: string, trace?: RequestTrace): Promise<StoredPayment> {
    const payment = (await this.client.getPayment(paymentId, trace)).value;
    await this.journal.savePayment(payment);
    const stored = await this.journal.payment(payment.id);
    if (!stored) throw new Error('journal: payment not stored');
    await this.noticeLateSuccess(stored);
    return stored;
  }

  private async store(payment: PaymentResource): Promise<PaymentView> {
    await this.journal.savePayment(payment);
    return this.emit(payment.id);
  }

  private async emit(paymentId: string): Promise<PaymentView> {
    const stored = await this.journal.payment(paymentId);
    if (!stored) throw new Error('journal: payment not stored');
    return this.told(stored);
  }

  /** Every listener told of the payment as the journal holds it (just read); an abandoned one that succeeded is queued. */
  private told(stored: StoredPayment): PaymentView {
    void this.noticeLateSuccess(stored);
    const view = this.view(stored);
    for (const listener of this.listeners) listener({ type: 'payment', payment: view });
    return view;
  }

  private view(p: StoredPayment): PaymentView {
    return paymentView(p, this.poller.nextCheckAt(p.id));
  }

  private onAttempt(attempt: Attempt): void {
    // A log for IT, written beside the request (never holding it up); close() waits for what is under way.
    const write = this.journal.recordAttempt(attempt, this.now()).catch((error: unknown) => {
      this.deps.logger?.warn(
        { requestId: attempt.requestId, code: error instanceof Error ? error.name : 'unknown' },
        'attempt not logged',
      );
    });
    this.logging.add(write);
    void write.finally(() => this.logging.delete(write));
    this.deps.logger?.info(
      {
        operation: attempt.operation,
        attempt: attempt.attempt,
        status: attempt.status,
        requestId: attempt.requestId,
        key: attempt.idempotencyKey,
        ms: Math.round(attempt.elapsedMs),
      },
      'service request',
    );
  }
}

/** What identifies a payment operation: its money fields, never a note or the operator. */
function moneyFields(payload: unknown): string {
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

const unansweredMessage = (op: Operation): string => {
  const body = CreatePaymentBody.safeParse(op.payload);
  const amount = body.success ? formatMoney(centsFromWire(body.data.amount), body.data.currency) : 'this reservation';
  return `The earlier payment of ${amount} has no answer yet; it is being checked — do not charge again.`;
};

/** An operation marked for reconciliation instead of being sent (past the service's window, or over its operator's caps now). */
const reconcileError = (): ServiceError =>
  new ServiceError(
    'invalid_input',
    'operation_needs_reconciliation',
    'This operation was never answered and is not sent again (it may be past the 24 hours the service keeps its key, or over its operator’s limits now). A supervisor must find out with the service whether it went through.',
  );
const isReconcile = (error: unknown): boolean =>
  error instanceof ServiceError && error.code === 'operation_needs_reconciliation';

/** A charge of today the screen shows before another (listReservation): the door refuses a new charge unless named. */
export interface ChargeToday {
  paymentId: string;
  amountCents: number;
  currency: string;
  status: string;
  /** When it counts as taken (its last change, ISO). */
  at: string;
}

const chargeToday = (p: StoredPayment): ChargeToday => ({
  paymentId: p.id,
  amountCents: p.amountCents,
  currency: p.currency,
  status: p.status,
  at: p.updatedAt ?? p.createdAt,
});

/** A guard of beginUnlessTaken found the operation must not begin: its transaction is rolled back. */
class NotBegun extends Error {}

/** Statuses in which a payment waits for someone (the cardholder's 3-D Secure, the agent's plan): it may be abandoned. */
const ABANDONABLE: ReadonlySet<string> = new Set(['requires_action', 'pending_confirmation']);

/** A payment still in progress on the service, as last read: not over, and not abandoned while it waited for its cardholder. */
const isLive = (p: StoredPayment): boolean =>
  !isFinalPayment(p.status) && (p.abandonedAt === undefined || !ABANDONABLE.has(p.status));

const abandonedError = (): ServiceError =>
  new ServiceError(
    'invalid_input',
    'payment_abandoned',
    'This payment was abandoned: it is left to expire. Take a new payment instead.',
    { param: 'paymentId' },
  );

const refundInFlight = (): ServiceError =>
  new ServiceError(
    'invalid_input',
    'refund_in_flight',
    'Another refund of this payment is being sent right now (on this desk or another one): wait for its answer, then check what is left before refunding again.',
    { param: 'paymentId' },
  );

const refundAmountUnknown = (): ServiceError =>
  new ServiceError(
    'invalid_input',
    'refund_amount_unknown',
    'The service lists a refund of this payment without its amount, so what is left to refund cannot be known. Open the payment again later, or check it with the service, before refunding.',
    { param: 'paymentId' },
  );
