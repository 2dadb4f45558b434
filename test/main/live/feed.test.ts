// Pushed and not polled: desks, each a full main stack with its own data folder, on one real PostgreSQL center
// and one simulator in this process. What one desk writes reaches another desk's open screens through LISTEN/NOTIFY,
// within 2 s, with no call from that desk; each desk holds at most 2 connections (counted in pg_stat_activity, by the
// application_name each desk's storage is given), the LISTEN one only while a screen watches; a PostgreSQL restart is
// survived with a resync that makes up what was missed. Nothing is mocked.
import { randomUUID } from 'node:crypto';
import { connect as connectTcp, createServer, type Server, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CENTER_STORES } from '../../../main/center';
import { useSimulator } from '../../support/simulator';
import { centerStorage, LISTEN_APPLICATION_SUFFIX } from '../../../main/storage';
import type { EventName, Output } from '../../../shared/ipc';
import { createCenter, type TestCenter } from '../../support/center';
import { testPostgres } from '../../support/pg';
import { startPostgres, type PostgresServer } from '../../support/postgres';
import { AGENT, SUPERVISOR, attachedTo, openDesk, type Desk } from '../app/desk-kit';

// Zoë Anderson, 980.00 USD due (main/reservations/demo.ts).
const RESERVATION = 'CUN-6B3D8F';

interface Heard {
  event: EventName;
  payload: unknown;
  at: number;
}

interface LiveDesk extends Desk {
  name: string;
  heard: Heard[];
  /** The first event heard from now on that `match` accepts (or a timeout). */
  next(event: EventName, match?: (payload: never) => boolean, timeoutMs?: number): Promise<Heard>;
}

const sim = useSimulator({ processingDelayMs: 0, refundDelayMs: 0 });
const desks: LiveDesk[] = [];

afterEach(async () => {
  for (const desk of desks.splice(0)) await desk.close();
});

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A desk on `center`, named in pg_stat_activity by its own application_name; its LISTEN connection through `listen` if given. */
async function openLiveDesk(
  center: TestCenter,
  name: string,
  seed: boolean,
  listen?: { host: string; port: number },
): Promise<LiveDesk> {
  const applicationName = `cpd-test-${name}-${randomUUID().slice(0, 8)}`;
  const storage = () => centerStorage({ ...center.app, applicationName, ...(listen === undefined ? {} : { listen }) });
  const desk = await openDesk({ connect: attachedTo(sim) }, { storage, seed });
  const heard: Heard[] = [];
  const waiting = new Set<() => void>();
  desk.stack.onEvent((event, payload) => {
    heard.push({ event, payload, at: Date.now() });
    for (const wake of waiting) wake();
  });
  const live: LiveDesk = Object.assign(desk, {
    name: applicationName,
    heard,
    next(event: EventName, match: (payload: never) => boolean = () => true, timeoutMs = 10_000): Promise<Heard> {
      const from = heard.length;
      return new Promise<Heard>((resolve, reject) => {
        const look = (): void => {
          const found = heard.slice(from).find((h) => h.event === event && match(h.payload as never));
          if (found === undefined) return;
          clearTimeout(timer);
          waiting.delete(look);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiting.delete(look);
          reject(new Error(`${name} never heard ${event}`));
        }, timeoutMs);
        waiting.add(look);
      });
    },
  });
  desks.push(live);
  return live;
}

/**
 * A TCP relay to the center (the `listen` address IT may give a desk, main/storage/postgres.ts) that the test can hold
 * shut: while shut, every connection through it is closed at once, as a server that is not back yet would. Nothing in the
 * desk is replaced; it only decides, instead of the clock, when the desk's listener can be back.
 */
interface Relay {
  address: { host: string; port: number };
  shut(): void;
  open(): void;
  close(): Promise<void>;
}

