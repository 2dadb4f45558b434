// Training mode through the bridge: the outbox of messages the desk "sent" (captured, never delivered), and the trainee
// playing the cardholder (approve or decline the 3DS link), after which the payment is read at once.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { UseMutationResult, UseQueryResult } from '@tanstack/react-query';
import type { OutboxMessageView } from '../../../../shared/messaging';
import { bridge, unwrap } from '../../bridge/client';
import { paymentKeys, storePayment } from '../payment';

export const trainingKeys = {
  outbox: ['messaging', 'outbox'] as const,
};

/** The captured messages, read again every 1.5 s. */
export function useOutbox(): UseQueryResult<OutboxMessageView[]> {
  return useQuery({
    queryKey: trainingKeys.outbox,
    queryFn: async () => (await unwrap(bridge().messaging.outbox({}))).messages,
    refetchInterval: 1500,
  });
}

export interface PlayVariables {
  message: Pick<OutboxMessageView, 'id' | 'paymentId'>;
  answer: 'approve' | 'decline';
}

export function usePlayCardholder(): UseMutationResult<void, Error, PlayVariables> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ message, answer }: PlayVariables) => {
      await unwrap(bridge().messaging.playCardholder({ messageId: message.id, answer }));
      void queryClient.invalidateQueries({ queryKey: trainingKeys.outbox });
      // The payment moves on in main; read it now rather than at the next scheduled check.
      storePayment(queryClient, await unwrap(bridge().payments.get({ paymentId: message.paymentId })));
      void queryClient.invalidateQueries({ queryKey: paymentKeys.detail(message.paymentId) });
    },
  });
}
