// @vitest-environment happy-dom
// The call's compact header: guest, confirmation number and what is still owed (main's balance when known, else the
// reservation's own), in the desk's language; the reservation's phone shown formatted.
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ReservationBar } from '../../../../../renderer/src/features/call';
import { formatPhone } from '../../../../../renderer/src/ui/text';
import type { ReservationBalance } from '../../../../../shared/ipc/views';
import type { ReservationView } from '../../../../../shared/reservations';
import { renderIn } from '../../../support/render';

const reservation = {
  confirmationNumber: 'CUN-7F3K2A',
  guestName: 'Sofía Núñez Ortega',
  hotelName: 'Hotel Costa Turquesa Cancún',
  checkIn: '2026-11-25',
  checkOut: '2026-11-29',
  balanceDueCents: 1_245_000,
  currency: 'mxn',
  guestPhone: '+529981234567',
} as unknown as ReservationView;

const balance = (over: Partial<ReservationBalance>): ReservationBalance => ({
  sourceBalanceCents: 1_245_000,
  takenCents: 1_245_000,
  refundedCents: 0,
  reopenedCents: 0,
  owedCents: 0,
  overpaidCents: 0,
  closed: false,
  currency: 'mxn',
  chargedToday: [],
  ...over,
});

describe('ReservationBar', () => {
  it('shows guest, confirmation number and what main says is still owed, in Spanish', () => {
    renderIn('es-MX', <ReservationBar reservation={reservation} balance={balance({ owedCents: 0 })} />);
    const bar = screen.getByRole('group', { name: 'La llamada' });
    expect(bar.textContent).toBe('Sofía Núñez OrtegaCUN-7F3K2APor cobrar: $0.00 MXN');
  });

  it('says what was paid over instead of 0.00 owed, and a booking a cancellation refund closed', () => {
    const { unmount } = renderIn(
      'es-MX',
      <ReservationBar reservation={reservation} balance={balance({ owedCents: 0, overpaidCents: 1_079_991 })} />,
    );
    expect(screen.getByRole('group', { name: 'La llamada' }).textContent).toBe(
      'Sofía Núñez OrtegaCUN-7F3K2APagado de más: $10,799.91 MXN',
    );
    unmount();
    renderIn('en-US', <ReservationBar reservation={reservation} balance={balance({ owedCents: 0, closed: true })} />);
    expect(screen.getByRole('group', { name: 'The call' }).textContent).toBe(
      'Sofía Núñez OrtegaCUN-7F3K2ABooking closed: nothing to charge (cancellation refunded)',
    );
  });

  it('falls back to the reservation’s balance before main’s is known, in English', () => {
    renderIn('en-US', <ReservationBar reservation={reservation} />);
    expect(screen.getByRole('group', { name: 'The call' }).textContent).toContain('$12,450.00 MXN');
  });
});

describe('formatPhone', () => {
  it('groups a phone the way its country writes it, with the country code', () => {
    expect(formatPhone('+529981234567')).toBe('+52 998 123 4567');
    expect(formatPhone('+14155550143')).toBe('+1 415 555 0143');
  });

  it('leaves a text that is not a phone as it came', () => {
    expect(formatPhone('ask at the desk')).toBe('ask at the desk');
  });
});
