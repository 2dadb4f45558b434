/**
 * Refunds with approval on the stores: the center's queue of requests, the desk that sends or asks, the refunds money
 * found owed (a late success, a confirmed difference) and what the asking desk is told of each request.
 */
import { DEFAULT_REFUND_LIMITS } from '../../shared/desk';
import type { EventPayload } from '../../shared/ipc';
import { Currency, isFinalRefund } from '../../shared/payments';
import type { DeskIdentity } from '../center';
import { signInError, type OperatorDirectory } from '../operators';
import type { Journal, PaymentEngine } from '../payments';
import { RefundDesk, RefundRequests, refundOutcome, systemRequestId, type StoredRequest } from '../refunds';
import type { AnyReservationSource } from '../reservations';
import type { Storage } from '../storage';
import type { RecordRow } from './audit';
import type { Emit } from './events';
import type { LiveReads } from './live';
import type { MainStackOptions } from './options';

export interface RefundsDeps {
  storage: Storage;
  identity: DeskIdentity;
  engine: PaymentEngine;
  journal: Journal;
  directory: OperatorDirectory;
  reservationSource: AnyReservationSource;
  record: RecordRow;
  emit: Emit;
  timeZone: string;
  options: Pick<MainStackOptions, 'refundLimits' | 'onUnexpectedError'>;
}

export interface Refunds extends Pick<LiveReads, 'readRequest' | 'readOutcome'> {
  requests: RefundRequests;
  desk: RefundDesk;
  /** Whoever found them and whenever: the alert of each pending request this desk is to be told of. */
  lateSuccesses(): Promise<EventPayload<'payments:lateSuccess'>[]>;
  /** Its listeners stopped (the stack is closing). */
  stop(): void;
}

/** The alert of a late success's request (its amount is the whole payment's), on the payment's reservation. */
function lateSuccessAlert(request: StoredRequest, reservationId: string): EventPayload<'payments:lateSuccess'> {
  return {
    paymentId: request.paymentId,
    reservationId,
    amountCents: request.amountCents ?? 0,
    currency: request.currency,
    abandonedBy: request.requestedBy,
    ...(request.linkedPaymentId === undefined ? {} : { replacementPaymentId: request.linkedPaymentId }),
    requestId: request.id,
  };
}

