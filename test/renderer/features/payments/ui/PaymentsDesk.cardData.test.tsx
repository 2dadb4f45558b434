// @vitest-environment happy-dom
// Card data typed in a field of the payments search leaves the screen: the field is emptied together with the refusal,
// which names the field and says where card numbers go; no search holding it is sent or kept.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { installFakeMain } from '../../../support/bridge';
import { renderWithData } from '../../../support/render';

const main = installFakeMain();
const { PaymentsDesk } = await import('../../../../../renderer/src/features/payments/ui/PaymentsDesk');

describe('the payments search refuses card data and empties the field', () => {
  it('a card number in the guest field: emptied, the refusal names the field; no search holds it', async () => {
    main.reset();
    main.answer('payments:search', () => ({ payments: [] }));
    const { queryClient } = renderWithData('es-MX', <PaymentsDesk role="supervisor" />);
    const user = userEvent.setup();
    const guest = screen.getByRole<HTMLInputElement>('textbox', { name: 'Nombre del huésped' });
    await user.type(guest, '4242 4242 4242 4242');
    await user.click(screen.getByRole('button', { name: 'Buscar' }));
    expect(guest.value).toBe('');
    expect(screen.getByRole('alert').textContent).toBe(
      'Nombre del huésped: esto parecía un número de tarjeta y se borró. Los números de tarjeta se escriben solo en el formulario de la tarjeta.',
    );
    const holdsCard = (value: unknown): boolean =>
      JSON.stringify(value).replace(/\D/g, '').includes('4242424242424242');
    expect(main.sent.filter((call) => holdsCard(call.input))).toEqual([]);
    expect(
      queryClient
        .getQueryCache()
        .getAll()
        .filter((query) => holdsCard(query.queryKey)),
    ).toEqual([]);

    await user.type(guest, 'Zoë');
    await user.click(screen.getByRole('button', { name: 'Buscar' }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(main.sent.filter((call) => call.channel === 'payments:search').at(-1)?.input).toEqual({ guestName: 'Zoë' });
  });
});
