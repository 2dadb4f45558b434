// @vitest-environment happy-dom
// The payment on the call, in a DOM, against a fake of main's answers (support/bridge.ts: Electron's IPC cannot run in a
// unit test). A card typed and sent with Enter
// is tokenized once and charged with the amount on the form; a decline is shown in a new, empty card form; and the card
// number and CVC end up nowhere but in the tokenize call: not in the call's zustand store, not in
// react-query's query or mutation caches. Amount and note survive a decline and a service error. A payment in progress
// that main lists for the reservation comes back as its live panel (elapsed time, the link's time left, the line to tell
// the guest, re-send, "Abandon and use another card"), with no new charge form until it is abandoned.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { LivePaymentView, MethodView, PaymentView } from '../../../../../shared/ipc/views';
import type { ReservationView } from '../../../../../shared/reservations';
import { installFakeMain } from '../../../support/bridge';
import { renderWithData } from '../../../support/render';

const NUMBER = '4242424242424242';
const CVC = '737';
const METHOD: MethodView = {
  id: `mth_${'b'.repeat(32)}`,
  brand: 'visa',
  last4: '4242',
  expMonth: 12,
  expYear: 2030,
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
const payment = (status: string, extra: Partial<PaymentView> = {}): PaymentView => ({
  id: `pay_${'c'.repeat(32)}`,
  reservationId: RESERVATION.confirmationNumber,
  status,
  amountCents: 25000,
  currency: 'usd',
  methodId: METHOD.id,
  availableInstallments: [],
  hasChallengeLink: false,
  refunds: [],
  refundableCents: 0,
  createdAt: '2026-06-15T10:42:00Z',
  ...extra,
});

const main = installFakeMain();
const { PaymentFlow } = await import('../../../../../renderer/src/features/payment');
const { useCall } = await import('../../../../../renderer/src/features/call');

beforeEach(() => {
  main.reset();
  useCall.getState().reset();
  useCall.getState().openReservation(RESERVATION.confirmationNumber);
});

async function typeCardAndPay(): Promise<void> {
  const user = userEvent.setup();
  const amount = screen.getByRole('textbox', { name: 'Amount' });
  await user.clear(amount);
  await user.type(amount, '250');
  await user.type(screen.getByRole('textbox', { name: /^Note for the payment/ }), 'Deposit');
  await user.type(screen.getByRole('textbox', { name: 'Card number' }), NUMBER);
  await user.keyboard(`1230${CVC}{Enter}`);
}

const everythingKept = (queryClient: import('@tanstack/react-query').QueryClient): string =>
  JSON.stringify({
    queries: queryClient
      .getQueryCache()
      .getAll()
      .map((query) => ({ key: query.queryKey, data: query.state.data })),
    mutations: queryClient
      .getMutationCache()
      .getAll()
      .map((mutation) => ({ variables: mutation.state.variables, data: mutation.state.data })),
    call: useCall.getState(),
  });

describe('PaymentFlow', () => {
  it('tokenizes the card once, charges the amount typed, and keeps the card nowhere', async () => {
    main.answer('payments:tokenize', () => METHOD);
    main.answer('payments:pay', () => payment('succeeded'));
    main.answer('payments:get', () => payment('succeeded'));
    const { queryClient } = renderWithData('en-US', <PaymentFlow reservation={RESERVATION} methods={[]} />);
    await typeCardAndPay();
    expect(await screen.findByText('Payment approved')).toBeTruthy();

    const tokenize = main.sent.filter((call) => call.channel === 'payments:tokenize');
    expect(tokenize).toHaveLength(1);
    expect(tokenize[0]?.input).toMatchObject({
      card: { number: NUMBER, cvv: CVC },
      reservationId: RESERVATION.confirmationNumber,
    });
    expect(main.sent.find((call) => call.channel === 'payments:pay')?.input).toMatchObject({
      methodId: METHOD.id,
      amountCents: 25000,
      currency: 'usd',
      note: 'Deposit',
    });

    const kept = everythingKept(queryClient);
    expect(kept).toContain(METHOD.id);
    expect(kept).not.toContain(NUMBER);
    expect(kept).not.toContain(`"${CVC}"`);
    expect(kept).not.toMatch(/"card"|"cvv"/);
  });

  it('after a decline: the decline in a new card form, the card cleared and kept nowhere', async () => {
    main.answer('payments:tokenize', () => METHOD);
    main.answer('payments:pay', () => payment('failed', { failure: { code: 'card_declined' } }));
    const { queryClient } = renderWithData('en-US', <PaymentFlow reservation={RESERVATION} methods={[]} />);
    await typeCardAndPay();
    const form = await screen.findByRole('form', { name: 'Card details' });
    await waitFor(() =>
      expect(within(form).getByRole('alert').textContent).toContain('The card was declined by the issuing bank.'),
    );
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Card number' }).value).toBe('');
    expect(everythingKept(queryClient)).not.toContain(NUMBER);
  });
});

const LIVE_ID = `pay_${'0'.repeat(24)}8f3a2c1d`;
const live = (extra: Partial<LivePaymentView> = {}): LivePaymentView => ({
  paymentId: LIVE_ID,
  state: 'waiting_for_cardholder',
  amountCents: 98000,
  currency: 'usd',
  brand: 'visa',
  last4: '3220',
  availableInstallments: [],
  startedAt: new Date(Date.now() - 200_000).toISOString(),
  waitingSince: new Date(Date.now() - 83_000).toISOString(),
  expiresAt: new Date(Date.now() + 600_000).toISOString(),
  lastLink: {
    channel: 'whatsapp',
    to: '+1 ***0143',
    status: 'delivered',
    sentAt: new Date(Date.now() - 80_000).toISOString(),
  },
  ...extra,
});

describe('what the agent typed survives', () => {
  it('amount and note stay after a decline; only the card is cleared', async () => {
    main.answer('payments:tokenize', () => METHOD);
    main.answer('payments:pay', () => payment('failed', { failure: { code: 'card_declined' } }));
    renderWithData('en-US', <PaymentFlow reservation={RESERVATION} methods={[]} />);
    await typeCardAndPay();
    const form = await screen.findByRole('form', { name: 'Card details' });
    await waitFor(() => expect(within(form).getByRole('alert').textContent).toContain('declined'));
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Amount' }).value).toBe('250');
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: /^Note for the payment/ }).value).toBe('Deposit');
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Card number' }).value).toBe('');
  });

  it('amount and note stay after a service error', async () => {
    main.answer('payments:tokenize', () => METHOD);
    main.answer('payments:pay', () => ({
      code: 'service_unavailable',
      message: 'The payment service is not answering.',
      retryable: true,
    }));
    renderWithData('en-US', <PaymentFlow reservation={RESERVATION} methods={[]} />);
    await typeCardAndPay();
    const form = await screen.findByRole('form', { name: 'Card details' });
    await waitFor(() => expect(within(form).queryByRole('alert')).not.toBeNull());
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Amount' }).value).toBe('250');
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: /^Note for the payment/ }).value).toBe('Deposit');
  });
});

