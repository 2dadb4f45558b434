// @vitest-environment happy-dom
// Taking a payment, in a DOM, against a fake of main (support/bridge.ts: Electron's IPC cannot run in a unit test): the
// form fills what is still owed and warns of today's charges; a new card is kept only when the guest's consent is ticked;
// a saved card is charged only after its amount and card are shown and Enter is pressed once more.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRef } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { MethodView, PaymentView, ReservationBalance } from '../../../../../shared/ipc/views';
import type { ReservationView } from '../../../../../shared/reservations';
import { installFakeMain } from '../../../support/bridge';
import { renderWithData } from '../../../support/render';

const METHOD: MethodView = {
  id: `mth_${'b'.repeat(32)}`,
  brand: 'amex',
  last4: '0005',
  expMonth: 12,
  expYear: 2099,
  createdAt: '2026-06-15T00:00:00Z',
};
const RESERVATION: ReservationView = {
  confirmationNumber: 'CUN-6B3D8F',
  guestName: 'Ana Torres',
  checkIn: '2026-12-01',
  checkOut: '2026-12-04',
  hotelName: 'Hotel Caribe',
  balanceDueCents: 98000,
  currency: 'usd',
  guestLanguage: 'es-MX',
  guestLanguageFrom: 'default',
};
const TEN_42 = new Date(2026, 5, 15, 10, 42).toISOString();
const BALANCE: ReservationBalance = {
  sourceBalanceCents: 98000,
  takenCents: 25000,
  refundedCents: 0,
  reopenedCents: 0,
  owedCents: 73000,
  overpaidCents: 0,
  closed: false,
  currency: 'usd',
  chargedToday: [{ paymentId: `pay_${'a'.repeat(32)}`, amountCents: 25000, currency: 'usd', at: TEN_42 }],
};
const payment = (status: string): PaymentView => ({
  id: `pay_${'c'.repeat(32)}`,
  reservationId: RESERVATION.confirmationNumber,
  status,
  amountCents: 5000,
  currency: 'usd',
  methodId: METHOD.id,
  availableInstallments: [],
  hasChallengeLink: false,
  refunds: [],
  refundableCents: 0,
  createdAt: '2026-06-15T10:42:00Z',
});

const main = installFakeMain();
const { NewPayment } = await import('../../../../../renderer/src/features/payment/ui/NewPayment');
const { useCall } = await import('../../../../../renderer/src/features/call');

beforeEach(() => {
  main.reset();
  useCall.getState().reset();
  useCall.getState().openReservation(RESERVATION.confirmationNumber);
});

const sentPays = () => main.sent.filter((call) => call.channel === 'payments:pay').map((call) => call.input);

