/** What every operation works with: the service's client, the ledger, the journal's payments and who is told of them. */
import { CardInput, isFinalPayment, isFinalRefund } from '../../../shared/payments';
import { dayIn } from '../balance';
import type { PaymentView } from '../../../shared/ipc/views';
import { ServiceClient, type Attempt, type RequestTrace } from '../client';
import type { SecretStore, ServiceConfig } from '../config';
import { CLOCK_DRIFT_MS, DatabaseClock } from '../database-clock';
import { DeskState } from '../desk-state';
import { ServiceError } from '../errors';
import type { Journal, Operation, StoredPayment } from '../journal';
import { Ledger, type EngineLogger } from '../ledger';
import { isSettled, Poller } from '../poller';
import { MethodResource, PaymentResource, RefundResource, compileSchemas } from '../resources';
import { ServiceClock } from '../service-clock';
import { TokenManager } from '../tokens';
import { paymentView } from '../view-projection';
import { ErrorBody, OAuthErrorBody, TokenBody } from '../wire';
import { compileOperationSchemas, moneyFields } from './inputs';
import { LateSuccesses } from './late-success';
import { PaymentLeases } from './lease';
import { refundInFlight } from './rules';

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

export class PaymentContext {
  readonly journal: Journal;
  readonly tokens: TokenManager;
  readonly client: ServiceClient;
  /** The service's clock, from the Date of its answers: what its 24-hour window follows. */
  readonly serviceClock: ServiceClock;
  /** The database's clock carried forward monotonically: what operations are stamped and aged by. */
  readonly clock: DatabaseClock;
  readonly ledger: Ledger;
  readonly poller: Poller;
  readonly desk: DeskState;
  readonly leases: PaymentLeases;
  readonly lateSuccesses: LateSuccesses;
  readonly listeners = new Set<(event: EngineEvent) => void>();
  /** Where money a supervisor must decide on is written (main/refunds' queue); nothing when not given. */
  refundNeeded: ((needed: RefundNeeded) => Promise<void>) | undefined;
  closed = false;
  /** Writes of the attempts log still under way (close waits for them). */
  private readonly logging = new Set<Promise<void>>();
  private readonly stopListening: () => void;

  constructor(readonly deps: EngineDeps) {
    const { journal, logger } = deps;
    this.journal = journal;
    // What every payment parses, compiled at the engine's start rather than in the first payment's wait.
    compileSchemas([TokenBody, ErrorBody, OAuthErrorBody, MethodResource, PaymentResource, RefundResource, CardInput]);
    compileOperationSchemas();
    const deskNow = deps.now ?? Date.now;
    // The desk's calendar day, which a charge's checks read, made ready at the start as the schemas are.
    dayIn(deskNow(), deps.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone);
    const monotonic = deps.monotonic ?? (() => performance.now());
    this.serviceClock = new ServiceClock(monotonic, deskNow, CLOCK_DRIFT_MS);
    this.clock = new DatabaseClock({ databaseNow: () => journal.databaseNow(), deskNow, monotonic, logger });
    this.tokens = new TokenManager({
      authUrl: deps.config.authUrl,
      clientId: deps.config.clientId,
      secrets: deps.secrets,
      timeoutMs: deps.config.requestTimeoutMs,
      fetch: deps.fetch,
      clock: this.serviceClock,
      ...(deps.now ? { now: deps.now } : {}),
      ...(deps.sleep ? { sleep: deps.sleep } : {}),
    });
    this.client = new ServiceClient({
      config: deps.config,
      tokens: this.tokens,
      fetch: deps.fetch,
      clock: this.serviceClock,
      ...(deps.sleep ? { sleep: deps.sleep } : {}),
      ...(deps.random ? { random: deps.random } : {}),
      ...(deps.backoffBaseMs === undefined ? {} : { backoffBaseMs: deps.backoffBaseMs }),
      onAttempt: (attempt) => this.onAttempt(attempt),
    });
    this.ledger = new Ledger({
      journal,
      tokens: this.tokens,
      serviceClock: this.serviceClock,
      now: () => this.now(),
      logger,
      identity: { create_payment: moneyFields },
      afterKeptAnswer: (op, resultId) => this.afterKeptAnswer(op, resultId),
      refundInFlight,
    });
    this.desk = new DeskState({
      hasUnfinished: () => journal.hasUnfinished(),
      alsoBusy: () => this.ledger.kept.size > 0,
      logger,
    });
    this.stopListening = journal.onChange(() => this.desk.wrote());
    this.poller = new Poller({
      read: async (id) => (await this.client.getPayment(id)).value,
      onUpdate: async (payment) => void (await this.store(payment)),
      onError: (paymentId, error) =>
        logger?.warn({ paymentId, code: error instanceof ServiceError ? error.code : 'unknown' }, 'poll failed'),
      ...(deps.pollSchedule ? { schedule: deps.pollSchedule } : {}),
    });
    this.leases = new PaymentLeases({ journal, logger });
    this.lateSuccesses = new LateSuccesses({ journal, logger, handler: () => this.refundNeeded });
  }

