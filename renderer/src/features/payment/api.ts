// The payment on the call through the bridge: the payment as main reports it (kept current by main's events), the card's
// tokenization, the charge, "Check again", the MSI confirmation and amount update, the 3DS link with its delivery, and
// "Abandon and use another card".
// The hooks own the operation ids (kept in the call's store), what each answer marks stale, and the event subscriptions.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { QueryClient, UseMutationResult, UseQueryResult } from '@tanstack/react-query';
import { useCallback, useEffect, useEffectEvent, useState } from 'react';
import type { EventPayload, Input, Output } from '../../../../shared/ipc';
import type { MethodView, PaymentView } from '../../../../shared/ipc/views';
import type { DeliveryResult } from '../../../../shared/messaging';
import type { CardInput } from '../../../../shared/payments/card';
import type { ReservationView } from '../../../../shared/reservations';
import { followsPayment } from '../../bridge/cache';
import { bridge, hasBridge, unwrap } from '../../bridge/client';
import { isRetryable } from '../../bridge/errors';
import { callKeys, useCall } from '../call';
import { useLiveEvent, useLiveWatch } from '../live';

export const paymentKeys = {
  all: ['payments'] as const,
  detail: (id: string) => ['payments', id] as const,
};

/**
 * A payment as main last reported it; main follows it and pushes every change (usePaymentEvents), those made at another
 * desk of the center too while it is on screen (its reservation watched); read again when the live feed is back.
 */
export function usePayment(id: string | undefined): UseQueryResult<PaymentView> {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: paymentKeys.detail(id ?? ''),
    queryFn: () => unwrap(bridge().payments.get({ paymentId: id ?? '' })),
    enabled: id !== undefined,
    staleTime: Number.POSITIVE_INFINITY,
  });
  useLiveWatch({ reservation: query.data?.reservationId });
  useLiveEvent('live:resync', () => {
    if (id !== undefined) void queryClient.invalidateQueries({ queryKey: paymentKeys.detail(id) });
  });
  return query;
}

/**
 * Puts a payment main answered or pushed into the cache, and marks stale every query that follows it (its reservation's
 * overview, payment searches, its refund requests: see bridge/cache.ts).
 */
export function storePayment(queryClient: QueryClient, payment: PaymentView): void {
  queryClient.setQueryData(paymentKeys.detail(payment.id), payment);
  void queryClient.invalidateQueries({ predicate: (query) => followsPayment(query, payment) });
}

/** Main follows the payment (its status, its refunds) and reports each change as a `payments:changed` event. */
export function watchPayment(paymentId: string): void {
  void bridge().payments.watch({ paymentId });
}

/** Keeps following a payment while `active` (a refund still pending when the payment is opened). */
export function useWatchPayment(paymentId: string, active: boolean): void {
  useEffect(() => {
    if (active) watchPayment(paymentId);
  }, [active, paymentId]);
}

/** Subscribes the cache to main's `payments:changed` events while mounted. */
export function usePaymentEvents(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!hasBridge) return;
    return bridge().events.on('payments:changed', (payment) => storePayment(queryClient, payment));
  }, [queryClient]);
}

/** An abandoned payment that went through after all, as main alerted this desk (the desk that abandoned it). */
export type LateSuccess = EventPayload<'payments:lateSuccess'>;

/**
 * The alerts of abandoned payments that went through after all, kept while the workspace is up until the agent
 * dismisses each: those main tells this desk while it is open, and those still pending when it opens (found while the
 * desk was closed or before its window was).
 */
export function useLateSuccesses(): { alerts: LateSuccess[]; dismiss: (paymentId: string) => void } {
  const [alerts, setAlerts] = useState<LateSuccess[]>([]);
  useEffect(() => {
    if (!hasBridge) return;
    const add = (found: readonly LateSuccess[]): void =>
      setAlerts((now) => [
        ...now,
        ...found.filter(
          (alert, i) =>
            !now.some((a) => a.paymentId === alert.paymentId) &&
            found.findIndex((f) => f.paymentId === alert.paymentId) === i,
        ),
      ]);
    const stop = bridge().events.on('payments:lateSuccess', (alert) => add([alert]));
    void unwrap(bridge().payments.lateSuccesses({})).then(
      ({ alerts: pending }) => add(pending),
      () => undefined,
    );
    return stop;
  }, []);
  const dismiss = useCallback(
    (paymentId: string) => setAlerts((now) => now.filter((a) => a.paymentId !== paymentId)),
    [],
  );
  return { alerts, dismiss };
}

