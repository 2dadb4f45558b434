// One fetch for main: every outbound request of the stack (service tokens, payments, the messaging outbox's challenge
// page, the partner's reservation system) goes through the `fetch` its caller gives (Electron's net.fetch in the app).
// Nothing is faked: the simulator and the partner system are real local servers; the given fetch records and forwards.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMainStack, type MainStack } from '../../../main/app';
import type { SenderInfo } from '../../../main/ipc';
import { json, startPartner, type PartnerServer } from '../reservations/partner-server';
import { MIN_COST } from '../../../main/operators';

const sender: SenderInfo = { url: 'app://app/index.html', isMainFrame: true, webContentsId: 1 };
const RESERVATION = {
  confirmationNumber: 'CUN-FETCH1',
  guestName: 'Ana Núñez',
  checkIn: '2030-01-10',
  checkOut: '2030-01-12',
  hotelName: 'Casa Azul',
  balanceDue: 120,
  currency: 'mxn',
};

let dir: string;
let partner: PartnerServer;
let stack: MainStack;
const seen: string[] = [];
const given = vi.fn<typeof fetch>((input, init) => {
  seen.push(new URL(input instanceof Request ? input.url : input.toString()).pathname);
  return fetch(input, init);
});

async function ok<T>(channel: string, input: unknown): Promise<T> {
  const result = await stack.dispatch(channel, sender, input);
  if (!result.ok) throw new Error(`${channel}: ${result.error.code} ${result.error.message}`);
  return result.value as T;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'stack-fetch-'));
  partner = await startPartner();
  partner.handle((req, res) =>
    json(res, 200, req.url?.startsWith('/reservations?') === true ? [RESERVATION] : RESERVATION),
  );
  stack = await createMainStack({
    passwordCost: MIN_COST,
    dataDir: dir,
    version: 'test',
    fetch: given,
    isTrustedSender: () => true,
    service: { environment: 'training', simulator: { processingDelayMs: 0 } },
    reservations: { kind: 'rest', baseUrl: partner.baseUrl },
  });
  await stack.directory.createFirstAdmin({ id: 'ada', displayName: 'Ada', password: 'a long password 42' });
  await stack.directory.createOperator('ada', {
    id: 'ana',
    displayName: 'Ana',
    role: 'agent',
    password: 'agent password 1234',
  });
  await ok('session:signIn', { id: 'ana', password: 'agent password 1234' });
});

afterAll(async () => {
  await stack.close();
  await partner.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the stack’s one fetch', () => {
  it('carries the reservation lookup, the token, the card, the payment and the training challenge answer', async () => {
    const { reservations } = await ok<{ reservations: { confirmationNumber: string }[] }>('reservations:search', {
      text: 'Núñez',
    });
    expect(reservations.map((r) => r.confirmationNumber)).toEqual(['CUN-FETCH1']);

    const method = await ok<{ id: string }>('payments:tokenize', {
      operationId: randomUUID(),
      // The simulator's 3-D Secure card: the payment waits for the cardholder's answer.
      card: { number: '4000000000003220', expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvv: '123' },
      reservationId: 'CUN-FETCH1',
    });
    const payment = await ok<{ id: string; status: string }>('payments:pay', {
      operationId: randomUUID(),
      methodId: method.id,
      amountCents: 12000,
      currency: 'mxn',
      reservationId: 'CUN-FETCH1',
      acknowledgedPaymentIds: [],
    });
    expect(payment.status).toBe('requires_action');

    const sent = await ok<{ status: string; messageId: string }>('messaging:sendLink', {
      paymentId: payment.id,
      channel: 'email',
      destination: 'ana@example.com',
      language: 'es-MX',
    });
    expect(sent.status).toBe('sent');
    await ok('messaging:playCardholder', { messageId: sent.messageId, answer: 'approve' });

    // Each capability's requests went through the given fetch: the partner system, the service's token, card and
    // payment endpoints, and the simulator's challenge page (answered from the training outbox).
    expect(seen).toContain('/reservations');
    expect(seen.some((path) => path.endsWith('/oauth2/token'))).toBe(true);
    expect(seen.some((path) => path.endsWith('/methods'))).toBe(true);
    expect(seen.some((path) => path.endsWith('/payments'))).toBe(true);
    expect(seen.some((path) => path.includes('/challenge/'))).toBe(true);
    expect(partner.requests.map((r) => r.url)).toContain('/reservations?q=N%C3%BA%C3%B1ez');
    expect(partner.requests).toHaveLength(seen.filter((path) => path.startsWith('/reservations')).length);
  });
});
