// Refunds through the bridge: a supervisor's refund, an agent's request (approved now by a supervisor's override, or
// later from the approvals queue), the queue, a payment's requests and the roles' limits. The hooks own the attempt ids
// (one per attempt, kept in the call's store until main answers it), what each answer marks stale, and the payment
// follow-up (main watches the refunded payment and pushes its changes).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { UseMutationResult, UseQueryResult } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { RefundLimitView, RefundRequestView } from '../../../../shared/desk';
import type { Output, Result } from '../../../../shared/ipc';
import type { PaymentView, RefundQueueItem } from '../../../../shared/ipc/views';
import type { RefundReason } from '../../../../shared/payments';
import { follows } from '../../bridge/cache';
import { bridge, unwrap } from '../../bridge/client';
import { isRetryable } from '../../bridge/errors';
import type { Secret } from '../../bridge/secret';
import { useCall } from '../call';
import { useLiveEvent, useLiveWatch } from '../live';
import { paymentKeys, storePayment, watchPayment } from '../payment';

/** How long the queue waits after a pushed change before reading the center again (the changes meanwhile come with it). */
const QUEUE_READ_MS = 300;

export const refundKeys = {
  /** Every list of refund requests (the queue, a payment's). */
  requests: ['refund-requests'] as const,
  queue: (status: 'pending' | 'all') => ['refund-requests', 'queue', status] as const,
  requestsFor: (paymentId: string) => ['refund-requests', 'for', paymentId] as const,
  limits: ['refund-limits'] as const,
  /** A supervisor's approval or rejection from the queue, while main answers it. */
  decision: ['refund-decision'] as const,
};

/**
 * The approvals queue (pending requests, or all of them), read again when main says a request changed (here, or at another
 * desk of the center: pushed, never polled) and when the center's live feed is back after a loss.
 */
export function useRefundQueue(status: 'pending' | 'all'): UseQueryResult<RefundQueueItem[]> {
  const queryClient = useQueryClient();
  useLiveWatch({ queue: true });
  const pending = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(pending.current), []);
  // The changes of a moment (a center's desks asking, approving and settling at once) are read in one go, QUEUE_READ_MS
  // after the first: every supervisor's queue reads the center once for them, not once each.
  const read = (): void => {
    // A decision of this window on its way keeps its row (its answer, or its refusal in words, is shown there): the read
    // waits for it to be answered, whatever the answer (a refusal reads nothing else), and is never dropped.
    if (queryClient.isMutating({ mutationKey: refundKeys.decision }) > 0) {
      pending.current = setTimeout(read, QUEUE_READ_MS);
      return;
    }
    pending.current = undefined;
    void queryClient.invalidateQueries({ queryKey: refundKeys.requests });
  };
  const readAgain = (): void => {
    if (pending.current === undefined) pending.current = setTimeout(read, QUEUE_READ_MS);
  };
  useLiveEvent('refunds:changed', readAgain);
  useLiveEvent('live:resync', readAgain);
  return useQuery({
    queryKey: refundKeys.queue(status),
    queryFn: async () => (await unwrap(bridge().refunds.queue({ status }))).requests,
    staleTime: 0,
  });
}

/**
 * The refund requests made for a payment, and what became of them; read again whenever the payment changes, one of its
 * requests is decided (here or at another desk), or the center's live feed is back.
 */
export function useRequestsFor(paymentId: string | undefined): UseQueryResult<RefundRequestView[]> {
  const queryClient = useQueryClient();
  const readAgain = (): void =>
    void queryClient.invalidateQueries({ queryKey: refundKeys.requestsFor(paymentId ?? '') });
  useLiveEvent('refunds:changed', (change) => {
    if (change.paymentId === paymentId) readAgain();
  });
  useLiveEvent('live:resync', readAgain);
  return useQuery({
    queryKey: refundKeys.requestsFor(paymentId ?? ''),
    queryFn: async () => (await unwrap(bridge().refunds.requestsFor({ paymentId: paymentId ?? '' }))).requests,
    enabled: paymentId !== undefined,
    staleTime: 0,
    ...follows({ payment: paymentId ?? '' }),
  });
}

/** The refund caps of each role and currency (the form's hint). */
export function useRefundLimits(): UseQueryResult<RefundLimitView[]> {
  return useQuery({
    queryKey: refundKeys.limits,
    queryFn: async () => (await unwrap(bridge().refunds.limits({}))).limits,
    staleTime: 60_000,
  });
}

/** A refund as the forms send it: `amountCents` undefined for all that is left. */
export interface RefundVariables {
  reason: RefundReason;
  amountCents: number | undefined;
}

/**
 * Sends an attempt in its slot with the slot's id and reads main's answer: the same id until main answers it (a retry
 * after a lost answer cannot refund twice); answered, or refused for good, the next attempt gets a new id.
 */
async function attempt<T>(slot: string, send: (id: string) => Promise<Result<T>>): Promise<T> {
  const call = useCall.getState();
  try {
    const answer = await unwrap(send(call.attemptId(slot)));
    call.attemptAnswered(slot);
    return answer;
  } catch (error) {
    if (!isRetryable(error)) call.attemptAnswered(slot);
    throw error;
  }
}