async function relayTo(target: { host: string; port: number }): Promise<Relay> {
  let shut = false;
  const sockets = new Set<Socket>();
  const server: Server = createServer((incoming) => {
    if (shut) {
      incoming.destroy();
      return;
    }
    const outgoing = connectTcp(target.port, target.host);
    for (const socket of [incoming, outgoing]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    incoming.pipe(outgoing).pipe(incoming);
    incoming.on('close', () => outgoing.destroy());
    outgoing.on('close', () => incoming.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    address: { host: '127.0.0.1', port },
    shut: () => (shut = true),
    open: () => (shut = false),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The connections a desk holds on the server now, by kind. */
async function connectionsOf(center: TestCenter, desk: LiveDesk): Promise<{ total: number; listen: number }> {
  const rows = await center.query<{ application_name: string }>(
    'SELECT application_name FROM pg_stat_activity WHERE application_name LIKE $1',
    [`${desk.name}%`],
  );
  return {
    total: rows.length,
    listen: rows.filter((row) => row.application_name.endsWith(LISTEN_APPLICATION_SUFFIX)).length,
  };
}

async function payAt(desk: Desk, amountCents = 20_000): Promise<Output<'payments:pay'>> {
  const methodId = await desk.card(RESERVATION);
  const payment = await desk.ok<Output<'payments:pay'>>('payments:pay', {
    operationId: randomUUID(),
    methodId,
    amountCents,
    currency: 'usd',
    reservationId: RESERVATION,
  });
  await desk.until(payment.id, (status) => status === 'succeeded');
  return payment;
}

async function requestAt(desk: Desk, paymentId: string): Promise<{ id: string }> {
  return desk.ok<{ id: string }>('refunds:request', {
    requestId: randomUUID(),
    paymentId,
    amountCents: 1_000,
    reason: 'cancellation',
  });
}

/** A window of the desk watches; answers once the feed listens (the first `live:status` after it). */
async function watchLive(desk: LiveDesk, watch: { queue: boolean; reservations: string[] }): Promise<void> {
  const listening = desk.next('live:status', (payload: { state: string }) => payload.state === 'live');
  const answer = await desk.ok<Output<'live:watch'>>('live:watch', watch);
  expect(['connecting', 'live']).toContain(answer.state);
  if (answer.state !== 'live') await listening;
}

describe('desks on the shared center', () => {
  let center: TestCenter;
  beforeEach(async () => {
    center = await createCenter(await testPostgres(), { stores: CENTER_STORES });
  }, 120_000);
  afterEach(async () => {
    for (const desk of desks.splice(0)) await desk.close();
    await center.drop();
  });

  it("a refund request made at desk A is pushed to the supervisor's queue at desk B within 2 s, B asking nothing", async () => {
    const a = await openLiveDesk(center, 'A', true);
    const b = await openLiveDesk(center, 'B', false);
    await a.signIn(AGENT);
    const payment = await payAt(a);
    await b.signIn(SUPERVISOR);
    await watchLive(b, { queue: true, reservations: [] });

    const pushed = b.next('refunds:changed');
    const asked = Date.now();
    const request = await requestAt(a, payment.id);
    const heard = await pushed;
    expect(heard.payload).toEqual({ requestId: request.id, paymentId: payment.id });
    expect(heard.at - asked).toBeLessThan(2_000);
    // What the supervisor's queue reads on that event has the request.
    const queue = await b.ok<Output<'refunds:queue'>>('refunds:queue', {});
    expect(queue.requests.map((r) => r.id)).toContain(request.id);

    // Decided at B: A hears of it the same way (its window watches the payment's reservation).
    await watchLive(a, { queue: false, reservations: [RESERVATION] });
    const decided = a.next('refunds:changed', (p: { requestId: string }) => p.requestId === request.id);
    await b.ok('refunds:reject', { requestId: request.id, note: 'Not refundable.' });
    expect((await decided).payload).toEqual({ requestId: request.id, paymentId: payment.id });
  });

  it("a payment's status changed at desk A reaches desk B's open reservation within 2 s", async () => {
    const a = await openLiveDesk(center, 'A', true);
    const b = await openLiveDesk(center, 'B', false);
    await a.signIn(AGENT);
    await b.signIn(SUPERVISOR);
    await watchLive(b, { queue: false, reservations: [RESERVATION.toLowerCase()] });

    const succeededAtA = a.next('payments:changed', (p: { status: string }) => p.status === 'succeeded');
    const succeededAtB = b.next('payments:changed', (p: { status: string }) => p.status === 'succeeded');
    const payment = await payAt(a);
    const [there, here] = await Promise.all([succeededAtA, succeededAtB]);
    expect(here.payload).toMatchObject({ id: payment.id, reservationId: RESERVATION, status: 'succeeded' });
    expect(here.at - there.at).toBeLessThan(2_000);
    // The attempt itself (its operation begun, then answered) was announced for the reservation as B's window named it.
    expect(
      b.heard.some(
        (h) =>
          h.event === 'reservations:changed' &&
          (h.payload as { reservationId: string }).reservationId === RESERVATION.toLowerCase(),
      ),
    ).toBe(true);
  });

  it('another reservation, or nobody watching: nothing is pushed and no LISTEN connection is held', async () => {
    const a = await openLiveDesk(center, 'A', true);
    const b = await openLiveDesk(center, 'B', false);
    await a.signIn(AGENT);
    await b.signIn(SUPERVISOR);
    expect((await connectionsOf(center, b)).listen).toBe(0);
    await watchLive(b, { queue: false, reservations: ['CUN-OTHER1'] });
    await payAt(a);
    await sleep(300);
    expect(b.heard.filter((h) => h.event === 'payments:changed' || h.event === 'reservations:changed')).toEqual([]);
  });

  it('the connection budget: at most 2 per desk while working, the LISTEN one only while a screen watches', async () => {
    const a = await openLiveDesk(center, 'A', true);
    const b = await openLiveDesk(center, 'B', false);
    await a.signIn(AGENT);
    await b.signIn(SUPERVISOR);
    await watchLive(a, { queue: false, reservations: [RESERVATION] });
    await watchLive(b, { queue: true, reservations: [RESERVATION] });

    // Sampled while both desks work at once: payments and refund requests at A, the queue and searches at B.
    let most = { a: 0, b: 0 };
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const [atA, atB] = await Promise.all([connectionsOf(center, a), connectionsOf(center, b)]);
        most = { a: Math.max(most.a, atA.total), b: Math.max(most.b, atB.total) };
        await sleep(20);
      }
    })();
    const work = async (): Promise<void> => {
      for (let i = 0; i < 3; i += 1) {
        const payment = await payAt(a, 10_000 + i);
        await requestAt(a, payment.id);
      }
    };
    const browse = async (): Promise<void> => {
      for (let i = 0; i < 15; i += 1) {
        await Promise.all([
          b.ok('refunds:queue', {}),
          b.ok('reservations:overview', { reservationId: RESERVATION }),
          b.ok('payments:search', { reservationId: RESERVATION }),
        ]);
      }
    };
    await Promise.all([work(), browse()]);
    sampling = false;
    await sampler;
    expect(most.a).toBeGreaterThan(0);
    expect(most.a).toBeLessThanOrEqual(2);
    expect(most.b).toBeLessThanOrEqual(2);
    expect((await connectionsOf(center, b)).listen).toBe(1);

    // The screens close: the LISTEN connection goes (the pooled one stays until it is idle for 30 s).
    await b.ok('live:watch', { queue: false, reservations: [] });
    await a.ok('live:watch', { queue: false, reservations: [] });
    for (
      let i = 0;
      i < 50 && ((await connectionsOf(center, a)).listen > 0 || (await connectionsOf(center, b)).listen > 0);
      i += 1
    )
      await sleep(50);
    expect((await connectionsOf(center, a)).listen).toBe(0);
    expect((await connectionsOf(center, b)).listen).toBe(0);
    expect((await connectionsOf(center, b)).total).toBeLessThanOrEqual(1);

    // A session that locks takes its windows' watching with it.
    await watchLive(b, { queue: true, reservations: [] });
    expect((await connectionsOf(center, b)).listen).toBe(1);
    await b.ok('session:lock', {});
    for (let i = 0; i < 50 && (await connectionsOf(center, b)).listen > 0; i += 1) await sleep(50);
    expect((await connectionsOf(center, b)).listen).toBe(0);
  });
});

describe('a PostgreSQL restart (a center of its own, stopped and started by this file)', () => {
  let own: PostgresServer;
  let center: TestCenter;
  beforeAll(async () => {
    own = await startPostgres();
  }, 120_000);
  afterAll(async () => {
    await own?.stop();
  });
  beforeEach(async () => {
    center = await createCenter(own, { stores: CENTER_STORES });
  }, 120_000);
  afterEach(async () => {
    for (const desk of desks.splice(0)) await desk.close();
    await center.drop().catch(() => undefined);
  });

  it('the LISTEN connection comes back with backoff, says so, and a request added while it was down is caught by the resync', async () => {
    // B's LISTEN goes through a relay the test holds shut after the restart: the request below is written while B's
    // listener is certainly still away, whatever its backoff's jitter and the machine's load (the clock decided before).
    const relay = await relayTo({ host: String(center.app.host), port: Number(center.app.port) });
    try {
      await reconnectsAndResyncs(relay);
    } finally {
      await relay.close();
    }
  });

  async function reconnectsAndResyncs(relay: Relay): Promise<void> {
    const a = await openLiveDesk(center, 'A', true);
    const b = await openLiveDesk(center, 'B', false, relay.address);
    await a.signIn(AGENT);
    const payment = await payAt(a);
    const second = await payAt(a, 5_000);
    await b.signIn(SUPERVISOR);
    await watchLive(b, { queue: true, reservations: [] });
    expect((await connectionsOf(center, b)).listen).toBe(1);

    const reconnecting = b.next('live:status', (p: { state: string }) => p.state === 'reconnecting');
    await own.stopServer();
    try {
      await reconnecting;
      relay.shut();
    } finally {
      await own.startServer();
    }
    // Back at A (its pool connects again), while B's listener keeps failing and trying again: no notification can reach B.
    const request = await requestAt(a, payment.id);
    expect((await connectionsOf(center, b)).listen).toBe(0);
    expect(b.heard.some((h) => h.event === 'refunds:changed')).toBe(false);
    const back = b.next('live:resync', () => true, 30_000);
    relay.open();
    const resync = await back;
    expect(
      b.heard.some(
        (h) => h.event === 'live:status' && (h.payload as { state: string }).state === 'live' && h.at <= resync.at,
      ),
    ).toBe(true);
    // The one read a screen makes on `live:resync` has it: nothing was missed.
    const queue = await b.ok<Output<'refunds:queue'>>('refunds:queue', {});
    expect(queue.requests.map((r) => r.id)).toContain(request.id);

    // And the feed works again: the next request is pushed.
    const pushed = b.next('refunds:changed');
    const again = await requestAt(a, second.id);
    expect(((await pushed).payload as { requestId: string }).requestId).toBe(again.id);
  }
});
