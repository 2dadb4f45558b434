// @vitest-environment happy-dom
// The payment on the call, in a DOM, against a fake of main's answers (support/bridge.ts: Electron's IPC cannot run in a
// unit test). A card typed and sent with Enter
// is tokenized once and charged with the amount on the form; a decline is shown in a new, empty card form; and the card
// number and CVC end up nowhere but in the tokenize call: not in the call's zustand store, not in
// react-query's query or mutation caches.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { MethodView, PaymentView } from '../../../../../shared/ipc/views';
import type { ReservationView } from '../../../../../shared/reservations';
import { installFakeMain } from '../../../support/bridge';
import { renderWithData } from '../../../support/render';

const NUMBER = '4242424242424242';
const CVC = '737';
const METHOD: MethodView = { id: `mth_${'b'.repeat(32)}`, brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030, createdAt: '2026-06-15T00:00:00Z' };
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
    queries: queryClient.getQueryCache().getAll().map((query) => ({ key: query.queryKey, data: query.state.data })),
    mutations: queryClient.getMutationCache().getAll().map((mutation) => ({ variables: mutation.state.variables, data: mutation.state.data })),
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
    expect(tokenize[0]?.input).toMatchObject({ card: { number: NUMBER, cvv: CVC }, reservationId: RESERVATION.confirmationNumber });
    expect(main.sent.find((call) => call.channel === 'payments:pay')?.input).toMatchObject({ methodId: METHOD.id, amountCents: 25000, currency: 'usd', note: 'Deposit' });

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
    await waitFor(() => expect(within(form).getByRole('alert').textContent).toContain('The card was declined by the issuing bank.'));
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Card number' }).value).toBe('');
    expect(everythingKept(queryClient)).not.toContain(NUMBER);
  });
});
