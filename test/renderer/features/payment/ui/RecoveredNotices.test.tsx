// @vitest-environment happy-dom
// What main completed after a restart, in a DOM, against a fake of main (support/bridge.ts: Electron's IPC cannot run in a
// unit test): the operator's notices are shown, in the desk's language, until the operator says they have seen them.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { RecoveredNoticeView } from '../../../../../shared/ipc/views';
import { installFakeMain } from '../../../support/bridge';
import { renderWithData } from '../../../support/render';

const TEN_42 = new Date(2026, 5, 15, 10, 42).toISOString();
const NOTICE: RecoveredNoticeView = {
  id: '0b6f0d59-5d2e-4e43-9a53-1f7c2f3c8a11',
  kind: 'payment',
  operatorId: 'agent1',
  reservationId: 'CUN-6B3D8F',
  paymentId: `pay_${'a'.repeat(32)}`,
  amountCents: 12000,
  currency: 'mxn',
  status: 'succeeded',
  takenAt: TEN_42,
  completedAt: TEN_42,
};

const main = installFakeMain();
const { RecoveredNotices } = await import('../../../../../renderer/src/features/payment/ui/RecoveredNotices');

describe('RecoveredNotices', () => {
  it('says the payment went through after the restart; acknowledging sends its id and the notice goes', async () => {
    const user = userEvent.setup();
    let notices = [NOTICE];
    main.answer('payments:recovered', () => ({ notices }));
    main.answer('payments:acknowledgeRecovered', () => {
      notices = [];
      return { acknowledged: 1 };
    });
    renderWithData('en-US', <RecoveredNotices />);
    expect((await screen.findByRole('alert')).textContent).toContain(
      'The payment of $120.00 MXN taken at 10:42 AM went through after the restart.',
    );
    await user.click(screen.getByRole('button', { name: 'I have seen these' }));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect(main.sent.find((call) => call.channel === 'payments:acknowledgeRecovered')?.input).toEqual({
      noticeIds: [NOTICE.id],
    });
  });

  it('in Spanish, the same notice in the desk’s words', async () => {
    main.answer('payments:recovered', () => ({ notices: [NOTICE] }));
    renderWithData('es-MX', <RecoveredNotices />);
    expect((await screen.findByRole('alert')).textContent).toContain('se realizó después del reinicio');
    expect(screen.getByRole('button', { name: 'Enterado' })).toBeTruthy();
  });
});
