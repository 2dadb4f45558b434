// Calls through the door as the renderer makes them: what the screen showed goes with a charge or a refund.
import type { IpcError } from '../../shared/ipc';

type Dispatched = { ok: true; value: unknown } | { ok: false; error: IpcError };

/** The payment of each refund request asked for through here (the agent's screen knows it: it asked). */
const requested = new Map<string, string>();

/**
 * A call as the renderer makes it: a charge names the reservation's charges of today the screen shows (the overview's
 * `chargedToday`), a refund the payment's refunds on screen and the supervisor's refund or approval the amount its
 * confirmation named (the request's, or all that is left now) — unless the test gives them itself (what a screen that
 * showed other things would send).
 */
export async function asTheScreen(
  dispatch: (channel: string, input: unknown) => Promise<Dispatched>,
  channel: string,
  input: unknown,
): Promise<Dispatched> {
  const given = (input ?? {}) as Record<string, unknown>;
  if (
    channel === 'payments:pay' &&
    given['acknowledgedPaymentIds'] === undefined &&
    typeof given['reservationId'] === 'string'
  ) {
    const overview = await dispatch('reservations:overview', { reservationId: given['reservationId'] });
    const shown = overview.ok
      ? ((overview.value as { chargedToday?: { paymentId: string }[] }).chargedToday ?? []).map((c) => c.paymentId)
      : [];
    return dispatch(channel, { ...given, acknowledgedPaymentIds: shown });
  }
  const refunding = channel === 'refunds:create' || channel === 'refunds:approve' || channel === 'refunds:override';
  // The supervisor's refund and approval name the amount their confirmation showed (undefined given: a screen that did not).
  const confirming =
    (channel === 'refunds:create' || channel === 'refunds:approve') && !('expectedAmountCents' in given);
  if (refunding && (given['acknowledgedRefundIds'] === undefined || confirming)) {
    let paymentId = typeof given['paymentId'] === 'string' ? given['paymentId'] : undefined;
    let askedCents = typeof given['amountCents'] === 'number' ? given['amountCents'] : undefined;
    if (paymentId === undefined && typeof given['requestId'] === 'string')
      paymentId = requested.get(given['requestId']);
    if (typeof given['requestId'] === 'string' && (paymentId === undefined || confirming)) {
      const queue = await dispatch('refunds:queue', { status: 'all' });
      const request = queue.ok
        ? (queue.value as { requests: { id: string; paymentId: string; amountCents?: number }[] }).requests.find(
            (r) => r.id === given['requestId'],
          )
        : undefined;
      paymentId ??= request?.paymentId;
      askedCents = request?.amountCents;
    }
    const payment = paymentId === undefined ? undefined : await dispatch('payments:get', { paymentId });
    const read = payment?.ok ? (payment.value as { refunds: { id: string }[]; refundableCents: number }) : undefined;
    const shown = read?.refunds.map((r) => r.id) ?? [];
    const expected =
      confirming && read !== undefined ? { expectedAmountCents: askedCents ?? read.refundableCents } : {};
    return dispatch(channel, { ...given, acknowledgedRefundIds: given['acknowledgedRefundIds'] ?? shown, ...expected });
  }
  if (channel === 'refunds:request' && typeof given['requestId'] === 'string' && typeof given['paymentId'] === 'string')
    requested.set(given['requestId'], given['paymentId']);
  return dispatch(channel, input);
}