/** Content protection follows the card form: on while it holds card data, off when it is emptied or gone. */
export function protectCardData(active: boolean): void {
  void bridge().window.protectCardData({ active });
}

/**
 * Tokenization, with this call's tokenize operation id (a new one after every answer: the card is never kept, so a
 * tokenization is never sent again). A plain function, not a useMutation: react-query keeps a mutation's variables in its
 * cache and in the caller's state, and the card must be kept nowhere (the card form drops it as soon as it is sent).
 */
export function useTokenize(
  reservation: Pick<ReservationView, 'confirmationNumber' | 'guestEmail'>,
): (card: CardInput) => Promise<MethodView> {
  const { confirmationNumber, guestEmail } = reservation;
  return useCallback(
    async (card: CardInput) => {
      try {
        const method = await unwrap(
          bridge().payments.tokenize({
            operationId: useCall.getState().tokenizeOperationId,
            card,
            reservationId: confirmationNumber,
            ...(guestEmail === undefined ? {} : { guestEmail }),
          }),
        );
        useCall.getState().cardKeyed(method.id, method);
        return method;
      } finally {
        // Answered either way: the next one (another card, a corrected number) is a new operation.
        useCall.getState().tokenizeAnswered();
      }
    },
    [confirmationNumber, guestEmail],
  );
}

export type PayVariables = Omit<Input<'payments:pay'>, 'operationId' | 'reservationId'>;

/**
 * A charge (a new card's method or a saved one) on the reservation, with this call's pay operation id: a retry of the
 * same charge reuses it. Refused for good, the next charge is a new operation. An answer that may be lost keeps the id;
 * main then lists the attempt on the reservation, whose overview (read again) shows it with "Check again".
 */
export function usePay(reservationId: string): UseMutationResult<PaymentView, Error, PayVariables> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (variables: PayVariables) => {
      try {
        return await unwrap(
          bridge().payments.pay({ operationId: useCall.getState().payOperationId, ...variables, reservationId }),
        );
      } catch (error) {
        if (!isRetryable(error)) useCall.getState().payRefused();
        throw error;
      }
    },
    onSuccess: (payment) => {
      storePayment(queryClient, payment);
      useCall.getState().paymentStarted(payment.id);
      watchPayment(payment.id);
    },
    onError: () => {
      void queryClient.invalidateQueries({ queryKey: callKeys.overview(reservationId) });
    },
  });
}

export const recoveredKeys = { mine: ['payments', 'recovered'] as const };

/** What main completed after a restart that the signed-in operator has not acknowledged: read at sign-in and unlock. */
export function useRecovered(): UseQueryResult<Output<'payments:recovered'>['notices']> {
  return useQuery({
    queryKey: recoveredKeys.mine,
    queryFn: async () => (await unwrap(bridge().payments.recovered({}))).notices,
    staleTime: 0,
  });
}

/** The operator has read these notices: they are not shown again, and the reservations' overviews are read again. */
export function useAcknowledgeRecovered(): UseMutationResult<
  Output<'payments:acknowledgeRecovered'>,
  Error,
  { noticeIds: string[] }
> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (variables: { noticeIds: string[] }) => unwrap(bridge().payments.acknowledgeRecovered(variables)),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: recoveredKeys.mine });
      void queryClient.invalidateQueries({ queryKey: callKeys.all });
    },
  });
}

/**
 * "Abandon and use another card": main leaves the waiting payment to expire on the service, once the service says it did
 * not succeed. Answered, the payment leaves the reservation's payments in progress at once (the overview is read again
 * too) and a new attempt starts with what the agent typed.
 */
