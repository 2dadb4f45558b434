// @vitest-environment happy-dom
// The lookup in a DOM, against a fake of main whose search answers when the test says: Enter pressed while the list on
// screen is a shorter text's (a part of the confirmation number matches too) opens the match of the whole text once it
// arrives, never nothing and never the shorter text's match.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRef } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { ReservationView } from '../../../../../shared/reservations';
import { installFakeMain } from '../../../support/bridge';
import { renderWithData } from '../../../support/render';

const main = installFakeMain();
const { Lookup } = await import('../../../../../renderer/src/features/call/ui/Lookup');

const reservation = (confirmationNumber: string, guestName: string): ReservationView =>
  ({
    confirmationNumber,
    guestName,
    hotelName: 'Hotel',
    checkIn: '2026-11-28',
    checkOut: '2026-12-02',
    balanceDueCents: 100,
    currency: 'mxn',
  }) as unknown as ReservationView;
const SOFIA = reservation('CUN-7F3K2A', 'Sofía Núñez Ortega');
const OTHER = reservation('CUN-7F3K2B', 'Pedro García');

describe('Lookup, Enter before the search caught up', () => {
  it('opens the first match of the whole text once its answer arrives', async () => {
    main.reset();
    const answers: { text: string; resolve: () => void }[] = [];
    main.answer('reservations:search', (input) => {
      const { text } = input as { text: string };
      return new Promise((resolve) => {
        answers.push({
          text,
          resolve: () => resolve({ reservations: text === 'CUN-7F3K2A' ? [SOFIA] : [OTHER, SOFIA] }),
        });
      });
    });
    const onOpen = vi.fn();
    const user = userEvent.setup();
    renderWithData('es-MX', <Lookup onOpen={onOpen} inputRef={createRef<HTMLInputElement>()} />);
    const box = screen.getByRole('searchbox');
    await user.type(box, 'CUN-7F3K2');
    for (const answer of answers.splice(0)) answer.resolve();
    expect(await screen.findByText('Pedro García')).toBeTruthy();
    // The last key and Enter come before the search for the whole text answers.
    await user.type(box, 'A{Enter}');
    expect(onOpen).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(answers.some((a) => a.text === 'CUN-7F3K2A')).toBe(true));
    for (const answer of answers.splice(0)) answer.resolve();
    await vi.waitFor(() => expect(onOpen).toHaveBeenCalledTimes(1));
    expect(onOpen).toHaveBeenCalledWith(SOFIA);
  });

  it('forgets the Enter when the agent types on', async () => {
    main.reset();
    const answers: (() => void)[] = [];
    main.answer(
      'reservations:search',
      () => new Promise((resolve) => answers.push(() => resolve({ reservations: [SOFIA] }))),
    );
    const onOpen = vi.fn();
    const user = userEvent.setup();
    renderWithData('es-MX', <Lookup onOpen={onOpen} inputRef={createRef<HTMLInputElement>()} />);
    const box = screen.getByRole('searchbox');
    await user.type(box, 'CUN{Enter}-7');
    await vi.waitFor(() => expect(answers.length).toBeGreaterThan(0));
    for (const answer of answers.splice(0)) answer();
    expect(await screen.findByText('Sofía Núñez Ortega')).toBeTruthy();
    expect(onOpen).not.toHaveBeenCalled();
  });
});
