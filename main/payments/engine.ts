/** The engine facade: the app's payment operations, journaled and idempotent; the only thing the IPC layer calls. */
import type { z } from 'zod';
import { PaymentId, ReservationId } from '../../shared/payments';
import type { MethodView, PaymentCheck, PaymentView, RefundView } from '../../shared/ipc/views';
import type { RequestTrace } from './client';
import type { Operation, OperationState, PaymentFilter, RecoveredNotice } from './journal';
import type { BeginCheck, KeptAnswer } from './ledger';
import { abandon } from './operations/abandon';
import { checkAgain } from './operations/check-again';
import { confirm } from './operations/confirm';
import { PaymentContext, type EngineDeps, type EngineEvent, type RefundNeeded } from './operations/context';
import { pay } from './operations/create-payment';
import { checked, OperatorId, type PayInput, type RefundInput, type TokenizeInput } from './operations/inputs';
import * as reads from './operations/reads';
import { recover, type RecoveryProgress, type RecoveryReport } from './operations/recover';
import { refund } from './operations/refund';
import { checkRefundsAcknowledged } from './operations/refunds-acknowledged';
import { resolveAttempt, type ResolveAttemptInput } from './operations/resolve-attempt';
import { tokenize } from './operations/tokenize';
import { updateAmount } from './operations/update-amount';
import { methodView } from './view-projection';

export { IDEMPOTENCY_WINDOW_MS, RESEND_WINDOW_MS } from './window';
export { CLOCK_DRIFT_MS } from './database-clock';
export type { BeginCheck, EngineLogger } from './ledger';
export type { EngineDeps, EngineEvent, RefundNeeded } from './operations/context';
export type { RecoveryProgress, RecoveryReport } from './operations/recover';
export type { ChargeToday } from './operations/charges-acknowledged';
export type { MethodView, PaymentView, RefundView };

export class PaymentEngine {
  private readonly ctx: PaymentContext;

  constructor(deps: EngineDeps) {
    this.ctx = new PaymentContext(deps);
  }

  /** The time operations are stamped and aged by: the database's clock carried forward monotonically. */
  now(): number {
    return this.ctx.now();
  }

  /**
   * Subscribes to the answers this desk kept while the center was down, once written (the refund desk settles the
   * request an approval's refund was for); answers the unsubscribe.
   */
  onKeptAnswer(listener: (answer: KeptAnswer) => void): () => void {
    return this.ctx.ledger.onKeptAnswer(listener);
  }

  /**
   * Where the engine puts money a supervisor must decide on (RefundNeeded): awaited before the call that found it
   * answers. One handler; a second replaces it. It must not read the payment through the engine (`stored`, `getPayment`):
   * a read of a late success waits for its handler.
   */
  whenRefundNeeded(handler: (needed: RefundNeeded) => Promise<void>): void {
    this.ctx.refundNeeded = handler;
  }

  /** Subscribes to every payment change the engine learns of; answers the unsubscribe. */
  on(listener: (event: EngineEvent) => void): () => void {
    this.ctx.listeners.add(listener);
    return () => this.ctx.listeners.delete(listener);
  }

