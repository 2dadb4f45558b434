// @vitest-environment happy-dom
// The supervisor's refund of a payment in a DOM, against a fake of main (support/bridge.ts): it takes one confirmation
// whose question and key name the amount; the first press of "Refund" and a reflex Enter send nothing.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { PaymentView } from '../../../../../shared/ipc/views';
import { installFakeMain } from '../../../support/bridge';
import { renderWithData } from '../../../support/render';

const main = installFakeMain();
const { PaymentDetail } = await import('../../../../../renderer/src/features/payments/ui/PaymentDetail');

const paymentId = `pay_${'a'.repeat(24)}9d21f5a0`;
const payment: PaymentView = {
  id: paymentId,
  reservationId: 'SJD-4X6Y9Z',
  status: 'succeeded',
  amountCents: 89_999,
  currency: 'mxn',
  methodId: `pm_${'b'.repeat(24)}`,
  availableInstallments: [],
  hasChallengeLink: false,
  refunds: [],
  refundableCents: 89_999,
  createdAt: '2026-11-27T21:56:00Z',
};

describe('PaymentDetail: the supervisor refunds', () => {
  it('all that is left only after one confirmation naming the amount, sent as the amount confirmed', async () => {
    main.reset();
    main.answer('payments:get', () => payment);
    main.answer('refunds:requestsFor', () => ({ requests: [] }));
    main.answer('refunds:limits', () => ({ limits: [] }));
    main.answer('refunds:create', () => new Promise(() => undefined));
    renderWithData('es-MX', <PaymentDetail paymentId={paymentId} role="supervisor" onClose={() => undefined} />);
    const form = await screen.findByRole('form', { name: 'Reembolsar este pago' });
    fireEvent.change(within(form).getByLabelText('Motivo'), { target: { value: 'cancellation' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Reembolsar' }));

    const step = await screen.findByRole('region', { name: 'Confirme el reembolso' });
    expect(main.sent.filter((s) => s.channel === 'refunds:create')).toHaveLength(0);
    const question = '¿Reembolsar $899.99 MXN del pago 9D21-F5A0, reservación SJD-4X6Y9Z?';
    expect(document.activeElement?.textContent).toBe(question);
    fireEvent.keyDown(document.activeElement as Element, { key: 'Enter' });
    expect(main.sent.filter((s) => s.channel === 'refunds:create')).toHaveLength(0);

    fireEvent.click(within(step).getByRole('button', { name: 'Reembolsar $899.99 MXN' }));
    await waitFor(() => expect(main.sent.filter((s) => s.channel === 'refunds:create')).toHaveLength(1));
    expect(main.sent.find((s) => s.channel === 'refunds:create')?.input).toMatchObject({
      paymentId,
      reason: 'cancellation',
      expectedAmountCents: 89_999,
      acknowledgedRefundIds: [],
    });
  });
});
