// The whole door, end to end: dispatcher → handlers → the real engine, journal and simulator over HTTP.
// The session is an in-memory stand-in for the operators capability (sign-in has its own tests there).
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDispatcher, createHandlers, type SessionPort } from '../../../main/ipc';
import { createMessenger, type Messenger } from '../../../main/messaging';
import { Journal, PaymentEngine, simulatorConfig } from '../../../main/payments';
import { RefundDesk, RefundRequests } from '../../../main/refunds';
import { embeddedStorage } from '../../../main/storage';
import { useSimulator } from '../../support/simulator';
import type { OperatorView } from '../../../shared/operators';
import { AGENT, SUPERVISOR, trusted } from './fixtures';
import { openJournal } from '../../support/journal';

const sim = useSimulator({ processingDelayMs: 0, refundDelayMs: 0 }, { resetAfterEach: false });
let dir: string;
let journal: Journal;
let engine: PaymentEngine;
let messenger: Messenger;
let requests: RefundRequests;
let signedIn: OperatorView | undefined;
const followed: string[] = [];
const protected_: [number, boolean][] = [];
let language: 'es-MX' | 'en-US' = 'es-MX';
const reservations = {
  search: () => Promise.resolve([]),
  get: (id: string) =>
    Promise.resolve(
      id.startsWith('R-')
        ? {
            confirmationNumber: id,
            guestName: 'Ana',
            checkIn: '2026-12-01',
            checkOut: '2026-12-02',
            hotelName: 'Hotel Costa Turquesa',
            balanceDueCents: id === 'R-3DS' ? 5000 : 8000,
            currency: 'usd' as const,
            guestLanguage: 'en-US' as const,
            guestLanguageFrom: 'default' as const,
          }
        : undefined,
    ),
  importCsv: () => ({ ok: true as const, created: 0, updated: 0 }),
};
const preferences = {
  language: () => ({ language, locked: false }),
  setLanguage: (next: 'es-MX' | 'en-US') => Promise.resolve((language = next)),
};

const session: SessionPort = {
  status: () => Promise.resolve({ operator: signedIn, locked: false, needsFirstAdmin: false }),
  signIn: () => Promise.reject(new Error('not used here')),
  createFirstAdmin: () => Promise.reject(new Error('not used here')),
  signOut: () => {
    signedIn = undefined;
    return Promise.resolve();
  },
  lock: () => undefined,
  endLocked: () => Promise.resolve(undefined),
  touch: () => void touches++,
};
let touches = 0;
const unused = (): never => {
  throw new Error('not used here');
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ipc-handlers-'));
  journal = await openJournal(dir);
  engine = new PaymentEngine({
    config: simulatorConfig(sim),
    secrets: { read: () => Promise.resolve(sim.clientSecret) },
    journal,
    fetch,
  });
  requests = await RefundRequests.open(embeddedStorage(dir), { deskId: '3f1c2a4e-7b1d-4c8e-9a2f-5d6e7f809a1b' });
  messenger = createMessenger({
    environment: 'training',
    secrets: { read: () => Promise.resolve(undefined) },
    dataDir: dir,
    fetch,
  });
});
afterAll(async () => {
  await engine.close();
  await messenger.close();
  await requests.close();
  await journal.close();
  rmSync(dir, { recursive: true, force: true });
});

const DESK_ID = '3f1c2a4e-7b1d-4c8e-9a2f-5d6e7f809a1b';

const dispatch = (withEngine: PaymentEngine = engine) =>
  createDispatcher({
    handlers: createHandlers({
      engine: withEngine,
      session,
      app: {
        environment: 'training',
        version: '0.1.0',
        deskId: DESK_ID,
        storage: 'center',
        center: 'db.center.example:5432/card_desk',
      },
      preferences,
      reservations,
      messaging: messenger,
      refunds: new RefundDesk({ engine: withEngine, requests, history: journal, verifyApprover: unused }),
      // The supervisor desk's reads and accounts have their own tests (test/main/app/desk.test.ts).
      desk: { searchPayments: unused, auditList: unused, auditCsv: unused, auditVerify: unused, endOfDay: unused },
      accounts: { list: unused, create: unused, update: unused, resetPassword: unused },
      updates: { status: () => ({ state: 'disabled' }), restart: () => undefined },
      follow: (id) => void followed.push(id),
      live: () => 'local',
      protectCardData: (id, active) => protected_.push([id, active]),
    }),
    currentOperator: () => signedIn,
    isTrustedSender: () => true,
  });

