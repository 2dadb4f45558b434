// @vitest-environment happy-dom
// An agent's refund request in a DOM, against a fake of main (support/bridge.ts): the request is sent once with the
// amount and reason chosen (by label), one request id per attempt; a supervisor approves it on the same screen, and
// their password reaches main and is then kept nowhere — not in the form, not in react-query's mutation cache.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RefundRequestView } from '../../../../../shared/desk';
import type { PaymentView } from '../../../../../shared/ipc/views';
import { installFakeMain } from '../../../support/bridge';
import { renderWithData } from '../../../support/render';

const main = installFakeMain();
const { RequestRefund } = await import('../../../../../renderer/src/features/refunds');
const { useCall } = await import('../../../../../renderer/src/features/call');

const PASSWORD = 'correct horse battery staple';
const PAYMENT: PaymentView = {
  id: `pay_${'c'.repeat(32)}`,
  reservationId: 'CUN-6B3D8F',
  status: 'succeeded',
  amountCents: 98000,
  currency: 'usd',
  methodId: `mth_${'b'.repeat(32)}`,
  availableInstallments: [],
  hasChallengeLink: false,
  refunds: [],
  refundableCents: 98000,
  createdAt: '2026-11-23T10:42:00Z',
};
const REQUEST: RefundRequestView = {
  id: `rrq_${'d'.repeat(32)}`,
  paymentId: PAYMENT.id,
  amountCents: 20000,
  currency: 'usd',
  reason: 'cancellation',
  status: 'pending',
  requestedBy: 'agent1',
  requestedAt: '2026-11-23T11:00:00Z',
  override: false,
};

beforeEach(() => {
  main.reset();
  useCall.getState().reset();
  main.answer('refunds:requestsFor', () => ({ requests: [] }));
});

describe('RequestRefund', () => {
  it('sends the partial amount and reason chosen; a supervisor approves it here and the password is kept nowhere', async () => {
    main.answer('refunds:request', () => REQUEST);
    main.answer('refunds:override', () => ({
      request: { ...REQUEST, status: 'approved', decidedBy: 'super1', override: true },
      payment: PAYMENT,
    }));
    const { queryClient } = renderWithData('en-US', <RequestRefund payment={PAYMENT} onClose={() => undefined} />);
    const user = userEvent.setup();

    await user.click(screen.getByRole('radio', { name: 'Partial' }));
    const amount = screen.getByRole('textbox', { name: 'Refund amount' });
    await user.clear(amount);
    await user.type(amount, '200');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Reason' }), 'Cancellation');
    await user.click(screen.getByRole('button', { name: 'Send request' }));

    expect(await screen.findByText('Request sent: it waits for a supervisor.')).toBeTruthy();
    const requests = main.sent.filter((call) => call.channel === 'refunds:request');
    expect(requests).toHaveLength(1);
    expect(requests[0]?.input).toMatchObject({ paymentId: PAYMENT.id, amountCents: 20000, reason: 'cancellation' });
    // The request was answered: the next one gets a new id.
    expect(useCall.getState().attempts).toEqual({});

    await user.click(screen.getByRole('radio', { name: 'A supervisor approves now' }));
    const approval = screen.getByRole('heading', { name: 'Supervisor approval' }).closest('form');
    if (!approval) throw new Error('no approval form');
    await user.type(within(approval).getByLabelText('Supervisor ID'), 'super1');
    await user.type(within(approval).getByLabelText('Supervisor password'), PASSWORD);
    await user.click(within(approval).getByRole('button', { name: 'Approve refund' }));

    expect(await screen.findByText('Requested by agent1, approved by super1.')).toBeTruthy();
    expect(main.sent.find((call) => call.channel === 'refunds:override')?.input).toEqual({
      requestId: REQUEST.id,
      approverId: 'super1',
      approverPassword: PASSWORD,
      acknowledgedRefundIds: [],
    });
    const mutations = JSON.stringify(
      queryClient
        .getMutationCache()
        .getAll()
        .map((mutation) => mutation.state),
    );
    expect(mutations).toContain('super1');
    expect(mutations).not.toContain(PASSWORD);
  });

  it('says which field is missing and sends nothing', async () => {
    renderWithData('en-US', <RequestRefund payment={PAYMENT} onClose={() => undefined} />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Send request' }));
    expect(screen.getByText('Choose the reason for the refund.')).toBeTruthy();
    expect(main.sent.filter((call) => call.channel === 'refunds:request')).toEqual([]);
  });
});
