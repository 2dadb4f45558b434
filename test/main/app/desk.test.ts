// The supervisor's search for payments through the real door: by reservation, id, guest, last 4, dates and agent.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMainStack, type MainStack } from '../../../main/app';
import type { SenderInfo } from '../../../main/ipc';
import type { PaymentSummary } from '../../../shared/ipc';
import type { ReservationView } from '../../../shared/reservations';
import { asTheScreen, stackOptions } from './desk-kit';

const sender: SenderInfo = { url: 'app://app/index.html', isMainFrame: true, webContentsId: 1 };
let dir: string;
let stack: MainStack;
const made: { id: string; reservation: ReservationView; last4: string; by: string }[] = [];

async function ok<T>(channel: string, input: unknown): Promise<T> {
  const result = await asTheScreen((c, i) => stack.dispatch(c, sender, i), channel, input);
  if (!result.ok) throw new Error(`${channel}: ${result.error.code} ${result.error.message}`);
  return result.value as T;
}
const signInAs = async (id: string, password: string) => {
  await stack.dispatch('session:signOut', sender, {});
  await ok('session:signIn', { id, password });
};
const today = (offsetDays = 0): string => {
  const d = new Date();
  d.setDate(d.getDate() + offsetDays);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};
const search = async (query: object) =>
  (await ok<{ payments: PaymentSummary[] }>('payments:search', query)).payments.map((p) => p.id);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'desk-search-'));
  stack = await createMainStack({
    ...stackOptions(dir),
    service: { environment: 'training', simulator: { processingDelayMs: 0 } },
  });
  await stack.directory.createFirstAdmin({ id: 'ada', displayName: 'Ada', password: 'a long password 42' });
  await stack.directory.createOperator('ada', {
    id: 'ana',
    displayName: 'Ana',
    role: 'agent',
    password: 'agent password 1234',
  });
  await stack.directory.createOperator('ada', {
    id: 'sam',
    displayName: 'Sam',
    role: 'supervisor',
    password: 'supervisor pass 1234',
  });
  await ok('session:signIn', { id: 'ana', password: 'agent password 1234' });
  const { reservation: first } = await ok<{ reservation?: ReservationView }>('reservations:get', {
    reservationId: 'MEX-2H8R5T',
  });
  const { reservation: second } = await ok<{ reservation?: ReservationView }>('reservations:get', {
    reservationId: 'SJD-3B7N1C',
  });
  if (!first || !second) throw new Error('the training store has no demo reservations');
  const pay = async (reservation: ReservationView, number: string, by: string) => {
    const method = await ok<{ id: string }>('payments:tokenize', {
      operationId: randomUUID(),
      card: {
        number,
        expMonth: 12,
        expYear: new Date().getUTCFullYear() + 2,
        cvv: number.startsWith('37') ? '1234' : '123',
      },
      reservationId: reservation.confirmationNumber,
    });
    const payment = await ok<{ id: string }>('payments:pay', {
      operationId: randomUUID(),
      methodId: method.id,
      amountCents: 5000,
      currency: reservation.currency,
      reservationId: reservation.confirmationNumber,
    });
    made.push({ id: payment.id, reservation, last4: number.slice(-4), by });
  };
  await pay(first, '4242424242424242', 'ana');
  await pay(second, '5555555555554444', 'ana');
  await signInAs('sam', 'supervisor pass 1234');
  await pay(second, '4000056655665556', 'sam');
});
afterAll(async () => {
  await stack.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('payments:search', () => {
  it('finds by reservation, payment id (prefix), guest name, last 4 and agent; newest first, with brand and last 4', async () => {
    const [a, b, c] = made as [(typeof made)[0], (typeof made)[0], (typeof made)[0]];
    expect(await search({})).toEqual([c.id, b.id, a.id]);
    expect(await search({ reservationId: b.reservation.confirmationNumber.toLowerCase() })).toEqual([c.id, b.id]);
    expect(await search({ paymentId: a.id.slice(0, 12) })).toEqual(expect.arrayContaining([a.id]));
    expect(await search({ paymentId: a.id })).toEqual([a.id]);
    expect(await search({ guestName: 'muñoz' })).toEqual([a.id]);
    expect(await search({ guestName: "O'Connor" })).toEqual([c.id, b.id]);
    expect(await search({ last4: '4444' })).toEqual([b.id]);
    expect(await search({ operatorId: 'SAM' })).toEqual([c.id]);
    expect(await search({ reservationId: b.reservation.confirmationNumber, operatorId: 'ana' })).toEqual([b.id]);
    const [found] = (await ok<{ payments: PaymentSummary[] }>('payments:search', { last4: '4242' })).payments;
    expect(found).toMatchObject({ id: a.id, brand: 'visa', last4: '4242', operatorId: 'ana', amountCents: 5000 });
  });

  it('by local dates: today finds them, yesterday does not; a range the wrong way round is refused in words', async () => {
    expect(await search({ from: today(), to: today() })).toHaveLength(3);
    expect(await search({ to: today(-1) })).toEqual([]);
    expect(await search({ from: today(1) })).toEqual([]);
    expect(await stack.dispatch('payments:search', sender, { from: today(), to: today(-1) })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', field: 'to' },
    });
  });

  it('is for supervisors and admins: an agent is refused', async () => {
    await signInAs('ana', 'agent password 1234');
    expect(await stack.dispatch('payments:search', sender, {})).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });
    await signInAs('sam', 'supervisor pass 1234');
  });
});
