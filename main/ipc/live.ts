/** The live panel's payments: a reservation's payments still in progress and not abandoned, with their last 3DS message. */
import type { DeliveryRecordView } from '../../shared/messaging';
import type { LivePaymentView, MethodView, PaymentView } from '../../shared/ipc';
import { LINK_LIFETIME_MS } from '../messaging';

const STATES: Readonly<Record<string, LivePaymentView['state']>> = {
  processing: 'processing',
  requires_action: 'waiting_for_cardholder',
  pending_confirmation: 'waiting_for_plan',
};

/**
 * Each payment processing, waiting for 3-D Secure or waiting for an MSI plan, oldest first. The link's expiry is the
 * service's `expiresAt` when it gave one, else the link's lifetime from when the payment began waiting; a plan choice
 * expires when the service says (its `expiresAt`).
 */
export function livePayments(
  payments: readonly PaymentView[],
  card: (methodId: string) => Pick<MethodView, 'brand' | 'last4'> | undefined,
  history: (paymentId: string) => readonly DeliveryRecordView[],
): LivePaymentView[] {
  return payments.flatMap((payment) => {
    const state = STATES[payment.status];
    // Abandoned while it waited, it is gone from the panel; approved by its cardholder after all, it is being charged.
    if (state === undefined || (payment.abandonedAt !== undefined && state !== 'processing')) return [];
    const waitingSince = payment.updatedAt ?? payment.createdAt;
    const linkExpiry = Date.parse(waitingSince) + LINK_LIFETIME_MS;
    const expiresAt =
      state === 'processing'
        ? undefined
        : (payment.expiresAt ??
          (state === 'waiting_for_cardholder' && !Number.isNaN(linkExpiry)
            ? new Date(linkExpiry).toISOString()
            : undefined));
    const last = [...history(payment.id)].sort((a, b) => a.createdAt.localeCompare(b.createdAt)).at(-1);
    const method = card(payment.methodId);
    return [
      {
        paymentId: payment.id,
        state,
        amountCents: payment.amountCents,
        currency: payment.currency,
        ...(method ? { brand: method.brand, last4: method.last4 } : {}),
        availableInstallments: payment.availableInstallments,
        startedAt: payment.createdAt,
        waitingSince,
        ...(expiresAt === undefined ? {} : { expiresAt }),
        ...(last
          ? { lastLink: { channel: last.channel, to: last.to, status: last.status, sentAt: last.createdAt } }
          : {}),
      },
    ];
  });
}