export async function openRefunds(deps: RefundsDeps): Promise<Refunds> {
  const { engine, identity, record, emit } = deps;
  const onError = (error: unknown): void => deps.options.onUnexpectedError?.('refunds', error);
  const requests = await RefundRequests.open(deps.storage, identity, deps.directory);
  // A refund a request became, seen ended (made or failed) by this desk's engine: the desk that asked is told, once a process.
  const endedRefunds = new Set<string>();
  engine.on(({ payment }) => {
    for (const refund of payment.refunds) {
      if (!isFinalRefund(refund.status) || endedRefunds.has(refund.id)) continue;
      endedRefunds.add(refund.id);
      void requests.refundEnded(payment.id, refund.id).catch(onError);
    }
  });
  /** The alert this desk is to show for a request: a pending late success of a payment abandoned here; none otherwise. */
  const alertFor = async (request: StoredRequest): Promise<EventPayload<'payments:lateSuccess'> | undefined> => {
    if (request.origin !== 'late_success' || request.status !== 'pending' || request.alertDeskId !== identity.deskId)
      return undefined;
    const payment = await engine.stored(request.paymentId);
    return payment && lateSuccessAlert(request, payment.reservationId);
  };
  // Money the guest may be owed, found by this desk's engine: one request in the center's queue, whichever desk writes it.
  // The desk that abandoned a payment that succeeded after all is alerted once: by the write here, or by the center's feed.
  engine.whenRefundNeeded(async (needed) => {
    const written = await requests.addOnce({
      id: systemRequestId(needed.origin, needed.paymentId),
      paymentId: needed.paymentId,
      amountCents: needed.amountCents,
      currency: Currency.parse(needed.currency.toLowerCase()),
      // A late success is a second charge for what the replacement paid: `duplicate`. A difference confirmed is money the
      // guest never agreed to pay, owed back to them: not a duplicate, a fraud or a cancellation, so `requested_by_customer`.
      reason: needed.origin === 'late_success' ? 'duplicate' : 'requested_by_customer',
      note: undefined,
      requestedBy: needed.operatorId,
      requestedAt: new Date(engine.now()).toISOString(),
      origin: needed.origin,
      ...(needed.linkedPaymentId === undefined ? {} : { linkedPaymentId: needed.linkedPaymentId }),
      ...(needed.alertDeskId === undefined ? {} : { alertDeskId: needed.alertDeskId }),
    });
    if (written === undefined) return;
    record({
      actor: 'system',
      action: 'refund.request',
      outcome: 'ok',
      resource: needed.paymentId,
      details: {
        requestId: written.id,
        origin: needed.origin,
        amountCents: needed.amountCents,
        currency: needed.currency,
        reason: written.reason,
        ...(needed.linkedPaymentId === undefined ? {} : { linkedPaymentId: needed.linkedPaymentId }),
      },
    });
    if (written.origin !== 'late_success' || written.alertDeskId !== identity.deskId) return;
    emit('payments:lateSuccess', lateSuccessAlert(written, needed.reservationId));
  });
  // This desk's own requests reach its windows at once; the other desks' come through the center's live feed.
  const stop = requests.onChange((change, request) => {
    emit('refunds:changed', change);
    // Decided or settled here: the agent who asked at this desk hears what became of it.
    if (request.status === 'pending' || request.deskId !== identity.deskId) return;
    void engine
      .stored(request.paymentId)
      .then((payment) => {
        const outcome = refundOutcome(request, payment, identity.deskId);
        if (outcome !== undefined) emit('refunds:outcome', outcome);
      })
      .catch(onError);
  });
  const refundLimits = deps.options.refundLimits ?? DEFAULT_REFUND_LIMITS;
  const { directory, journal, reservationSource } = deps;
  const desk = new RefundDesk({
    engine,
    requests,
    limits: () => refundLimits,
    history: journal,
    timeZone: deps.timeZone,
    records: {
      payments: (ids) => journal.payments(ids),
      // A reservation source that cannot answer now leaves the guest unnamed; the queue is still shown.
      guestName: async (reservationId) =>
        (await reservationSource.get(reservationId).catch(() => undefined))?.guestName,
      operatorNames: (operatorIds) => directory.displayNames(operatorIds),
    },
    // Counted per approver for the whole center, never on the supervisor's own sign-in.
    verifyApprover: async (id, password) => {
      const result = await directory.verifyOverride(id, password);
      if (result.ok)
        return { approver: result.operator, ...(result.ticket === undefined ? {} : { ticket: result.ticket }) };
      if (result.reason === 'override_paused') return { pausedForMs: result.pausedForMs };
      throw signInError(result);
    },
  });
  return {
    requests,
    desk,
    // Its only write while pending is the one that put it in the queue: a decision on it later alerts nobody again.
    readRequest: async (requestId) => {
      const request = await requests.get(requestId);
      return request && alertFor(request);
    },
    // Decided or settled at another desk: the agent who asked here hears what became of it.
    readOutcome: async (requestId) => {
      const request = await requests.get(requestId);
      // Pending, or asked at another desk: nothing to tell here, and its payment is not read.
      if (request === undefined || request.status === 'pending' || request.deskId !== identity.deskId) return undefined;
      return refundOutcome(request, await engine.stored(request.paymentId), identity.deskId);
    },
    lateSuccesses: async () => {
      const alerts = await Promise.all((await requests.list('pending')).map(alertFor));
      return alerts.filter((a) => a !== undefined);
    },
    stop,
  };
}
