// @vitest-environment happy-dom
// The alert at the desk that abandoned a payment which went through after all: shown when main says so, on any screen,
// in the desk's language, until the agent dismisses it; once per payment however often main says it. Those still pending
// when the workspace opens (found while the desk was closed) are read from main then.
import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { installFakeMain } from '../../../support/bridge';
import { renderWithData } from '../../../support/render';

const main = installFakeMain();
const { LateSuccessAlert } = await import('../../../../../renderer/src/features/payment');

const alert = {
  paymentId: `pay_${'a'.repeat(24)}1234abcd`,
  reservationId: 'CUN-6B3D8F',
  amountCents: 20_000,
  currency: 'usd' as const,
  abandonedBy: 'ana',
  replacementPaymentId: `pay_${'b'.repeat(24)}9f3a1b2c`,
  requestId: '0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4a',
};

describe('LateSuccessAlert', () => {
  it('says in Spanish which payment was charged twice and where its refund is, once, until dismissed', async () => {
    main.reset();
    main.answer('payments:lateSuccesses', () => ({ alerts: [] }));
    renderWithData('es-MX', <LateSuccessAlert />);
    expect(screen.queryByRole('alert')).toBeNull();
    act(() => {
      main.emit('payments:lateSuccess', alert);
      main.emit('payments:lateSuccess', alert);
    });
    const shown = await screen.findByRole('alert');
    expect(shown.textContent).toContain('CUN-6B3D8F');
    expect(shown.textContent).toContain('9F3A-1B2C');
    expect(shown.textContent).toContain('cola de supervisores');
    expect(shown.querySelectorAll('li')).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Entendido' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('in English, without a replacement payment known', async () => {
    main.reset();
    main.answer('payments:lateSuccesses', () => ({ alerts: [] }));
    renderWithData('en-US', <LateSuccessAlert />);
    act(() => main.emit('payments:lateSuccess', { ...alert, replacementPaymentId: undefined }));
    const shown = await screen.findByRole('alert');
    // No payment had replaced it: the guest paid once, and is not to be charged again for it.
    expect(shown.textContent).toContain('No other payment had replaced it: do not charge the guest again for it.');
    expect(shown.textContent).not.toContain('paid twice');
  });

  it('shows the alerts still pending when it opens, once each, with those main says later', async () => {
    main.reset();
    main.answer('payments:lateSuccesses', () => ({ alerts: [alert] }));
    renderWithData('en-US', <LateSuccessAlert />);
    const shown = await screen.findByRole('alert');
    expect(shown.textContent).toContain('CUN-6B3D8F');
    act(() => main.emit('payments:lateSuccess', alert));
    expect(shown.querySelectorAll('li')).toHaveLength(1);
  });
});