  /** Follows one payment: the listener gets its changes until it is settled. */
  watch(paymentId: string, listener: (payment: PaymentView) => void): () => void {
    const id = checked(PaymentId, paymentId);
    this.follow(id).catch((error: unknown) =>
      this.ctx.deps.logger?.warn(
        { paymentId: id, code: error instanceof Error ? error.name : 'unknown' },
        'follow failed',
      ),
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
    this.ctx.poller.restartSoon(checked(PaymentId, paymentId));
  }

  /** A payment as the journal holds it now, without asking the service or telling the listeners (main/live). */
  stored(paymentId: string): Promise<PaymentView | undefined> {
    return reads.stored(this.ctx, paymentId);
  }

  /** Makes sure the payment is followed until settled; its changes reach every `on` listener. */
  follow(paymentId: string): Promise<string> {
    return reads.follow(this.ctx, paymentId);
  }

  /** POST /methods. The card lives only in this call: the journal keeps brand, last 4 and expiry. */
  tokenize(input: z.input<typeof TokenizeInput>, trace?: RequestTrace): Promise<MethodView> {
    return this.ctx.busyWith(() => tokenize(this.ctx, input, trace));
  }

  /** POST /payments: one payment at a time per reservation (operations/create-payment.ts). */
  pay(input: z.input<typeof PayInput>, trace?: RequestTrace): Promise<PaymentView> {
    return this.ctx.busyWith(() => pay(this.ctx, input, trace));
  }

  /** "Check again": an unanswered payment attempt sent again with its own key and payload, or read once answered. */
  checkAgain(operationId: string, trace?: RequestTrace): Promise<PaymentCheck> {
    return this.ctx.busyWith(() => checkAgain(this.ctx, operationId, trace));
  }

  /** A supervisor's word on an attempt past the service's window: not charged, or charged as a payment that matches. */
  resolveAttempt(
    input: ResolveAttemptInput,
    trace?: RequestTrace,
  ): Promise<{ outcome: 'not_charged' | 'charged'; paymentId?: string }> {
    return resolveAttempt(this.ctx, input, trace);
  }

  /** PATCH /payments/{id}: never re-sent blindly, one change of a payment at a time across the center. */
  updateAmount(
    input: { paymentId: string; amountCents: number; operatorId: string },
    trace?: RequestTrace,
  ): Promise<PaymentView> {
    return updateAmount(this.ctx, input, trace);
  }

  /** POST /payments/{id}/confirmation, only for the amount the agent saw. */
  confirm(
    input: { paymentId: string; installmentsCount?: number; expectedAmountCents: number; operatorId: string },
    trace?: RequestTrace,
  ): Promise<PaymentView> {
    return confirm(this.ctx, input, trace);
  }

  /** "Abandon and use another card", once the service says the payment did not succeed. */
  abandon(input: { paymentId: string; operatorId: string }, trace?: RequestTrace): Promise<PaymentView> {
    return abandon(this.ctx, input, trace);
  }

  /** POST /payments/{id}/refunds; `whenBegun` runs in the transaction that writes a new refund operation. */
  refund(input: z.input<typeof RefundInput>, whenBegun?: BeginCheck, trace?: RequestTrace): Promise<PaymentView> {
    return this.ctx.busyWith(() => refund(this.ctx, input, whenBegun, trace));
  }

  /** The refund (or payment, or method) an operation made, once the service answered it. */
  async resultOf(operationId: string): Promise<string | undefined> {
    const op = await this.ctx.journal.operation(operationId);
    return op?.state === 'done' ? op.resultId : undefined;
  }

  /** The journal's payments for the supervisor's search, newest first, with the card's brand and last 4 and the agent. */
  search(filter: PaymentFilter): Promise<reads.SearchedPayment[]> {
    return reads.search(this.ctx, filter);
  }

  /** Where an operation stands in the journal; undefined when it was never begun. */
  async operationState(operationId: string): Promise<OperationState | undefined> {
    return (await this.ctx.journal.operation(operationId))?.state;
  }

  /** True while a payment of this desk may still change or an operation is unanswered (no update restarts then). */
  busy(): boolean {
    return this.ctx.desk.busy();
  }

  /** Reads again whether this desk is busy (after a write; the reads never overlap, the last write is always read). */
  readBusy(): Promise<void> {
    return this.ctx.desk.read();
  }

  /** GET /payments/{id}: the service's word, kept in the journal. */
  getPayment(paymentId: string, trace?: RequestTrace): Promise<PaymentView> {
    return reads.getPayment(this.ctx, paymentId, trace);
  }

  /** The 3DS link of a payment waiting for the cardholder, for main to send (it never crosses to the renderer). */
  challengeLink(paymentId: string): Promise<string | undefined> {
    return reads.challengeLink(this.ctx, paymentId);
  }

  /** What the journal knows of a reservation: its payments, saved cards, unanswered attempts and charges of today. */
  listReservation(reservationId: string): Promise<reads.ReservationPayments> {
    return reads.listReservation(this.ctx, reservationId);
  }

  /** What recover() completed that these operators (one) or this reservation were not yet told of, oldest first. */
  recovered(of: { operatorId: string } | { reservationId: string }): Promise<RecoveredNotice[]> {
    return this.ctx.journal.recoveredNotices(of);
  }

  /** The operator saw these notices of theirs (others' are left as they are): answers how many were acknowledged. */
  acknowledgeRecovered(ids: readonly string[], operatorId: string): Promise<number> {
    return this.ctx.journal.acknowledgeRecovered(ids, checked(OperatorId, operatorId), this.now());
  }

  /** A refund's approval checked before it is decided: refused while a refund made of the payment is not among those shown. */
  checkRefundsShown(paymentId: string, acknowledged: readonly string[]): Promise<void> {
    return checkRefundsAcknowledged(this.ctx.journal, checked(PaymentId, paymentId), acknowledged);
  }

  /** Every card tokenized for the reservation at any desk, kept or not (brand and last 4 for what its payments show). */
  async cardsOf(reservationId: string): Promise<MethodView[]> {
    return (await this.ctx.journal.methodsOf(checked(ReservationId, reservationId))).map(methodView);
  }

  /** A card tokenized for the reservation, kept or not (brand and last 4 for a message about its payment). */
  async methodOf(reservationId: string, methodId: string): Promise<MethodView | undefined> {
    const method = (await this.ctx.journal.methodsOf(reservationId)).find((m) => m.id === methodId);
    return method && methodView(method);
  }

  /** An operation as journaled (main's own wiring: the audit of what recovery completed). */
  operation(operationId: string): Promise<Operation | undefined> {
    return this.ctx.journal.operation(operationId);
  }

  /** At start-up: every unanswered operation re-sent with its key, closed, or marked for reconciliation. */
  recover(progress: RecoveryProgress = {}): Promise<RecoveryReport> {
    // Busy while it runs: what it re-sends is a payment on the wire.
    return this.ctx.desk.during(() => recover(this.ctx, progress));
  }

  /** Stops following payments; the attempts log still being written is awaited (the journal may close after). */
  close(): Promise<void> {
    return this.ctx.close();
  }
}
