// @vitest-environment happy-dom
// The 3DS link's form in a DOM, against a fake of main (support/bridge.ts: Electron's IPC cannot run in a unit test): the
// message goes in the guest's language (the reservation's), not the agent's, unless the agent changes it; the choice
// is kept in the call's draft.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PaymentView } from '../../../../../shared/ipc/views';
import type { ReservationView } from '../../../../../shared/reservations';
import { installFakeMain } from '../../../support/bridge';
import { renderWithData } from '../../../support/render';

const RESERVATION: ReservationView = {
  confirmationNumber: 'SJD-3B7N1C',
  guestName: "Emily O'Connor",
  checkIn: '2026-12-01',
  checkOut: '2026-12-04',
  hotelName: 'Hotel Los Cabos',
  balanceDueCents: 50000,
  currency: 'usd',
  guestPhone: '+14155550143',
  guestLanguage: 'en-US',
  guestLanguageFrom: 'phone',
};
const PAYMENT: PaymentView = {
  id: `pay_${'f'.repeat(32)}`,
  reservationId: RESERVATION.confirmationNumber,
  status: 'requires_action',
  amountCents: 50000,
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
const { useCall } = await import('../../../../../renderer/src/features/call');

beforeEach(() => {
  main.reset();
  useCall.getState().reset();
  useCall.getState().openReservation(RESERVATION.confirmationNumber);
});

describe('SendLink', () => {
  it('in the Spanish desk, an English-speaking guest’s message is in English by default', async () => {
    const user = userEvent.setup();
    renderWithData('es-MX', <SendLink payment={PAYMENT} reservation={RESERVATION} />);
    expect(screen.getByRole<HTMLSelectElement>('combobox', { name: 'Idioma del mensaje' }).value).toBe('en-US');
    await user.click(screen.getByRole('button', { name: 'Enviar enlace' }));
    await waitFor(() =>
      expect(main.sent.find((call) => call.channel === 'messaging:sendLink')?.input).toMatchObject({
        language: 'en-US',
        channel: 'sms',
      }),
    );
  });

  it('the agent may change language and channel; both are kept in the call’s draft for the next form', async () => {
    const user = userEvent.setup();
    const first = renderWithData('en-US', <SendLink payment={PAYMENT} reservation={RESERVATION} />);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Message language' }), 'es-MX');
    await user.click(screen.getByRole('radio', { name: 'WhatsApp' }));
    first.unmount();
    renderWithData('en-US', <SendLink payment={PAYMENT} reservation={RESERVATION} />);
    expect(screen.getByRole<HTMLSelectElement>('combobox', { name: 'Message language' }).value).toBe('es-MX');
    expect(screen.getByRole<HTMLInputElement>('radio', { name: 'WhatsApp' }).checked).toBe(true);
  });
});