/** A refund as main's channels take it: the payment, the reason, and the amount unless it is all that is left. */
const refundOf = (
  paymentId: string,
  { reason, amountCents }: RefundVariables,
): { paymentId: string; reason: RefundReason; amountCents?: number } => ({
  paymentId,
  reason,
  ...(amountCents === undefined ? {} : { amountCents }),
});

/**
 * The payment's refunds on screen (the payment as main last reported it, which the refund forms and the queue show):
 * a new refund names them as shown, and main refuses it while a refund made is not among them.
 */
function shownRefunds(queryClient: ReturnType<typeof useQueryClient>, paymentId: string): string[] {
  return (queryClient.getQueryData<PaymentView>(paymentKeys.detail(paymentId))?.refunds ?? []).map(
    (refund) => refund.id,
  );
}

/** A refund the operator confirmed: `expectedAmountCents` is the amount the confirmation named (main refuses another). */
export type ConfirmedRefund = RefundVariables & { expectedAmountCents: number };

/** The supervisor's refund of a payment, as confirmed; main follows the refund to its result. */
export function useRefund(paymentId: string): UseMutationResult<PaymentView, Error, ConfirmedRefund> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ expectedAmountCents, ...refund }: ConfirmedRefund) =>
      attempt(`refund:${paymentId}`, (operationId) =>
        bridge().refunds.create({
          operationId,
          ...refundOf(paymentId, refund),
          expectedAmountCents,
          acknowledgedRefundIds: shownRefunds(queryClient, paymentId),
        }),
      ),
    onSuccess: (payment) => {
      storePayment(queryClient, payment);
      watchPayment(paymentId);
    },
  });
}

/** The agent's request for a refund, for a supervisor to approve. */
export function useRequestRefund(
  paymentId: string,
): UseMutationResult<RefundRequestView, Error, RefundVariables & { note: string | undefined }> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ note, ...refund }: RefundVariables & { note: string | undefined }) =>
      attempt(`request:${paymentId}`, (requestId) =>
        bridge().refunds.request({
          requestId,
          ...refundOf(paymentId, refund),
          ...(note === undefined ? {} : { note }),
        }),
      ),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: refundKeys.requestsFor(paymentId) });
    },
  });
}

/** Main's answer to an approval: the request as decided, and the payment with its new refund. */
type Decided = Output<'refunds:approve'>;

function useDecided(): (answer: Decided) => void {
  const queryClient = useQueryClient();
  return (answer) => {
    storePayment(queryClient, answer.payment);
    watchPayment(answer.payment.id);
  };
}

/**
 * A supervisor approves the request on the agent's screen with their own id and password (manager override). The
 * password travels in a Secret, emptied when the call is made: react-query keeps a mutation's variables.
 */
export function useOverrideRefund(
  requestId: string,
  paymentId: string,
): UseMutationResult<Output<'refunds:override'>, Error, { approverId: string; approverPassword: Secret }> {
  const queryClient = useQueryClient();
  const decided = useDecided();
  return useMutation({
    mutationFn: ({ approverId, approverPassword }: { approverId: string; approverPassword: Secret }) =>
      unwrap(
        bridge().refunds.override({
          requestId,
          approverId,
          approverPassword: approverPassword.take(),
          acknowledgedRefundIds: shownRefunds(queryClient, paymentId),
        }),
      ),
    onSuccess: decided,
  });
}

/**
 * The queue: a supervisor approves a request as the approval step showed it (the refund is sent at once): the amount it
 * named, and the payment's refunds it listed (main refuses the approval when either is no longer so).
 */
export function useApproveRequest(
  request: Pick<RefundRequestView, 'id' | 'paymentId'>,
): UseMutationResult<Decided, Error, { expectedAmountCents: number; acknowledgedRefundIds: string[] }> {
  const queryClient = useQueryClient();
  const decided = useDecided();
  return useMutation({
    mutationKey: refundKeys.decision,
    mutationFn: ({
      expectedAmountCents,
      acknowledgedRefundIds,
    }: {
      expectedAmountCents: number;
      acknowledgedRefundIds: string[];
    }) => unwrap(bridge().refunds.approve({ requestId: request.id, acknowledgedRefundIds, expectedAmountCents })),
    onSuccess: (answer) => {
      decided(answer);
      void queryClient.invalidateQueries({ queryKey: refundKeys.requests });
    },
    onError: () => {
      // Refused: the queue and the payment's requests are read again (what is left to refund may have changed).
      void queryClient.invalidateQueries({ queryKey: refundKeys.requests });
    },
  });
}

/** The queue: a supervisor rejects a request, with a note for the agent. */
export function useRejectRequest(
  requestId: string,
): UseMutationResult<Output<'refunds:reject'>, Error, { note: string }> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: refundKeys.decision,
    mutationFn: ({ note }: { note: string }) => unwrap(bridge().refunds.reject({ requestId, note })),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: refundKeys.requests });
    },
  });
}
