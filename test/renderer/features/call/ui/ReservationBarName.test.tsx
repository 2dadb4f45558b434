// @vitest-environment happy-dom
// The call's header keeps to one line: a long guest name is cut on screen (CSS) and read whole in its tooltip.
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ReservationBar } from '../../../../../renderer/src/features/call';
import type { ReservationView } from '../../../../../shared/reservations';
import { renderIn } from '../../../support/render';

const NAME = 'María Fernanda de los Ángeles Villaseñor-Castañeda y Ruiz de Alarcón';

describe('ReservationBar, a long guest name', () => {
  it('carries the whole name in its title', () => {
    const reservation = {
      confirmationNumber: 'CUN-7F3K2A',
      guestName: NAME,
      balanceDueCents: 1_245_000,
      currency: 'mxn',
    } as unknown as ReservationView;
    renderIn(
      'es-MX',
      <ReservationBar
        reservation={reservation}
        balance={{
          sourceBalanceCents: 1_245_000,
          takenCents: 1_125_001,
          refundedCents: 0,
          reopenedCents: 0,
          owedCents: 119_999,
          overpaidCents: 0,
          closed: false,
          currency: 'mxn',
          chargedToday: [],
        }}
        inProgressCents={119_999}
      />,
    );
    expect(screen.getByText(NAME).getAttribute('title')).toBe(NAME);
  });
});
