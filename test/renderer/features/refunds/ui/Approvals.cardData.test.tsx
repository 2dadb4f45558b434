// @vitest-environment happy-dom
// Card data typed in a rejection's note leaves the screen: the note is emptied together with the refusal, which names
// the field and says where card numbers go; nothing of it is sent.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { RefundQueueItem } from '../../../../../shared/ipc/views';
import { installFakeMain } from '../../../support/bridge';
import { renderWithData } from '../../../support/render';

const main = installFakeMain();
const { Approvals } = await import('../../../../../renderer/src/features/refunds/ui/Approvals');

const REQUEST: RefundQueueItem = {
  id: '0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4a',
  paymentId: `pay_${'a'.repeat(32)}`,
  amountCents: 20000,
  refundCents: 20000,
  currency: 'usd',
  reason: 'cancellation',
  status: 'pending',
  requestedBy: 'agent1',
  requestedAt: '2026-11-23T11:00:00Z',
  override: false,
};

describe('the rejection note refuses card data and empties itself', () => {
  it('a card number in the note: emptied, the refusal names the field; nothing is sent', async () => {
    main.reset();
    main.answer('refunds:queue', () => ({ requests: [REQUEST] }));
    renderWithData('es-MX', <Approvals />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^Rechazar/ }));
    const note = screen.getByRole<HTMLInputElement>('textbox', { name: '¿Por qué se rechaza?' });
    note.focus();
    await user.paste('El huésped dio la tarjeta 4242 4242 4242 4242');
    expect(note.value).toBe('');
    expect(screen.getByRole('alert').textContent).toBe(
      'Nota: esto parecía un número de tarjeta y se borró. Los números de tarjeta se escriben solo en el formulario de la tarjeta.',
    );
    expect(main.sent.filter((call) => call.channel === 'refunds:reject')).toEqual([]);
    await user.type(note, 'Sin cancelación registrada');
    expect(note.value).toBe('Sin cancelación registrada');
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
