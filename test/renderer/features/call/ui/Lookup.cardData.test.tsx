// @vitest-environment happy-dom
// A card number typed (or pasted) in the reservation lookup leaves the screen: the box is emptied with the refusal,
// which names the field and says where card numbers go; no search for it is sent, and no search of its digits stays in
// the query cache (not even those typed before it read as a card).
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRef } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import { installFakeMain } from '../../../support/bridge';
import { renderWithData } from '../../../support/render';

const main = installFakeMain();
const { Lookup } = await import('../../../../../renderer/src/features/call/ui/Lookup');

beforeEach(() => {
  main.reset();
  main.answer('reservations:search', () => ({ reservations: [] }));
});

describe('the lookup refuses card data and empties itself', () => {
  it('a card number typed: emptied, the refusal names the field; neither it nor its digits are sent or cached', async () => {
    const { queryClient } = renderWithData('es-MX', <Lookup onOpen={() => undefined} inputRef={createRef()} />);
    const user = userEvent.setup();
    const box = screen.getByRole<HTMLInputElement>('searchbox');
    await user.type(box, '4242 4242 4242 4242');
    expect(box.value).toBe('');
    expect(screen.getByRole('alert').textContent).toBe(
      'Buscar una reservación: esto parecía un número de tarjeta y se borró. Los números de tarjeta se escriben solo en el formulario de la tarjeta.',
    );
    const digitsOf = (value: unknown): string => JSON.stringify(value).replace(/\D/g, '');
    expect(
      main.sent.filter(
        (call) => call.channel === 'reservations:search' && digitsOf(call.input).includes('4242424242424242'),
      ),
    ).toEqual([]);
    expect(
      queryClient
        .getQueryCache()
        .getAll()
        .filter((query) => digitsOf(query.queryKey).length >= 12),
    ).toEqual([]);

    await user.type(box, 'Zoë');
    expect(box.value).toBe('Zoë');
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