describe('through the door to the engine', () => {
  it('typing in the window (session:activity) reaches the session as activity, for the idle lock', async () => {
    signedIn = AGENT;
    const before = touches;
    expect(await dispatch()('session:activity', trusted, {})).toEqual({ ok: true, value: { ok: true } });
    expect(touches).toBe(before + 1);
    signedIn = undefined;
    expect(await dispatch()('session:activity', trusted, {})).toMatchObject({
      ok: false,
      error: { code: 'signed_out' },
    });
    expect(touches).toBe(before + 1);
  });

  it('an agent tokenizes and charges; a refund needs a supervisor; the journal records who did it', async () => {
    signedIn = AGENT;
    const call = dispatch();
    const card = { number: '4242 4242 4242 4242', expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvv: '123' };
    const method = await call('payments:tokenize', trusted, { operationId: randomUUID(), card, reservationId: 'R-77' });
    expect(method).toMatchObject({ ok: true, value: { brand: 'visa', last4: '4242' } });
    expect(JSON.stringify(method)).not.toContain('4242424242424242');
    if (!method.ok) throw new Error('tokenize failed');
    const { id: methodId } = method.value as { id: string };

    const paid = await call('payments:pay', trusted, {
      operationId: randomUUID(),
      methodId,
      amountCents: 8000,
      currency: 'usd',
      reservationId: 'R-77',
      keepCard: true,
      acknowledgedPaymentIds: [],
    });
    expect(paid).toMatchObject({ ok: true, value: { status: 'processing', amountCents: 8000 } });
    if (!paid.ok) throw new Error('pay failed');
    const { id: paymentId } = paid.value as { id: string };
    expect((await journal.payment(paymentId))?.operatorId).toBe(AGENT.id);

    expect(await call('payments:get', trusted, { paymentId })).toMatchObject({
      ok: true,
      value: { status: 'succeeded' },
    });
    expect(await call('payments:watch', trusted, { paymentId })).toEqual({ ok: true, value: { ok: true } });
    expect(followed).toEqual([paymentId]);
    expect(await call('window:protectCardData', trusted, { active: true })).toEqual({ ok: true, value: { ok: true } });
    expect(protected_).toEqual([[trusted.webContentsId, true]]);
    expect(await call('app:setLanguage', trusted, { language: 'en-US' })).toEqual({
      ok: true,
      value: { language: 'en-US' },
    });
    expect(await call('app:info', trusted, {})).toEqual({
      ok: true,
      value: {
        environment: 'training',
        version: '0.1.0',
        language: 'en-US',
        languageLocked: false,
        deskId: DESK_ID,
        storage: 'center',
        center: 'db.center.example:5432/card_desk',
      },
    });

    const refund = {
      operationId: randomUUID(),
      paymentId,
      amountCents: 2000,
      reason: 'requested_by_customer',
      acknowledgedRefundIds: [],
      expectedAmountCents: 2000,
    };
    expect(await call('refunds:create', trusted, refund)).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect((await journal.payment(paymentId))?.refunds).toEqual([]);

    signedIn = SUPERVISOR;
    expect(await call('refunds:create', trusted, refund)).toMatchObject({ ok: true, value: { refundableCents: 6000 } });
    expect((await journal.payment(paymentId))?.refunds.map((r) => r.operatorId)).toEqual([SUPERVISOR.id]);

    const over = await call('refunds:create', trusted, {
      ...refund,
      operationId: randomUUID(),
      amountCents: 6100,
      expectedAmountCents: 6100,
    });
    expect(over).toMatchObject({ ok: false, error: { code: 'refund_exceeds_remaining', field: 'amountCents' } });
  });

  it('sends a 3DS link with what main knows of the payment (operator, hotel, brand and last 4), never what the renderer says', async () => {
    signedIn = AGENT;
    const call = dispatch();
    const card = { number: '4000000000003220', expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvv: '123' };
    const method = await call('payments:tokenize', trusted, {
      operationId: randomUUID(),
      card,
      reservationId: 'R-3DS',
    });
    if (!method.ok) throw new Error('tokenize failed');
    const paid = await call('payments:pay', trusted, {
      operationId: randomUUID(),
      methodId: (method.value as { id: string }).id,
      amountCents: 5000,
      currency: 'usd',
      reservationId: 'R-3DS',
      acknowledgedPaymentIds: [],
    });
    if (!paid.ok) throw new Error('pay failed');
    const paymentId = (paid.value as { id: string }).id;
    expect(paid.value).toMatchObject({ status: 'requires_action', hasChallengeLink: true });
    // The 3DS link (with its token) never crosses to the renderer: not in the answer, the read, the overview or an event.
    const crossed = [
      paid,
      await call('payments:get', trusted, { paymentId }),
      await call('reservations:overview', trusted, { reservationId: 'R-3DS' }),
    ];
    for (const answer of crossed) expect(JSON.stringify(answer)).not.toMatch(/\/challenge\/|nextAction|https?:\/\//);

    const extra = await call('messaging:sendLink', trusted, {
      paymentId,
      channel: 'sms',
      destination: '+52 55 1234 5678',
      language: 'es-MX',
      hotelName: 'Evil',
    });
    expect(extra).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    const badPhone = await call('messaging:sendLink', trusted, {
      paymentId,
      channel: 'sms',
      destination: '12',
      language: 'es-MX',
    });
    expect(badPhone).toMatchObject({ ok: false, error: { code: 'invalid_input', field: 'destination' } });

    const sent = await call('messaging:sendLink', trusted, {
      paymentId,
      channel: 'sms',
      destination: '+52 55 1234 5678',
      language: 'es-MX',
    });
    expect(sent).toMatchObject({
      ok: true,
      value: { status: 'sent', training: true, provider: 'training_outbox', channel: 'sms' },
    });
    expect(JSON.stringify(sent)).not.toContain('5512345678');

    const outbox = await call('messaging:outbox', trusted, {});
    if (!outbox.ok) throw new Error('outbox failed');
    const [message] = (
      outbox.value as { messages: { id: string; operatorId: string; text: string; cardholder: string }[] }
    ).messages;
    expect(message).toMatchObject({ operatorId: AGENT.id, cardholder: 'waiting' });
    expect(message?.text).toContain('Hotel Costa Turquesa');
    expect(message?.text).toContain('3220');

    const played = await call('messaging:playCardholder', trusted, { messageId: message?.id, answer: 'approve' });
    expect(played).toMatchObject({ ok: true, value: { message: { cardholder: 'approved' } } });
    const history = await call('messaging:history', trusted, { paymentId });
    expect(history).toMatchObject({ ok: true, value: { deliveries: [{ operatorId: AGENT.id, channel: 'sms' }] } });
  });

  it('the overview of a reservation lists its payments and saved cards', async () => {
    signedIn = AGENT;
    const overview = await dispatch()('reservations:overview', trusted, { reservationId: 'R-77' });
    expect(overview).toMatchObject({
      ok: true,
      value: { methods: [{ last4: '4242' }], payments: [{ amountCents: 8000 }] },
    });
  });
});

describe('a 3DS link sent', () => {
  it('brings the next check of the payment back to the start of the schedule: the cardholder answers while still on the phone', async () => {
    // The schedule's first read comes quickly, every later one only after a minute: only a restart brings a check soon.
    const slow = new PaymentEngine({
      config: simulatorConfig(sim),
      secrets: { read: () => Promise.resolve(sim.clientSecret) },
      journal,
      fetch,
      pollSchedule: [200, 60_000],
    });
    try {
      signedIn = AGENT;
      const call = dispatch(slow);
      const card = { number: '4000000000003220', expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvv: '123' };
      const method = await call('payments:tokenize', trusted, {
        operationId: randomUUID(),
        card,
        reservationId: 'R-3DS-SOON',
      });
      if (!method.ok) throw new Error('tokenize failed');
      const paid = await call('payments:pay', trusted, {
        operationId: randomUUID(),
        methodId: (method.value as { id: string }).id,
        amountCents: 5000,
        currency: 'usd',
        reservationId: 'R-3DS-SOON',
        acknowledgedPaymentIds: [],
      });
      if (!paid.ok) throw new Error('pay failed');
      const paymentId = (paid.value as { id: string }).id;
      await call('payments:watch', trusted, { paymentId });
      const nextCheck = async (): Promise<number> => {
        const read = await call('payments:get', trusted, { paymentId });
        if (!read.ok) throw new Error('read failed');
        return (read.value as { nextCheckAt: number }).nextCheckAt - Date.now();
      };
      // The first quick read has been made: the next one is a minute away.
      await expect.poll(nextCheck, { timeout: 5_000 }).toBeGreaterThan(30_000);

      const sent = await call('messaging:sendLink', trusted, {
        paymentId,
        channel: 'sms',
        destination: '+52 55 1234 5678',
        language: 'es-MX',
      });
      expect(sent).toMatchObject({ ok: true, value: { status: 'sent' } });
      expect(await nextCheck()).toBeLessThanOrEqual(200);
    } finally {
      await slow.close();
    }
  });
});
