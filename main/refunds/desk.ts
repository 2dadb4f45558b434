/** Refunds with approval: supervisors refund within their limit, agents ask and a supervisor approves (override or queue). */
import {
  DEFAULT_REFUND_LIMITS,
  refundCapsFor,
  type RefundLimits,
  type RefundLimitView,
  type RefundRequestView,
} from '../../shared/desk';
import type { RefundQueueItem } from '../../shared/ipc/views';
import type { OperatorView } from '../../shared/operators';
import { CURRENCIES, type Currency, type RefundReason } from '../../shared/payments';
import { UserError } from '../errors';
import { OVERRIDE_MAX_FAILURES, OVERRIDE_PAUSE_MS } from '../operators';
import type { BeginCheck, PaymentEngine, PaymentView, RequestTrace } from '../payments';
import { askedCents, sentCents, type RefundHistory, type RefundOperationRecord } from './daily';
import { RefundError } from './errors';
import { queueItems, type QueueRecords } from './queue';
import { requestView, type Decision, type RefundRequests, type StoredRequest } from './requests';
import {
  APPROVERS,
  asCurrency,
  checkApprover,
  checkCaps,
  checkRefundable,
  closed,
  confirmedAmount,
  overridePaused,
} from './rules';

export type { QueuePayment, QueueRecords } from './queue';

export interface RefundDeskDeps {
  engine: Pick<
    PaymentEngine,
    'refund' | 'getPayment' | 'resultOf' | 'operationState' | 'operation' | 'now' | 'onKeptAnswer' | 'checkRefundsShown'
  >;
  requests: RefundRequests;
  /** The settings' limits (read at each refund: IT may change them). */
  limits?: () => RefundLimits;
  /** The refunds made at every desk of the center (the journal): the daily cap counts each operator's refunds of today. */
  history: RefundHistory;
  /** The desk's time zone: where "today" begins and ends for the daily cap (the system's when not given). */
  timeZone?: string;
  /**
   * Checks a manager override's approver id and password: the approver, or how long override stays paused for that id;
   * throws (an OperatorError) when the credentials do not hold. Wrong ones are counted per approver id for the whole
   * center, never towards the approver's own sign-in lockout (OperatorDirectory.verifyOverride: OVERRIDE_MAX_FAILURES
   * in a row pause override with that id for OVERRIDE_PAUSE_MS, at every desk).
   */
  verifyApprover: (id: string, password: string) => Promise<ApproverCheck>;
  /** What the queue names besides each request (without it, the queue is the requests alone). */
  records?: QueueRecords;
  now?: () => number;
}

/**
 * A manager override's approver credentials held (`approver`; on the center with the `ticket` that lets one decision
 * name them), or override is paused for that id (for so long, by the center's clock).
 */
export type ApproverCheck = { approver: OperatorView; ticket?: string } | { pausedForMs: number };

/** A manager override's signature: on whose screen (`caller`, the operator who asked), and the center's ticket for it. */
interface OverrideProof {
  caller: string;
  ticket?: string;
}

export { OVERRIDE_MAX_FAILURES, OVERRIDE_PAUSE_MS };

