// @vitest-environment happy-dom
// The 3-D Secure panel from the keyboard: Enter on a channel chooses it and sends nothing; a panel that comes back with a
// link already sent does not put the focus where a reflex Enter would send it again; the line for the guest and the
// abandon help speak of a link only once one was sent.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PaymentView } from '../../../../../shared/ipc/views';
import type { ReservationView } from '../../../../../shared/reservations';
import { installFakeMain } from '../../../support/bridge';
import { renderWithData } from '../../../support/render';

const RESERVATION: ReservationView = {
  confirmationNumber: 'SJD-4X6Y9Z',
  guestName: 'Chloé Dubois-Smith',
  checkIn: '2026-12-01',
  checkOut: '2026-12-04',
  hotelName: 'Hotel Los Cabos',
  balanceDueCents: 145000,
  currency: 'usd',
  guestPhone: '+16175550112',
  guestLanguage: 'es-MX',
  guestLanguageFrom: 'default',
};
const PAYMENT: PaymentView = {
  id: `pay_${'f'.repeat(32)}`,
  reservationId: RESERVATION.confirmationNumber,
  status: 'requires_action',
  amountCents: 145000,
  currency: 'usd',
  methodId: `mth_${'e'.repeat(32)}`,
  availableInstallments: [],
  hasChallengeLink: true,
  refunds: [],
  refundableCents: 0,
  createdAt: new Date().toISOString(),
};

const main = installFakeMain();
const { SendLink } = await import('../../../../../renderer/src/features/payment/ui/SendLink');
const { WaitingBar, AbandonButton } = await import('../../../../../renderer/src/features/payment/ui/Waiting');
const { useCall } = await import('../../../../../renderer/src/features/call');

beforeEach(() => {
  main.reset();
  useCall.getState().reset();
  useCall.getState().openReservation(RESERVATION.confirmationNumber);
});

const sends = () => main.sent.filter((call) => call.channel === 'messaging:sendLink');

describe('the 3-D Secure panel from the keyboard', () => {
  it('Enter on a channel chooses it and moves to where the link goes; nothing is sent', async () => {
    const user = userEvent.setup();
    renderWithData('es-MX', <SendLink payment={PAYMENT} reservation={RESERVATION} />);
    screen.getByRole('radio', { name: 'WhatsApp' }).focus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole<HTMLInputElement>('radio', { name: 'WhatsApp' }).checked).toBe(true);
    expect(document.activeElement).toBe(
      screen.getByRole('textbox', { name: 'Teléfono del huésped (con código de país)' }),
    );
    expect(sends()).toEqual([]);
  });

  it('a panel that comes back with a link sent focuses its title, not the phone nor "Enviar de nuevo": Enter sends nothing', async () => {
    const user = userEvent.setup();
    renderWithData(
      'es-MX',
      <SendLink
        payment={PAYMENT}
        reservation={RESERVATION}
        lastLink={{ channel: 'sms', to: '+1 ***0112', status: 'sent', sentAt: new Date().toISOString() }}
      />,
    );
    expect(document.activeElement).toBe(
      screen.getByRole('heading', { name: 'Enviar el enlace de verificación al huésped' }),
    );
    await user.keyboard('{Enter}');
    expect(sends()).toEqual([]);
  });

  it('the line for the guest and the abandon help speak of a link only once one was sent', () => {
    const before = renderWithData(
      'es-MX',
      <>
        <WaitingBar payment={PAYMENT} live={undefined} />
        <AbandonButton payment={PAYMENT} />
      </>,
    );
    expect(before.container.textContent).not.toContain('Le enviamos un enlace');
    expect(before.container.textContent).not.toContain('ignore el enlace ya enviado');
    expect(before.container.textContent).toContain('Le voy a enviar un enlace');
    before.unmount();
    const after = renderWithData(
      'es-MX',
      <>
        <WaitingBar payment={PAYMENT} live={undefined} linkSent />
        <AbandonButton payment={PAYMENT} linkSent />
      </>,
    );
    expect(after.container.textContent).toContain('Le enviamos un enlace');
    expect(after.container.textContent).toContain('ignore el enlace ya enviado');
  });
});
