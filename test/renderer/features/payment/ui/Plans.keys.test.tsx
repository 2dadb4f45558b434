// @vitest-environment happy-dom
// MSI plans: an error said before an amount update does not stay after it, and Enter on a plan chooses it and goes to
// "Confirm payment" — a radio never confirms a payment by itself.
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

const sent = (channel: string) => main.sent.filter((call) => call.channel === channel);

describe('Plans, errors and keys', () => {
  it('"choose a plan first" goes once the amount is updated', async () => {
    const user = userEvent.setup();
    main.answer('payments:updateAmount', () => ({ ...PAYMENT, amountCents: 100000, originalAmountCents: 1245000 }));
    renderWithData('en-US', <Plans payment={PAYMENT} />);
    await user.click(screen.getByRole('button', { name: 'Confirm payment' }));
    expect(screen.getByRole('alert').textContent).toBe(
      'Choose a plan with the guest, or one payment, before confirming.',
    );
    const amount = screen.getByRole('textbox', { name: 'Change the amount' });
    await user.clear(amount);
    await user.type(amount, '1000{Enter}');
    await waitFor(() => expect(sent('payments:updateAmount')).toHaveLength(1));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('Enter on a plan chooses it and moves to "Confirm payment", confirming nothing', async () => {
    const user = userEvent.setup();
    main.answer('payments:confirm', () => ({ ...PAYMENT, status: 'processing' }));
    renderWithData('en-US', <Plans payment={PAYMENT} />);
    screen.getByRole('radio', { name: /^6 months of/ }).focus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole<HTMLInputElement>('radio', { name: /^6 months of/ }).checked).toBe(true);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Confirm payment' }));
    expect(sent('payments:confirm')).toHaveLength(0);
    await user.keyboard('{Enter}');
    await waitFor(() => expect(sent('payments:confirm')).toHaveLength(1));
    expect(sent('payments:confirm')[0]?.input).toEqual({
      paymentId: PAYMENT.id,
      expectedAmountCents: 1245000,
      installmentsCount: 6,
    });
  });
});
