// @vitest-environment happy-dom
// MSI plans in a DOM, against a fake of main (support/bridge.ts: Electron's IPC cannot run in a unit test): no plan is
// chosen beforehand, so Enter confirms nothing until the agent chooses one with the guest.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PaymentView } from '../../../../../shared/ipc/views';
import { installFakeMain } from '../../../support/bridge';
import { renderWithData } from '../../../support/render';

const PAYMENT: PaymentView = {
  id: `pay_${'d'.repeat(32)}`,
  reservationId: 'CUN-7F3K2A',
  status: 'pending_confirmation',
  amountCents: 1245000,
  currency: 'mxn',
  methodId: `mth_${'e'.repeat(32)}`,
  availableInstallments: [3, 6, 12],
  hasChallengeLink: false,
  refunds: [],
  refundableCents: 0,
  createdAt: new Date().toISOString(),
  expiresAt: new Date(Date.now() + 15 * 60_000).toISOString(),
};

const main = installFakeMain();
const { Plans } = await import('../../../../../renderer/src/features/payment/ui/Plans');

beforeEach(() => main.reset());

const confirms = () => main.sent.filter((call) => call.channel === 'payments:confirm');

describe('Plans', () => {
  it('no plan is preselected; Enter says to choose one and sends nothing; the chosen plan is then confirmed', async () => {
    const user = userEvent.setup();
    main.answer('payments:confirm', () => ({ ...PAYMENT, status: 'processing' }));
    renderWithData('en-US', <Plans payment={PAYMENT} />);
    for (const radio of screen.getAllByRole<HTMLInputElement>('radio')) expect(radio.checked).toBe(false);

    screen.getByRole('button', { name: 'Confirm payment' }).focus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('alert').textContent).toBe(
      'Choose a plan with the guest, or one payment, before confirming.',
    );
    expect(document.activeElement).toBe(screen.getByRole('radio', { name: /^3 months of/ }));
    expect(confirms()).toHaveLength(0);

    await user.click(screen.getByRole('radio', { name: /^6 months of/ }));
    await user.click(screen.getByRole('button', { name: 'Confirm payment' }));
    await waitFor(() => expect(confirms()).toHaveLength(1));
    expect(confirms()[0]?.input).toEqual({ paymentId: PAYMENT.id, expectedAmountCents: 1245000, installmentsCount: 6 });
  });

  it('a new amount above what the reservation owes besides this payment is sent only once the confirmation naming both is ticked', async () => {
    const user = userEvent.setup();
    main.answer('payments:updateAmount', () => PAYMENT);
    // 12,450.00 owed at the source, this payment of 12,450.00 taken: 12,450.00 owed besides it.
    const balance = {
      sourceBalanceCents: 1245000,
      takenCents: 1245000,
      refundedCents: 0,
      reopenedCents: 0,
      owedCents: 0,
      overpaidCents: 0,
      closed: false,
      currency: 'mxn',
      chargedToday: [],
    };
    renderWithData('es-MX', <Plans payment={PAYMENT} balance={balance} />);
    const amount = screen.getByRole('textbox', { name: 'Cambiar el monto' });
    await user.clear(amount);
    await user.type(amount, '124500{Enter}');
    const updates = () => main.sent.filter((call) => call.channel === 'payments:updateAmount');
    expect(screen.getByRole('alert').textContent).toBe(
      '$124,500.00 MXN es más de los $12,450.00 MXN que aún debe esta reservación. Revise el monto con el huésped.',
    );
    const confirm = screen.getByRole<HTMLInputElement>('checkbox', {
      name: 'Confirmo cobrar $124,500.00 MXN, aunque solo se deben $12,450.00 MXN',
    });
    expect(document.activeElement).toBe(confirm);
    expect(confirm.checked).toBe(false);
    expect(updates()).toHaveLength(0);
    await user.keyboard(' ');
    await user.click(screen.getByRole('button', { name: 'Actualizar monto' }));
    await waitFor(() => expect(updates()).toHaveLength(1));
    expect(updates()[0]?.input).toEqual({
      paymentId: PAYMENT.id,
      amountCents: 12450000,
      overBalance: { owedCents: 1245000, amountCents: 12450000 },
    });
  });

  it('shows how long it has waited and offers "Abandon and use another card"', () => {
    renderWithData('en-US', <Plans payment={PAYMENT} />);
    expect(screen.getByText(/^Waiting \d\d:\d\d$/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Abandon and use another card' })).toBeTruthy();
  });
});