describe('a payment in progress comes back', () => {
  it('its live panel instead of a new charge: elapsed, link time left, what to tell the guest, re-send, abandon', async () => {
    main.answer('payments:get', () =>
      payment('requires_action', { id: LIVE_ID, amountCents: 98000, hasChallengeLink: true }),
    );
    renderWithData('en-US', <PaymentFlow reservation={RESERVATION} methods={[METHOD]} inProgress={[live()]} />);
    expect(await screen.findByRole('heading', { name: /Payment status/ })).toBeTruthy();
    expect(useCall.getState().paymentId).toBe(LIVE_ID);
    expect(
      main.sent.some(
        (call) => call.channel === 'payments:watch' && (call.input as { paymentId: string }).paymentId === LIVE_ID,
      ),
    ).toBe(true);
    expect(screen.getByRole('timer').textContent).toMatch(/^Waiting 01:2\d$/);
    expect(screen.getByText(/^The link works for another (09:5\d|10:00)$/)).toBeTruthy();
    expect(screen.getByText('Tell the guest:').parentElement?.textContent).toContain('approve the payment');
    expect(screen.getByText(/^Last sent by WhatsApp to \+1 \*\*\*0143/)).toBeTruthy();
    expect(screen.getByRole<HTMLInputElement>('radio', { name: 'WhatsApp' }).checked).toBe(true);
    expect(screen.getByRole('button', { name: 'Send again' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Abandon and use another card' })).toBeTruthy();
    // No new charge: no card form, no saved card.
    expect(screen.queryByRole('textbox', { name: 'Card number' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Charge / })).toBeNull();
  });

  it('"Abandon and use another card" asks main, then offers a new card with what was typed', async () => {
    const user = userEvent.setup();
    useCall.getState().editDraft({ amount: '300', note: 'Deposit' });
    main.answer('payments:get', () => payment('requires_action', { id: LIVE_ID, hasChallengeLink: true }));
    main.answer('payments:abandon', () =>
      payment('requires_action', { id: LIVE_ID, abandonedAt: new Date().toISOString() }),
    );
    renderWithData('en-US', <PaymentFlow reservation={RESERVATION} methods={[]} inProgress={[live()]} />);
    await user.click(await screen.findByRole('button', { name: 'Abandon and use another card' }));
    expect(await screen.findByRole('textbox', { name: 'Card number' })).toBeTruthy();
    expect(main.sent.find((call) => call.channel === 'payments:abandon')?.input).toEqual({ paymentId: LIVE_ID });
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Amount' }).value).toBe('300');
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: /^Note for the payment/ }).value).toBe('Deposit');
  });

  it('an abandon main refuses (the payment succeeded meanwhile) is said, and no new charge is offered', async () => {
    const user = userEvent.setup();
    main.answer('payments:get', () => payment('requires_action', { id: LIVE_ID, hasChallengeLink: true }));
    main.answer('payments:abandon', () => ({
      code: 'payment_already_succeeded',
      message: 'The payment already succeeded.',
    }));
    renderWithData('en-US', <PaymentFlow reservation={RESERVATION} methods={[]} inProgress={[live()]} />);
    await user.click(await screen.findByRole('button', { name: 'Abandon and use another card' }));
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Card number' })).toBeNull();
  });
});

describe('the result', () => {
  it('shows the short reference to read to the guest', async () => {
    main.answer('payments:get', () => payment('succeeded', { id: LIVE_ID }));
    useCall.getState().paymentStarted(LIVE_ID);
    renderWithData('en-US', <PaymentFlow reservation={RESERVATION} methods={[METHOD]} />);
    const result = await screen.findByRole('region', { name: 'Payment approved' });
    expect(within(result).getByText('Reference').nextElementSibling?.textContent).toBe('8F3A-2C1D');
  });
});