export class RefundDesk {
  private readonly now: () => number;
  private readonly limitsOf: () => RefundLimits;
  private readonly timeZone: string;
  /**
   * Refunds checked against a cap run one at a time on this desk: the next check sees the refund before it in the
   * journal (written before it is sent), so two at once cannot both fit in what was left today.
   */
  private capped: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: RefundDeskDeps) {
    // The engine's clock: the desk's, set right by the center's, by which refund operations are stamped ("today" is one day at every desk).
    this.now = deps.now ?? (() => deps.engine.now());
    this.limitsOf = deps.limits ?? (() => DEFAULT_REFUND_LIMITS);
    this.timeZone = deps.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
    // An approval's refund answered while the center was down is written later by the engine: its request learns it then,
    // not only at the approver's retry or the desk's next start.
    deps.engine.onKeptAnswer((answer) => {
      if (answer.kind === 'refund' && answer.resultId !== undefined)
        void this.settleKept(answer.operationId, answer.resultId);
    });
  }

  private async settleKept(operationId: string, refundId: string): Promise<void> {
    try {
      const request = await this.deps.requests.get(operationId);
      if (request?.status === 'approved' && request.refundId === undefined)
        await this.deps.requests.settle(request.id, { refundId });
    } catch {
      // The center again: the desk's next start settles it (reconcile), as before.
    }
  }

  /**
   * A supervisor or admin refunds directly, within their role's limits (per refund, and per day). `acknowledgedRefundIds`:
   * the payment's refunds the screen showed (the engine refuses a new refund while one made is not among them).
   */
  refund(
    input: {
      operationId: string;
      paymentId: string;
      amountCents?: number;
      reason: RefundReason;
      acknowledgedRefundIds?: readonly string[];
      expectedAmountCents?: number;
    },
    by: OperatorView,
    trace?: RequestTrace,
  ): Promise<PaymentView> {
    const { expectedAmountCents, ...rest } = input;
    const refund = {
      ...rest,
      acknowledgedRefundIds: input.acknowledgedRefundIds && [...input.acknowledgedRefundIds],
      operatorId: by.id,
    };
    return this.oneAtATime(async () => {
      const begun = await this.deps.engine.operation(input.operationId);
      if (begun) {
        // Its answer lost, a refund is sent again only within the caps a new one meets now (the engine keeps its money fields).
        if (begun.kind === 'refund' && begun.state === 'pending') await this.checkResumedCaps(by, begun);
        // Sent again exactly as it was begun: the amount confirmed then, whatever "all that is left" reads now.
        const sent = begun.kind === 'refund' ? sentCents(begun) : input.amountCents;
        return this.deps.engine.refund({ ...refund, amountCents: sent }, undefined, trace);
      }
      const payment = await this.deps.engine.getPayment(input.paymentId, trace);
      const amountCents = confirmedAmount(payment, input.amountCents, expectedAmountCents);
      await this.checkLimit(by, payment, amountCents);
      return this.deps.engine.refund(
        { ...refund, ...(amountCents === undefined ? {} : { amountCents }) },
        this.checkedAsBegun(by, payment, amountCents),
        trace,
      );
    });
  }

  /** An agent asks for a refund; checked against what is left now, decided later by a supervisor. */
  async request(
    input: { requestId: string; paymentId: string; amountCents?: number; reason: RefundReason; note?: string },
    by: OperatorView,
    trace?: RequestTrace,
  ): Promise<RefundRequestView> {
    const existing = await this.deps.requests.get(input.requestId);
    if (existing) {
      const sameAmount = existing.amountCents === input.amountCents;
      if (
        existing.paymentId !== input.paymentId ||
        existing.requestedBy !== by.id ||
        !sameAmount ||
        existing.reason !== input.reason
      ) {
        throw new RefundError('request_changed');
      }
      return requestView(existing);
    }
    const payment = await this.deps.engine.getPayment(input.paymentId, trace);
    const currency = asCurrency(payment.currency);
    // The same checks as a refund, but the limit: a request the supervisor could never approve is refused now.
    checkRefundable(payment, input.amountCents);
    return requestView(
      await this.deps.requests.add({
        id: input.requestId,
        paymentId: payment.id,
        amountCents: input.amountCents,
        currency,
        reason: input.reason,
        note: input.note === undefined || input.note === '' ? undefined : input.note,
        requestedBy: by.id,
        requestedAt: new Date(this.now()).toISOString(),
      }),
    );
  }

  /** Manager override: the supervisor signs on the agent's screen with their own credentials. */
  async override(
    input: {
      requestId: string;
      approverId: string;
      approverPassword: string;
      acknowledgedRefundIds?: readonly string[];
    },
    caller: OperatorView,
    trace?: RequestTrace,
  ): Promise<{ request: RefundRequestView; payment: PaymentView }> {
    const request = await this.requireRequest(input.requestId);
    if (request.requestedBy !== caller.id) throw new RefundError('request_not_found');
    const checked = await this.deps.verifyApprover(input.approverId, input.approverPassword);
    if ('pausedForMs' in checked) throw overridePaused(checked.pausedForMs);
    const { approver } = checked;
    const proof: OverrideProof = {
      caller: caller.id,
      ...(checked.ticket === undefined ? {} : { ticket: checked.ticket }),
    };
    return this.oneAtATime(async () =>
      this.approveAs(await this.requireRequest(request.id), approver, proof, trace, input.acknowledgedRefundIds),
    );
  }

  /**
   * A supervisor approves a request from the queue, having been shown the payment's refunds made (`acknowledgedRefundIds`)
   * and the amount it refunds (`expectedAmountCents`: refused, nothing decided or sent, when it would refund another now).
   */
  approve(
    requestId: string,
    by: OperatorView,
    trace?: RequestTrace,
    acknowledgedRefundIds?: readonly string[],
    expectedAmountCents?: number,
  ): Promise<{ request: RefundRequestView; payment: PaymentView }> {
    return this.oneAtATime(async () =>
      this.approveAs(
        await this.requireRequest(requestId),
        by,
        undefined,
        trace,
        acknowledgedRefundIds,
        expectedAmountCents,
      ),
    );
  }

  async reject(requestId: string, note: string, by: OperatorView): Promise<RefundRequestView> {
    const request = await this.requireRequest(requestId);
    checkApprover(request, by);
    await this.decide(request.id, { status: 'rejected', by: by.id, note, override: false });
    return requestView(await this.requireRequest(requestId));
  }

  /** The center's queue: every desk's requests, with what main's records name besides each (queueItems). */
  async queue(status: 'pending' | 'all'): Promise<RefundQueueItem[]> {
    const requests = await this.deps.requests.list(status);
    const records = this.deps.records;
    if (records === undefined) return requests.map(requestView);
    return queueItems(requests, records);
  }

  async requestsFor(paymentId: string): Promise<RefundRequestView[]> {
    return (await this.deps.requests.forPayment(paymentId)).map(requestView);
  }

  limits(): RefundLimitView[] {
    const limits = this.limitsOf();
    return (['agent', 'supervisor', 'admin'] as const).flatMap((role) =>
      CURRENCIES.map((currency) => {
        const { perRefundCents, perDayCents } = refundCapsFor(limits, role, currency);
        return {
          role,
          currency,
          ...(perRefundCents === undefined ? {} : { maxCents: perRefundCents }),
          ...(perDayCents === undefined ? {} : { maxPerDayCents: perDayCents }),
        };
      }),
    );
  }

  /**
   * At start-up: approvals whose refund was being sent when the app stopped. The engine's recovery
   * re-sent them with their own key; here each request learns the refund it became.
   */
  async reconcile(): Promise<number> {
    let settled = 0;
    for (const request of await this.deps.requests.unsettledApprovals()) {
      const refundId = await this.deps.engine.resultOf(request.id);
      const state = await this.deps.engine.operationState(request.id);
      if (refundId !== undefined) await this.deps.requests.settle(request.id, { refundId });
      else if (state === undefined || state === 'failed')
        await this.deps.requests.settle(request.id, { failure: 'The refund was not made. Ask for it again.' });
      else continue;
      settled++;
    }
    return settled;
  }

  // ---- internals ----

  private async approveAs(
    request: StoredRequest,
    approver: OperatorView,
    override: OverrideProof | undefined,
    trace: RequestTrace | undefined,
    acknowledgedRefundIds: readonly string[] | undefined,
    expectedAmountCents?: number,
  ): Promise<{ request: RefundRequestView; payment: PaymentView }> {
    checkApprover(request, approver);
    if (request.status === 'rejected' || request.status === 'failed') throw closed(request);
    if (request.status === 'approved' && !this.resumes(request, approver)) throw closed(request);
    if (request.status === 'approved' && request.refundId !== undefined) {
      return { request: requestView(request), payment: await this.deps.engine.getPayment(request.paymentId, trace) };
    }
    // The service's word on the payment, read once for the checks (a retry after a restart reads it again).
    let read: PaymentView | undefined;
    // The amount sent: the request's, or the one the approver confirmed (never "all that is left" unnamed).
    let amountCents = request.amountCents;
    if (request.status === 'pending') {
      const payment = (read = await this.deps.engine.getPayment(request.paymentId, trace));
      amountCents = confirmedAmount(payment, request.amountCents, expectedAmountCents);
      await this.checkLimit(approver, payment, amountCents);
      // A refund made of the payment that the approver was not shown refuses the approval before it is decided.
      if (acknowledgedRefundIds !== undefined)
        await this.deps.engine.checkRefundsShown(request.paymentId, acknowledgedRefundIds);
      // The decision is written before the refund is sent: both ids are on record whatever happens next.
      await this.decide(request.id, {
        status: 'approved',
        by: approver.id,
        override: override !== undefined,
        ...(override ?? {}),
      });
    }
    // Resumed (its refund's answer lost), the approval meets the caps a new one would, as the approver stands now.
    if (request.status === 'approved') {
      const begun = await this.deps.engine.operation(request.id);
      if (begun?.kind === 'refund' && begun.state === 'pending') await this.checkResumedCaps(approver, begun);
      // Sent again exactly as it was begun: the amount the approver confirmed then (a request of all that is left names none).
      if (begun?.kind === 'refund') amountCents = sentCents(begun);
      else {
        // Decided, never begun: nothing was sent, so the approver confirms the amount now, as for a new approval.
        const payment = (read = await this.deps.engine.getPayment(request.paymentId, trace));
        amountCents = confirmedAmount(payment, request.amountCents, expectedAmountCents);
        await this.checkLimit(approver, payment, amountCents);
      }
    }
    // The request's id is the refund's operation id: every retry (and the restart) sends the same Idempotency-Key.
    try {
      // Its approver's daily cap, checked again where the operation is written (a refund of theirs at another desk).
      const payment = await this.deps.engine.refund(
        {
          operationId: request.id,
          paymentId: request.paymentId,
          ...(amountCents === undefined ? {} : { amountCents }),
          reason: request.reason,
          // Who decided it: this approver (just now, or resuming their own approval: resumes() allows no one else).
          operatorId: request.status === 'pending' ? approver.id : (request.decidedBy ?? approver.id),
          ...(acknowledgedRefundIds === undefined ? {} : { acknowledgedRefundIds: [...acknowledgedRefundIds] }),
        },
        this.checkedAsBegun(
          approver,
          read ?? (await this.deps.engine.getPayment(request.paymentId, trace)),
          amountCents,
        ),
        trace,
      );
      const refundId = await this.deps.engine.resultOf(request.id);
      const settled =
        refundId === undefined
          ? await this.requireRequest(request.id)
          : await this.deps.requests.settle(request.id, { refundId });
      return { request: requestView(settled), payment };
    } catch (error) {
      const state = await this.deps.engine.operationState(request.id);
      // Refused for good (before sending, or by the service): the request closes. Otherwise it stays approved and is re-sent;
      // so it does when a refund made meanwhile was not shown to the approver (approved again once it is).
      const unseen = error instanceof UserError && error.code === 'refunds_not_acknowledged';
      if (!unseen && (state === undefined || state === 'failed')) {
        await this.deps.requests.settle(request.id, {
          failure: error instanceof Error ? error.message : 'The refund was refused.',
        });
      }
      throw error;
    }
  }

  /**
   * An approved request whose refund is being sent (or was) is taken up again only by its own approver at the desk that
   * approved it (a retry, after a restart); anyone else is told who approved it (one approval, one refund).
   */
  private resumes(request: StoredRequest, approver: OperatorView): boolean {
    return (
      request.decidedBy === approver.id &&
      (request.decidedDeskId === undefined || request.decidedDeskId === this.deps.requests.deskId)
    );
  }

  /** Runs `fn` after every capped refund begun before it on this desk has been sent (or refused). */
  private oneAtATime<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.capped.then(fn, fn);
    this.capped = result.catch(() => undefined);
    return result;
  }

  /**
   * The daily cap again, where the refund's operation is written (the engine's transaction): what `by` began today at
   * every desk, this operation left out, read in the operator's turn (no other desk's refund for them slips in between,
   * and other operators' refunds never wait). The check before it (checkLimit) answers early; this one holds when two
   * desks refund for one operator at once.
   */
  private checkedAsBegun(by: OperatorView, payment: PaymentView, amountCents: number | undefined): BeginCheck {
    return (journal, operationId) => {
      const history: RefundHistory = {
        payments: (ids) => journal.payments(ids),
        refundOperationsBegunBetween: async (from, to, operatorId) =>
          (await journal.refundOperationsBegunBetween(from, to, operatorId ?? by.id, { turn: true })).filter(
            (op) => op.operationId !== operationId,
          ),
      };
      return this.checkLimit(by, payment, amountCents, history);
    };
  }

  /**
   * Whether an unanswered refund may be sent again by a path other than its operator's own call (the desk's start, a
   * new refund of the payment finishing the earlier ones first): its operator still makes refunds, within the caps a
   * new refund of theirs meets now.
   */
  async mayResend(
    op: RefundOperationRecord & { operationId: string },
    operator: OperatorView | undefined,
  ): Promise<boolean> {
    if (operator === undefined || operator.disabled || !APPROVERS.includes(operator.role)) return false;
    try {
      await this.checkResumedCaps(operator, op);
      return true;
    } catch (error) {
      if (error instanceof RefundError) return false;
      throw error;
    }
  }

  /**
   * The caps of a new refund for one begun already and unanswered: what it asked, against the role's cap and what `by`
   * refunded today without it. What is left on the payment is not checked again: its own refund may be what took it.
   */
  private async checkResumedCaps(by: OperatorView, op: RefundOperationRecord & { operationId: string }): Promise<void> {
    if (op.paymentId === undefined) return;
    const [payment] = await this.deps.history.payments([op.paymentId]);
    if (payment === undefined) return;
    const history: RefundHistory = {
      payments: (ids) => this.deps.history.payments(ids),
      refundOperationsBegunBetween: async (from, to, operatorId) =>
        (await this.deps.history.refundOperationsBegunBetween(from, to, operatorId)).filter(
          (other) => other.operationId !== op.operationId,
        ),
    };
    await this.checkCaps(by, asCurrency(payment.currency), askedCents(op, payment), history);
  }

  /** The role's cap on a single refund, then on what this operator refunds today (succeeded and pending refunds, plus this one). */
  private async checkLimit(
    by: OperatorView,
    payment: PaymentView,
    amountCents: number | undefined,
    history: RefundHistory = this.deps.history,
  ): Promise<void> {
    const cents = checkRefundable(payment, amountCents);
    await this.checkCaps(by, asCurrency(payment.currency), cents, history);
  }

  private checkCaps(by: OperatorView, currency: Currency, cents: number, history: RefundHistory): Promise<void> {
    return checkCaps(by, currency, cents, history, {
      limits: this.limitsOf(),
      now: this.now(),
      timeZone: this.timeZone,
    });
  }

  /** Writes a pending request's decision, timed now; refused (request_closed) when it was decided first elsewhere. */
  private async decide(id: string, decision: Omit<Decision, 'at'>): Promise<void> {
    if (!(await this.deps.requests.decide(id, { ...decision, at: new Date(this.now()).toISOString() })))
      throw closed(await this.requireRequest(id));
  }

  private async requireRequest(id: string): Promise<StoredRequest> {
    const request = await this.deps.requests.get(id);
    if (!request) throw new RefundError('request_not_found');
    return request;
  }
}
