// @vitest-environment happy-dom
// The agent who asked for a refund hears what became of it, live: approved, then made (with what it means for what the
// booking owes), or rejected with the supervisor's note; one line per request, only their own, until dismissed. The
// window watches the center's feed for them while it is up.
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { installFakeMain } from '../../../support/bridge';
import { renderIn } from '../../../support/render';

const main = installFakeMain();
const { RefundOutcomes } = await import('../../../../../renderer/src/features/live');

const made = {
  requestId: '0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4a',
  paymentId: `pay_${'a'.repeat(24)}1234abcd`,
  reservationId: 'PVR-5J1L3M',
  outcome: 'made' as const,
  amountCents: 89_999,
  currency: 'mxn' as const,
  reason: 'cancellation' as const,
  requestedBy: 'ana',
  decidedBy: 'sam',
};

afterEach(cleanup);

describe('RefundOutcomes', () => {
  it('says in Spanish that the cancellation refund was approved, then made and that the booking is closed, once, until dismissed', async () => {
    main.reset();
    main.answer('live:watch', () => ({ state: 'live' }));
    renderIn('es-MX', <RefundOutcomes operatorId="ana" />);
    expect(
      main.sent.some((s) => s.channel === 'live:watch' && (s.input as { requests?: boolean }).requests === true),
    ).toBe(true);
    act(() => main.emit('refunds:outcome', { ...made, outcome: 'approved' }));
    const shown = await screen.findByRole('status');
    expect(shown.textContent).toContain(
      'sam aprobó el reembolso de $899.99 MXN (Cancelación) de la reservación PVR-5J1L3M, pago 1234-ABCD',
    );
    act(() => {
      main.emit('refunds:outcome', made);
      // A late "approved" never comes back over "made".
      main.emit('refunds:outcome', { ...made, outcome: 'approved' });
    });
    expect(shown.querySelectorAll('li')).toHaveLength(1);
    expect(shown.textContent).toContain('Reembolso hecho: se devolvieron $899.99 MXN');
    expect(shown.textContent).toContain('La reservación queda cerrada: no hay nada por cobrar.');
    fireEvent.click(screen.getByRole('button', { name: 'Entendido' }));
    expect(screen.queryByRole('status')).toBeNull();
  });

  it("in English, a rejection with the supervisor's note; another operator's requests are not shown", async () => {
    main.reset();
    main.answer('live:watch', () => ({ state: 'live' }));
    renderIn('en-US', <RefundOutcomes operatorId="ana" />);
    act(() => {
      main.emit('refunds:outcome', { ...made, requestedBy: 'otro', outcome: 'made' });
      main.emit('refunds:outcome', {
        ...made,
        outcome: 'rejected',
        reason: 'requested_by_customer',
        amountCents: undefined,
        decisionNote: 'Non-refundable rate.',
      });
    });
    const shown = await screen.findByRole('status');
    expect(shown.querySelectorAll('li')).toHaveLength(1);
    expect(shown.textContent).toContain(
      'sam rejected the refund of all that was left (Requested by the guest) on reservation PVR-5J1L3M',
    );
    expect(shown.textContent).toContain('Their note: “Non-refundable rate.”');
  });
});
