// @vitest-environment happy-dom
// The call's compact header: guest, confirmation number and what is still owed (main's balance when known, else the
// reservation's own), in the desk's language; the reservation's phone shown formatted.
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ReservationBar } from '../../../../../renderer/src/features/call';
import { formatPhone } from '../../../../../renderer/src/ui/text';
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

describe('ReservationBar', () => {
  it('shows guest, confirmation number and what main says is still owed, in Spanish', () => {
    renderIn('es-MX', <ReservationBar reservation={reservation} owedCents={0} owedCurrency="mxn" />);
    const bar = screen.getByRole('group', { name: 'La llamada' });
    expect(bar.textContent).toBe('Sofía Núñez OrtegaCUN-7F3K2APor cobrar: $0.00 MXN');
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
