// @vitest-environment happy-dom
// Card data typed in the payment note leaves the screen: the note is emptied together with the refusal, which names the
// field and says where card numbers go; the call's draft (kept across the lock) never holds it. The idle lock forgets
// every text typed for the payment.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRef } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ReservationView } from '../../../../../shared/reservations';
import { installFakeMain } from '../../../support/bridge';
import { renderWithData } from '../../../support/render';

const RESERVATION: ReservationView = {
  confirmationNumber: 'CUN-6B3D8F',
  guestName: 'Ana Torres',
  checkIn: '2026-12-01',
  checkOut: '2026-12-04',
  hotelName: 'Hotel Caribe',
  balanceDueCents: 98000,
  currency: 'mxn',
  guestLanguage: 'es-MX',
  guestLanguageFrom: 'default',
};

installFakeMain();
const { NewPayment } = await import('../../../../../renderer/src/features/payment/ui/NewPayment');
const { useCall } = await import('../../../../../renderer/src/features/call');

beforeEach(() => {
  useCall.getState().reset();
  useCall.getState().openReservation(RESERVATION.confirmationNumber);
});

const noteField = () => screen.getByRole<HTMLInputElement>('textbox', { name: /^Nota del pago/ });

describe('the payment note refuses card data and empties itself', () => {
  it('a card number pasted in the note: the field is emptied, the refusal names it, the draft never holds it', async () => {
    renderWithData('es-MX', <NewPayment reservation={RESERVATION} methods={[]} cardRef={createRef()} />);
    const user = userEvent.setup();
    noteField().focus();
    await user.paste('Pagó con 4242 4242 4242 4242 exp 12/29');
    expect(noteField().value).toBe('');
    expect(
      screen.getByText(
        /^Nota: esto parecía un número de tarjeta y se borró\. Los números de tarjeta se escriben solo en el formulario de la tarjeta\.$/,
      ),
    ).toBeTruthy();
    expect(JSON.stringify(useCall.getState().draft)).not.toMatch(/4242/);
    // Not a fault of what is there now: the card form is open for the card.
    expect(screen.getByRole('textbox', { name: 'Número de tarjeta' })).toHaveProperty('disabled', false);
    // Typing again in the note takes the message away.
    await user.type(noteField(), 'Depósito');
    expect(noteField().value).toBe('Depósito');
    expect(screen.queryByText(/se borró/)).toBeNull();
  });

  it('a security code typed in the note: emptied, with its own refusal', async () => {
    renderWithData('es-MX', <NewPayment reservation={RESERVATION} methods={[]} cardRef={createRef()} />);
    const user = userEvent.setup();
    await user.type(noteField(), 'cvv 123');
    expect(noteField().value).toBe('');
    expect(screen.getByText(/^Nota: esto parecía el código de seguridad de una tarjeta y se borró\./)).toBeTruthy();
    expect(JSON.stringify(useCall.getState().draft)).not.toMatch(/123/);
  });

  it('the lock forgets the amount and the note typed for the payment (the card form, unmounted, forgets the card)', async () => {
    const view = renderWithData('es-MX', <NewPayment reservation={RESERVATION} methods={[]} cardRef={createRef()} />);
    const user = userEvent.setup();
    const amount = screen.getByRole<HTMLInputElement>('textbox', { name: 'Monto' });
    await user.clear(amount);
    await user.type(amount, '250');
    await user.type(noteField(), 'Habitación 12');
    view.unmount();
    useCall.getState().locked();
    renderWithData('es-MX', <NewPayment reservation={RESERVATION} methods={[]} cardRef={createRef()} />);
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Monto' }).value).toBe('980.00');
    expect(noteField().value).toBe('');
    expect(useCall.getState().reservationId).toBe(RESERVATION.confirmationNumber);
  });
});
