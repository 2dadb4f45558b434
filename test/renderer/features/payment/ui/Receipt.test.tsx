// @vitest-environment happy-dom
// The receipt form, in a DOM, against a fake of main (support/bridge.ts: Electron's IPC cannot run in a unit test): a
// card number typed where the receipt goes is refused on the form, the field named and marked, and never crosses to main.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PaymentView } from '../../../../../shared/ipc/views';
import type { ReservationView } from '../../../../../shared/reservations';
import { installFakeMain } from '../../../support/bridge';
import { renderWithData } from '../../../support/render';

const RESERVATION: ReservationView = {
  confirmationNumber: 'MEX-2H8R5T',
  guestName: 'José Muñoz',
  checkIn: '2026-12-01',
  checkOut: '2026-12-04',
  hotelName: 'Hotel Centro',
  balanceDueCents: 50000,
  currency: 'mxn',
  guestEmail: 'jose.munoz@example.mx',
  guestLanguage: 'es-MX',
  guestLanguageFrom: 'phone',
};
const PAYMENT: PaymentView = {
  id: `pay_${'a'.repeat(24)}8f3a2c1d`,
  reservationId: RESERVATION.confirmationNumber,
  status: 'succeeded',
  amountCents: 50000,
  currency: 'mxn',
  methodId: `mth_${'e'.repeat(32)}`,
  availableInstallments: [],
  hasChallengeLink: false,
  refunds: [],
  refundableCents: 50000,
  createdAt: new Date().toISOString(),
};

const main = installFakeMain();
const { Receipt } = await import('../../../../../renderer/src/features/payment/ui/Receipt');
const { useCall } = await import('../../../../../renderer/src/features/call');

beforeEach(() => {
  main.reset();
  useCall.getState().reset();
  useCall.getState().openReservation(RESERVATION.confirmationNumber);
});

describe('Receipt', () => {
  it('offers the guest’s phone as people read it, with its country code', () => {
    renderWithData(
      'es-MX',
      <Receipt payment={PAYMENT} reservation={{ ...RESERVATION, guestPhone: '+525512345678' }} />,
    );
    expect(screen.getByRole('textbox', { name: 'Teléfono del huésped (con código de país)' })).toHaveProperty(
      'value',
      '+52 55 1234 5678',
    );
  });

  it('refuses a card number typed as the e-mail on the form, in the desk’s language, and sends nothing to main', async () => {
    const user = userEvent.setup();
    renderWithData('es-MX', <Receipt payment={PAYMENT} reservation={RESERVATION} />);
    const field = screen.getByRole('textbox', { name: 'Correo del huésped' });
    await user.clear(field);
    await user.type(field, '4242424242424242@example.mx{Enter}');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    const help = document.getElementById(field.getAttribute('aria-describedby') ?? '');
    expect(help?.textContent).toMatch(/número de tarjeta/);
    expect(main.sent.filter((call) => call.channel === 'messaging:sendReceipt')).toEqual([]);
  });
});
