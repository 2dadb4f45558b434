// A security code written in a payment's note as an agent writes it from a call, through the real door: refused with
// the field named, and neither the service nor the desk's files ever hold it.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSimulator } from '../../support/simulator';
import { AGENT, attachedTo, openDesk, type Desk } from '../app/desk-kit';

const RESERVATION = 'CUN-6B3D8F';
const sim = useSimulator({ processingDelayMs: 0, refundDelayMs: 0 }, { resetAfterEach: false });
let desk: Desk;

beforeAll(async () => {
  desk = await openDesk({ connect: attachedTo(sim) });
}, 60_000);

afterAll(async () => {
  await desk.close();
});

describe("a security code in a payment's note", () => {
  it('"el cvv de la tarjeta es 123": refused, the note named', async () => {
    await desk.signIn(AGENT);
    const methodId = await desk.card(RESERVATION);
    const pay = {
      operationId: randomUUID(),
      methodId,
      amountCents: 1_000,
      currency: 'mxn',
      reservationId: RESERVATION,
      note: 'el cvv de la tarjeta es 123',
    };
    expect(await desk.refused('payments:pay', pay)).toMatchObject({ code: 'security_code_in_text', field: 'note' });
  });
});