  /** The time operations are stamped and aged by: the database's clock carried forward monotonically. */
  now(): number {
    return this.clock.now();
  }

  /** Runs an operation with the desk busy: by the center's clock, measured again when it is old. */
  busyWith<T>(fn: () => Promise<T>): Promise<T> {
    return this.desk.during(async () => {
      await this.clock.sync();
      return fn();
    });
  }

  /** GET /payments/{id}, its answer kept in the journal (an abandoned one that succeeded is queued). */
  async fetchAndStore(paymentId: string, trace?: RequestTrace): Promise<StoredPayment> {
    const payment = (await this.client.getPayment(paymentId, trace)).value;
    await this.journal.savePayment(payment);
    const stored = await this.journal.payment(payment.id);
    if (!stored) throw new Error('journal: payment not stored');
    await this.lateSuccesses.notice(stored);
    return stored;
  }

  /** The service's word on a payment kept, and every listener told. */
  async store(payment: PaymentResource): Promise<PaymentView> {
    await this.save(payment);
    return this.emit(payment.id);
  }

  /**
   * The service's word on a payment, as a poll, a confirmation or an amount change reads it. Where the journal holds the
   * payment unsettled already it need not wait for the disk: lost in a power cut, the journal still holds it unsettled
   * (a charge in progress, a refund not final: counted, never free), and the next start follows it again. A payment held
   * settled, or not held, waits: a refund learnt on it, lost, would be followed by no one.
   */
  private async save(payment: PaymentResource): Promise<void> {
    const { journal } = this;
    const held = journal.defersCommits ? await journal.payment(payment.id) : undefined;
    if (held !== undefined && !isSettled(held)) await journal.unsynced((inner) => inner.savePayment(payment));
    else await journal.savePayment(payment);
  }

  /** Every listener told of the payment as the journal holds it now. */
  async emit(paymentId: string): Promise<PaymentView> {
    const stored = await this.journal.payment(paymentId);
    if (!stored) throw new Error('journal: payment not stored');
    return this.told(stored);
  }

  /** Every listener told of the payment as the journal holds it (just read); an abandoned one that succeeded is queued. */
  told(stored: StoredPayment): PaymentView {
    void this.lateSuccesses.notice(stored);
    const view = this.view(stored);
    for (const listener of this.listeners) listener({ type: 'payment', payment: view });
    return view;
  }

  view(p: StoredPayment): PaymentView {
    return paymentView(p, this.poller.nextCheckAt(p.id));
  }

  /** Stops following payments and keeping answers; the attempts log still being written is awaited. */
  async close(): Promise<void> {
    this.closed = true;
    this.ledger.close();
    this.poller.stopAll();
    this.listeners.clear();
    this.stopListening();
    this.desk.stop();
    await Promise.all([...this.logging]);
    await this.desk.settled();
  }

  /** Once a kept answer is written: its payment is followed and every open view told, as if it had been written at once. */
  private async afterKeptAnswer(op: Operation, resultId: string | undefined): Promise<void> {
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
