// @vitest-environment happy-dom
// The training outbox in a DOM, against a fake of main: the trainee may answer as the cardholder only while the
// payment still waits for them (abandoned by the agent included: the guest may approve it after all); once it is settled
// (paid, declined, expired) the outbox says so instead.
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { OutboxMessageView } from '../../../../../shared/messaging';
import type { PaymentView } from '../../../../../shared/ipc/views';
import { installFakeMain } from '../../../support/bridge';
import { renderWithData } from '../../../support/render';

const main = installFakeMain();
const { Outbox } = await import('../../../../../renderer/src/features/training/ui/Outbox');

const message = (paymentId: string): OutboxMessageView => ({
  id: `msg_${paymentId.slice(-32)}`,
  paymentId,
  operatorId: 'ana',
  channel: 'sms',
  to: '+52 998 123 4567',
  language: 'es-MX',
  text: 'Hotel: confirme su pago de $1,199.99 MXN en https://pay.example/x',
  createdAt: '2026-11-27T16:00:00.000Z',
  cardholder: 'waiting',
});
const SETTLED = `pay_${'a'.repeat(32)}`;
const WAITING = `pay_${'b'.repeat(32)}`;
const ABANDONED = `pay_${'c'.repeat(32)}`;
const payment = (id: string, status: PaymentView['status']): PaymentView =>
  ({
    id,
    status,
    amountCents: 119_999,
    currency: 'mxn',
    reservationId: 'CUN-6B3D8F',
    createdAt: '2026-11-27T16:00:00.000Z',
    refunds: [],
  }) as unknown as PaymentView;

describe('Outbox', () => {
  it('offers approve and decline only while the payment waits for the cardholder', async () => {
    main.reset();
    main.answer('messaging:outbox', () => ({ messages: [message(SETTLED), message(WAITING), message(ABANDONED)] }));
    main.answer('payments:get', (input) => {
      const id = (input as { paymentId: string }).paymentId;
      const view = payment(id, id === SETTLED ? 'succeeded' : 'requires_action');
      return id === ABANDONED ? { ...view, abandonedAt: '2026-11-27T16:05:00.000Z' } : view;
    });
    renderWithData('es-MX', <Outbox />);
    const settled = await screen.findByText(/Este pago ya terminó \(Pagado\)/);
    const items = screen.getAllByRole('listitem');
    const [first, second, third] = items;
    expect(first?.contains(settled)).toBe(true);
    expect(within(first as HTMLElement).queryByRole('button')).toBeNull();
    expect(
      within(second as HTMLElement)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['El tarjetahabiente aprueba', 'El tarjetahabiente rechaza']);
    // Abandoned while it waited: the guest still holds the link and may approve it after all.
    expect(
      within(third as HTMLElement)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['El tarjetahabiente aprueba', 'El tarjetahabiente rechaza']);
  });
});
