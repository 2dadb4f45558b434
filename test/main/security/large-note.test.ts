// A note far longer than any field, through the real door: refused for its length before the card-data detector reads
// it (the card number inside it is never what the refusal names), and nothing of it is written.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT, openDesk, SUPERVISOR, type Desk } from '../app/desk-kit';
import { pansInFolder } from '../support/card-scan';

/** 32 MB of an ordinary note, then a card number and its CVV. */
const HUGE_NOTE = `${'Cargo duplicado según la huésped. '.repeat(1 << 20)}Tarjeta 4242 4242 4242 4242, cvv 123`;

let desk: Desk;

beforeAll(async () => {
  desk = await openDesk();
}, 60_000);

afterAll(async () => {
  await desk.close();
});

describe('a 32 MB note at the door', () => {
  it('a payment note and a refund note: refused for their length, the field named, never for the card inside', async () => {
    expect(HUGE_NOTE.length).toBeGreaterThan(32 * 1024 * 1024);
    await desk.signIn(AGENT);
    const pay = {
      operationId: randomUUID(),
      methodId: `mth_${'a'.repeat(32)}`,
      amountCents: 1_000,
      currency: 'mxn',
      reservationId: 'CUN-6B3D8F',
      note: HUGE_NOTE,
    };
    expect(await desk.refused('payments:pay', pay)).toEqual({
      code: 'invalid_input',
      field: 'note',
    });
    const request = {
      requestId: randomUUID(),
      paymentId: `pay_${'b'.repeat(32)}`,
      amountCents: 1_000,
      reason: 'duplicate',
      note: HUGE_NOTE,
    };
    expect(await desk.refused('refunds:request', request)).toEqual({
      code: 'invalid_input',
      field: 'note',
    });
    await desk.signIn(SUPERVISOR);
    expect(await desk.refused('refunds:reject', { requestId: randomUUID(), note: HUGE_NOTE })).toEqual({
      code: 'invalid_input',
      field: 'note',
    });
    await desk.stack.audit.flush();
    expect(pansInFolder(desk.dir, ['4242424242424242'])).toEqual([]);
  }, 120_000);
});
