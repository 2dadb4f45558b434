// @vitest-environment happy-dom
// An attempt whose answer never came, in a DOM, against a fake of main (support/bridge.ts: Electron's IPC cannot run in a
// unit test): the sentence to read to the guest is always there; the agent is told to call a supervisor once main says
// the attempt is five minutes old (its age as main read it, not the desk's clock), or after three checks without an answer.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PendingPaymentView } from '../../../../../shared/ipc/views';
import { installFakeMain } from '../../../support/bridge';
import { renderWithData } from '../../../support/render';

const ATTEMPT: PendingPaymentView = {
  operationId: '3f1c2a4e-5b6d-4e8f-9a0b-1c2d3e4f5a6b',
  reservationId: 'CUN-6B3D8F',
  amountCents: 98000,
  currency: 'usd',
  installments: false,
  methodId: `mth_${'e'.repeat(32)}`,
  brand: 'visa',
  last4: '4242',
  // A week from now by the desk's clock: only main's age counts.
  startedAt: new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString(),
  ageSeconds: 30,
  state: 'unanswered',
};

const main = installFakeMain();
const { PendingPayment } = await import('../../../../../renderer/src/features/payment/ui/PendingPayment');

beforeEach(() => {
  main.reset();
});

describe('PendingPayment', () => {
  it('has the sentence for the guest and says when to call a supervisor, before it is time to', () => {
    renderWithData('es-MX', <PendingPayment attempt={ATTEMPT} />);
    const panel = screen.getByRole('region', { name: 'Un pago sin respuesta' });
    expect(panel.textContent).toContain(
      'Diga al huésped: “Estamos confirmando su pago con el banco; no se le cobrará dos veces.',
    );
    expect(panel.textContent).toContain(
      'Si sigue sin respuesta después de 3 verificaciones o 5 minutos, llame a un supervisor.',
    );
    expect(panel.textContent).not.toContain('Llame a un supervisor ahora');
  });

  it('tells the agent to call a supervisor at once when main says the attempt was sent six minutes ago', () => {
    renderWithData('en-US', <PendingPayment attempt={{ ...ATTEMPT, ageSeconds: 360 }} />);
    const alerts = screen.getAllByRole('alert').map((node) => node.textContent);
    expect(alerts).toContainEqual(
      expect.stringContaining('Call a supervisor now: the payment has had no answer for 6 min.'),
    );
  });

  it('tells the agent to call a supervisor after the third "Check again" still without an answer', async () => {
    const user = userEvent.setup();
    main.answer('payments:checkAgain', () => ({
      state: 'unanswered',
      attempt: { ...ATTEMPT, ageSeconds: 40 },
      message: 'Still no answer.',
    }));
    renderWithData('en-US', <PendingPayment attempt={ATTEMPT} />);
    const check = screen.getByRole('button', { name: 'Check again' });
    for (let n = 1; n <= 2; n++) {
      await user.click(check);
      await screen.findByRole('status');
      expect(screen.queryByText(/Call a supervisor now/)).toBeNull();
      await expect.poll(() => check.getAttribute('aria-busy')).toBe('false');
    }
    await user.click(check);
    expect((await screen.findByText(/Call a supervisor now/)).textContent).toContain(
      'the payment still has no answer after 3 checks.',
    );
  });
});
