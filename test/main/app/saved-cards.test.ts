// Saved cards by consent, through the real door: a card is offered again only when the guest agreed to keep it (the pay
// request's keepCard, recorded with who and when in the journal and the audit trail), and a declined card never is.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Output } from '../../../shared/ipc';
import { AGENT, openDesk, type Desk } from './desk-kit';

// Sarah Nguyen, a USD reservation (main/reservations/demo.ts).
const RESERVATION = 'CUN-5Z2A8B';
let desk: Desk;
const methods = async () =>
  (await desk.ok<Output<'reservations:overview'>>('reservations:overview', { reservationId: RESERVATION })).methods;
const pay = (methodId: string, keepCard?: boolean) =>
  desk.ok<Output<'payments:pay'>>('payments:pay', {
    operationId: randomUUID(),
    methodId,
    amountCents: 1_000,
    currency: 'usd',
    reservationId: RESERVATION,
    ...(keepCard === undefined ? {} : { keepCard }),
  });

beforeAll(async () => {
  desk = await openDesk();
  await desk.signIn(AGENT);
});
afterAll(async () => {
  await desk.close();
});

describe('saved cards by consent only', () => {
  it('a card charged without consent (or with keepCard false) is not offered again', async () => {
    const first = await desk.card(RESERVATION);
    await desk.until((await pay(first)).id, (s) => s === 'succeeded');
    const second = await desk.card(RESERVATION, '5555555555554444');
    await desk.until((await pay(second, false)).id, (s) => s === 'succeeded');
    expect(await methods()).toEqual([]);
  });

  it('a card charged with the guest’s consent is offered, with who recorded it and when, in the journal and the audit trail', async () => {
    const before = Date.now();
    const methodId = await desk.card(RESERVATION, '378282246310005');
    const paid = await pay(methodId, true);
    await desk.until(paid.id, (s) => s === 'succeeded');
    const listed = await methods();
    expect(listed).toEqual([expect.objectContaining({ id: methodId, brand: 'amex', last4: '0005', keptBy: AGENT.id })]);
    expect(Date.parse(listed[0]?.keptAt ?? '')).toBeGreaterThanOrEqual(before - 1000);
    const [row] = await desk.stack.audit.query({ action: 'payment.create', resource: paid.id }, 1);
    expect(row).toMatchObject({ actor: AGENT.id, outcome: 'ok', details: { keepCard: true, methodId } });
    // Charged again, consent again: the first consent stands.
    await desk.until((await pay(methodId, true)).id, (s) => s === 'succeeded');
    expect((await methods())[0]?.keptAt).toBe(listed[0]?.keptAt);
  });

  it('a declined card is never offered, even with consent; nor a card the payment refused before it was made', async () => {
    const declined = await desk.card(RESERVATION, '4000000000000002');
    await desk.until((await pay(declined, true)).id, (s) => s === 'failed');
    expect((await methods()).map((m) => m.id)).not.toContain(declined);
    expect((await methods()).map((m) => m.last4)).toEqual(['0005']);
  });
});