export function useAbandon(reservationId: string): UseMutationResult<PaymentView, Error, { paymentId: string }> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ paymentId }: { paymentId: string }) => unwrap(bridge().payments.abandon({ paymentId })),
    onSuccess: (payment) => {
      queryClient.setQueryData<Output<'reservations:overview'>>(callKeys.overview(reservationId), (overview) =>
        overview === undefined
          ? undefined
          : { ...overview, inProgress: overview.inProgress?.filter((live) => live.paymentId !== payment.id) },
      );
      storePayment(queryClient, payment);
      if (useCall.getState().paymentId === payment.id) useCall.getState().newAttempt();
    },
  });
}

/** An attempt whose answer never came, sent again by main with its own key (never a new payment). */
export function useCheckAgain(
  reservationId: string,
): UseMutationResult<Output<'payments:checkAgain'>, Error, { operationId: string }> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (variables: { operationId: string }) => unwrap(bridge().payments.checkAgain(variables)),
    onSuccess: (check) => {
      if (check.state !== 'answered') return;
      storePayment(queryClient, check.payment);
      useCall.getState().paymentStarted(check.payment.id);
      watchPayment(check.payment.id);
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: callKeys.overview(reservationId) });
    },
  });
}

/** A supervisor's word on an attempt never answered in the service's window: the reservation's overview is read again. */
export function useResolveAttempt(
  reservationId: string,
): UseMutationResult<Output<'payments:resolveAttempt'>, Error, Input<'payments:resolveAttempt'>> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (variables: Input<'payments:resolveAttempt'>) => unwrap(bridge().payments.resolveAttempt(variables)),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: callKeys.overview(reservationId) });
    },
  });
}

export type ConfirmVariables = Omit<Input<'payments:confirm'>, 'paymentId'>;

/** MSI: the plan chosen (or a single payment), with the amount on the screen (main refuses another). */
export function useConfirmPlan(paymentId: string): UseMutationResult<PaymentView, Error, ConfirmVariables> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (variables: ConfirmVariables) => unwrap(bridge().payments.confirm({ paymentId, ...variables })),
    onSuccess: (payment) => storePayment(queryClient, payment),
  });
}

/** MSI: a new amount before confirmation (the plans offered may change). */
export function useUpdateAmount(
  paymentId: string,
): UseMutationResult<PaymentView, Error, Omit<Input<'payments:updateAmount'>, 'paymentId'>> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (variables: Omit<Input<'payments:updateAmount'>, 'paymentId'>) =>
      unwrap(bridge().payments.updateAmount({ paymentId, ...variables })),
    onSuccess: (payment) => storePayment(queryClient, payment),
  });
}

export type SendLinkVariables = Omit<Input<'messaging:sendLink'>, 'paymentId'>;

/** The 3DS link to the guest's own device; main may ask to confirm a quick re-send (`confirm_resend`). */
export function useSendLink(
  paymentId: string,
): UseMutationResult<Output<'messaging:sendLink'>, Error, SendLinkVariables> {
  return useMutation({
    mutationFn: (variables: SendLinkVariables) => unwrap(bridge().messaging.sendLink({ paymentId, ...variables })),
  });
}

/** Each new status main reports for the payment's messages (queued → sent → delivered, or failed). */
export function useDeliveryUpdates(paymentId: string, onUpdate: (update: DeliveryResult) => void): void {
  const handle = useEffectEvent(onUpdate);
  useEffect(
    () =>
      bridge().events.on('messaging:delivery', (update) => {
        if (update.paymentId === paymentId) handle(update);
      }),
    [paymentId],
  );
}

export type SendReceiptVariables = Omit<Input<'messaging:sendReceipt'>, 'paymentId'>;

/** A succeeded payment's receipt to the guest (SMS or e-mail, in the guest's language); main answers its first status. */
export function useSendReceipt(
  paymentId: string,
): UseMutationResult<Output<'messaging:sendReceipt'>, Error, SendReceiptVariables> {
  return useMutation({
    mutationFn: (variables: SendReceiptVariables) =>
      unwrap(bridge().messaging.sendReceipt({ paymentId, ...variables })),
  });
}
