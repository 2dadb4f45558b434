// @vitest-environment happy-dom
// Card data typed in the refund request's note leaves the screen: the note is emptied together with the refusal, which
// names the field and says where card numbers go; nothing of it is sent.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PaymentView } from '../../../../../shared/ipc/views';
import { installFakeMain } from '../../../support/bridge';
import { renderWithData } from '../../../support/render';

const main = installFakeMain();
const { RequestRefund } = await import('../../../../../renderer/src/features/refunds');

const PAYMENT: PaymentView = {
  id: `pay_${'c'.repeat(32)}`,
  reservationId: 'CUN-6B3D8F',
  status: 'succeeded',
  amountCents: 98000,
  currency: 'mxn',
  methodId: `mth_${'b'.repeat(32)}`,
  availableInstallments: [],
  hasChallengeLink: false,
  refunds: [],
  refundableCents: 98000,
  createdAt: '2026-11-23T10:42:00Z',
};

beforeEach(() => {
  main.reset();
  main.answer('refunds:requestsFor', () => ({ requests: [] }));
});

describe('the refund request note refuses card data and empties itself', () => {
  it('a card number in the note: emptied, the refusal names the field; nothing is sent', async () => {
    renderWithData('es-MX', <RequestRefund payment={PAYMENT} onClose={() => undefined} />);
    const user = userEvent.setup();
    const note = screen.getByRole<HTMLInputElement>('textbox', { name: /^Nota para el supervisor/ });
    note.focus();
    await user.paste('Reembolsar a la tarjeta 4242-4242-4242-4242, cvv 123');
    expect(note.value).toBe('');
    expect(screen.getByRole('alert').textContent).toBe(
      'Nota para el supervisor: esto parecía un número de tarjeta y se borró. Los números de tarjeta se escriben solo en el formulario de la tarjeta.',
    );
    expect(main.sent.filter((call) => call.channel === 'refunds:request')).toEqual([]);
    await user.type(note, 'Cancelación');
    expect(note.value).toBe('Cancelación');
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