describe('NewPayment', () => {
  it('fills what is still owed (main’s count) and says what was already charged today, with the time', () => {
    renderWithData(
      'en-US',
      <NewPayment reservation={RESERVATION} methods={[]} balance={BALANCE} cardRef={createRef()} />,
    );
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Amount' }).value).toBe('730.00');
    expect(screen.getByText('Balance due: $730.00 USD')).toBeTruthy();
    expect(screen.getByRole('list', { name: 'Charged today' }).textContent).toBe(
      'Already charged $250.00 USD today at 10:42 AM.',
    );
  });

  it('in Spanish, the same warning in the desk’s words', () => {
    renderWithData(
      'es-MX',
      <NewPayment reservation={RESERVATION} methods={[]} balance={BALANCE} cardRef={createRef()} />,
    );
    expect(screen.getByRole('list', { name: 'Cobrado hoy' }).textContent).toContain('Ya se cobraron');
    expect(screen.getByRole('list', { name: 'Cobrado hoy' }).textContent).toContain('10:42');
  });

  it('without main’s count, the reservation’s own balance and no warning', () => {
    renderWithData('en-US', <NewPayment reservation={RESERVATION} methods={[]} cardRef={createRef()} />);
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Amount' }).value).toBe('980.00');
    expect(screen.queryByRole('list', { name: 'Charged today' })).toBeNull();
  });

  for (const consent of [false, true]) {
    it(`the consent to keep the card starts unticked; a new card is charged ${consent ? 'with' : 'without'} keepCard when it is ${consent ? '' : 'not '}ticked`, async () => {
      const user = userEvent.setup();
      main.answer('payments:tokenize', () => ({ ...METHOD, brand: 'visa', last4: '4242' }));
      main.answer('payments:pay', () => payment('succeeded'));
      renderWithData(
        'en-US',
        <NewPayment reservation={RESERVATION} methods={[]} balance={BALANCE} cardRef={createRef()} />,
      );
      const box = screen.getByRole<HTMLInputElement>('checkbox', {
        name: 'Keep this card for later charges (the guest agrees)',
      });
      expect(box.checked).toBe(false);
      if (consent) await user.click(box);
      await user.type(screen.getByRole('textbox', { name: 'Card number' }), '4242424242424242');
      await user.keyboard('1230737{Enter}');
      await waitFor(() => expect(sentPays()).toHaveLength(1));
      if (consent) expect(sentPays()[0]).toMatchObject({ keepCard: true, amountCents: 73000 });
      else expect(sentPays()[0]).not.toHaveProperty('keepCard');
    });
  }

  it('a charge names exactly the charges of today the form showed (main refuses it while another was taken today)', async () => {
    const user = userEvent.setup();
    main.answer('payments:tokenize', () => ({ ...METHOD, brand: 'visa', last4: '4242' }));
    main.answer('payments:pay', () => payment('succeeded'));
    const recovered = {
      paymentId: `pay_${'c'.repeat(32)}`,
      amountCents: 12000,
      currency: 'usd',
      status: 'succeeded',
      at: TEN_42,
    };
    renderWithData(
      'en-US',
      <NewPayment
        reservation={RESERVATION}
        methods={[]}
        balance={BALANCE}
        chargedToday={[recovered]}
        cardRef={createRef()}
      />,
    );
    expect(screen.getByRole('list', { name: 'Charged today' }).textContent).toBe(
      'Already charged $120.00 USD today at 10:42 AM.',
    );
    await user.type(screen.getByRole('textbox', { name: 'Card number' }), '4242424242424242');
    await user.keyboard('1230737{Enter}');
    await waitFor(() => expect(sentPays()).toHaveLength(1));
    expect(sentPays()[0]).toMatchObject({ acknowledgedPaymentIds: [recovered.paymentId] });
  });

  it('with nothing charged today, a charge names none', async () => {
    const user = userEvent.setup();
    main.answer('payments:tokenize', () => ({ ...METHOD, brand: 'visa', last4: '4242' }));
    main.answer('payments:pay', () => payment('succeeded'));
    renderWithData(
      'en-US',
      <NewPayment reservation={RESERVATION} methods={[]} chargedToday={[]} cardRef={createRef()} />,
    );
    await user.type(screen.getByRole('textbox', { name: 'Card number' }), '4242424242424242');
    await user.keyboard('1230737{Enter}');
    await waitFor(() => expect(sentPays()).toHaveLength(1));
    expect(sentPays()[0]).toMatchObject({ acknowledgedPaymentIds: [] });
  });

  it('a saved card: its button shows the amount and card and waits; Enter charges it; Escape goes back without a charge', async () => {
    const user = userEvent.setup();
    main.answer('payments:pay', () => payment('succeeded'));
    renderWithData(
      'en-US',
      <NewPayment reservation={RESERVATION} methods={[METHOD]} balance={BALANCE} cardRef={createRef()} />,
    );
    const amount = screen.getByRole('textbox', { name: 'Amount' });
    await user.clear(amount);
    await user.type(amount, '50');

    await user.click(screen.getByRole('button', { name: 'Charge Amex •••• 0005' }));
    const confirm = screen.getByRole('group', { name: 'Charge $50.00 USD to Amex •••• 0005?' });
    expect(confirm).toBeTruthy();
    expect(sentPays()).toHaveLength(0);
    const charge = within(confirm).getByRole('button', { name: 'Charge $50.00 USD' });
    expect(document.activeElement).toBe(charge);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('group', { name: /^Charge / })).toBeNull();
    expect(sentPays()).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Charge Amex •••• 0005' }));
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Charge $50.00 USD'));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(sentPays()).toHaveLength(1));
    expect(sentPays()[0]).toMatchObject({ methodId: METHOD.id, amountCents: 5000, currency: 'usd' });
    expect(sentPays()[0]).not.toHaveProperty('keepCard');
  });

  it('the charge key says the amount it charges, in the desk’s language', async () => {
    const user = userEvent.setup();
    renderWithData(
      'en-US',
      <NewPayment reservation={RESERVATION} methods={[]} balance={BALANCE} cardRef={createRef()} />,
    );
    expect(screen.getByRole('button', { name: 'Charge $730.00 USD' })).toBeTruthy();
    const amount = screen.getByRole('textbox', { name: 'Amount' });
    await user.clear(amount);
    await user.type(amount, '50');
    expect(screen.getByRole('button', { name: 'Charge $50.00 USD' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Continue' })).toBeNull();
  });

  it('the currency is the reservation’s, shown and not offered for a change: a charge goes in it whatever the draft held', async () => {
    const user = userEvent.setup();
    main.answer('payments:tokenize', () => ({ ...METHOD, brand: 'visa', last4: '4242' }));
    main.answer('payments:pay', () => payment('succeeded'));
    useCall.getState().editDraft({ currency: 'mxn' });
    renderWithData(
      'es-MX',
      <NewPayment reservation={RESERVATION} methods={[]} balance={BALANCE} cardRef={createRef()} />,
    );
    expect(screen.queryByRole('combobox')).toBeNull();
    expect(screen.getByText('USD')).toBeTruthy();
    expect(screen.getByText('La moneda de la reservación: todo cobro se hace en ella.')).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: 'Número de tarjeta' }), '4242424242424242');
    await user.keyboard('1230737{Enter}');
    await waitFor(() => expect(sentPays()).toHaveLength(1));
    expect(sentPays()[0]).toMatchObject({ currency: 'usd', amountCents: 73000 });
    expect(sentPays()[0]).not.toHaveProperty('overBalance');
  });

  describe('an amount above what is still owed', () => {
    const MONICA: ReservationView = {
      ...RESERVATION,
      confirmationNumber: 'PCM-5P7R2S',
      guestName: 'Mónica Zúñiga Olvera',
      balanceDueCents: 119999,
      currency: 'mxn',
    };
    const OWED: ReservationBalance = {
      sourceBalanceCents: 119999,
      takenCents: 0,
      refundedCents: 0,
      reopenedCents: 0,
      owedCents: 119999,
      overpaidCents: 0,
      closed: false,
      currency: 'mxn',
      chargedToday: [],
    };

    it('is named with both amounts, and nothing is charged until the agent ticks the confirmation (not ticked, not by Enter)', async () => {
      const user = userEvent.setup();
      main.answer('payments:tokenize', () => ({ ...METHOD, brand: 'visa', last4: '4242' }));
      main.answer('payments:pay', () => payment('succeeded'));
      renderWithData(
        'es-MX',
        <NewPayment reservation={MONICA} methods={[METHOD]} balance={OWED} cardRef={createRef()} />,
      );
      const amount = screen.getByRole('textbox', { name: 'Monto' });
      await user.clear(amount);
      await user.type(amount, '11999.90');
      expect(screen.getByRole('alert').textContent).toBe(
        '$11,999.90 MXN es más de los $1,199.99 MXN que aún debe esta reservación. Revise el monto con el huésped.',
      );
      const confirm = screen.getByRole<HTMLInputElement>('checkbox', {
        name: 'Confirmo cobrar $11,999.90 MXN, aunque solo se deben $1,199.99 MXN',
      });
      expect(confirm.checked).toBe(false);
      const key = screen.getByRole<HTMLButtonElement>('button', { name: 'Cobrar $11,999.90 MXN' });
      expect(key.getAttribute('aria-disabled')).toBe('true');
      expect(screen.getByRole<HTMLButtonElement>('button', { name: /Amex •••• 0005/ }).disabled).toBe(true);
      await user.type(screen.getByRole('textbox', { name: 'Número de tarjeta' }), '4242424242424242');
      await user.keyboard('1230737{Enter}');
      // Enter went to the confirmation, right above the key, and charged nothing; the key itself neither.
      await waitFor(() => expect(document.activeElement).toBe(confirm));
      expect(confirm.checked).toBe(false);
      await user.click(key);
      expect(sentPays()).toHaveLength(0);

      await user.keyboard(' ');
      expect(confirm.checked).toBe(true);
      expect(key.getAttribute('aria-disabled')).toBeNull();
      await user.click(key);
      await waitFor(() => expect(sentPays()).toHaveLength(1));
      expect(sentPays()[0]).toMatchObject({
        amountCents: 1_199_990,
        currency: 'mxn',
        overBalance: { owedCents: 119_999, amountCents: 1_199_990 },
      });
    });

    it('a confirmation holds only for the amounts it named: editing the amount asks again', async () => {
      const user = userEvent.setup();
      renderWithData('en-US', <NewPayment reservation={MONICA} methods={[]} balance={OWED} cardRef={createRef()} />);
      const amount = screen.getByRole('textbox', { name: 'Amount' });
      await user.clear(amount);
      await user.type(amount, '11999.90');
      await user.click(
        screen.getByRole('checkbox', {
          name: 'I confirm charging $11,999.90 MXN, although only $1,199.99 MXN is owed',
        }),
      );
      expect(screen.getByRole('button', { name: 'Charge $11,999.90 MXN' }).getAttribute('aria-disabled')).toBeNull();
      await user.clear(amount);
      await user.type(amount, '11999.99');
      expect(
        screen.getByRole<HTMLInputElement>('checkbox', {
          name: 'I confirm charging $11,999.99 MXN, although only $1,199.99 MXN is owed',
        }).checked,
      ).toBe(false);
      expect(screen.getByRole('button', { name: 'Charge $11,999.99 MXN' }).getAttribute('aria-disabled')).toBe('true');
      await user.clear(amount);
      await user.type(amount, '1199.99');
      expect(screen.queryByRole('checkbox', { name: /^I confirm charging/ })).toBeNull();
      expect(screen.getByRole('button', { name: 'Charge $1,199.99 MXN' }).getAttribute('aria-disabled')).toBeNull();
    });
  });

  it('what the agent typed is the call’s draft: a new form (after a decline) shows it again', async () => {
    const user = userEvent.setup();
    const first = renderWithData(
      'en-US',
      <NewPayment reservation={RESERVATION} methods={[]} balance={BALANCE} cardRef={createRef()} />,
    );
    const amount = screen.getByRole('textbox', { name: 'Amount' });
    await user.clear(amount);
    await user.type(amount, '100');
    await user.type(screen.getByRole('textbox', { name: /^Note for the payment/ }), 'Deposit');
    first.unmount();
    useCall.getState().declined({ code: 'card_declined' });
    renderWithData(
      'en-US',
      <NewPayment reservation={RESERVATION} methods={[]} balance={BALANCE} cardRef={createRef()} />,
    );
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Amount' }).value).toBe('100');
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: /^Note for the payment/ }).value).toBe('Deposit');
  });
});
