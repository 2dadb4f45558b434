/**
 * One worker process of `npm run bench:center` (test/bench/center.bench.ts starts it with `node --import tsx`): it runs
 * some of the center's desks, each a full main stack (createMainStack, its own data folder) on the center's PostgreSQL
 * as the app role and on the simulator the parent runs. Agents take payments and ask for refunds; supervisors follow the
 * shared queue (pushed events, and at most one read every 30 s when none come) and approve, one request at a time. Everything it measures goes
 * to the parent as messages; nothing is asserted here.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { createMainStack, type MainStack } from '../../main/app';
import { simulatorConfig } from '../../main/payments';
import { BuiltinReservationStore } from '../../main/reservations';
import { centerStorage } from '../../main/storage';
import type { WorkerJob, WorkerMessage } from './center-protocol';

const sender = { url: 'app://app/index.html', isMainFrame: true, webContentsId: 1 };
/** Journal-backed calls whose door latency is measured (each reads or writes the center). */
const TIMED = new Set([
  'payments:pay',
  'payments:get',
  'refunds:request',
  'refunds:queue',
  'refunds:approve',
  'reservations:overview',
]);
const YEAR = new Date().getUTCFullYear() + 2;
/** What a supervisor's open queue does without an event: one read every 30 s. */
const IDLE_READ_MS = 30_000;
/** How long the renderer's queue waits after a pushed change before reading again (renderer/src/features/refunds/api.ts). */
const QUEUE_READ_MS = 300;
/** The events after which the open approval queue reads again, as the renderer's queue does (the push path). */
const QUEUE_EVENTS: readonly string[] = ['refunds:changed', 'live:resync'];

/** Statements the desks of this worker sent to the center (pg's Client.query, counted here: the bench's own figure). */
let queries = 0;
const byText = new Map<string, number>();
const countingText = process.env['BENCH_DEBUG'] === '1';
const query: (this: pg.Client, ...args: unknown[]) => unknown = Reflect.get(pg.Client.prototype, 'query');
Reflect.set(pg.Client.prototype, 'query', function (this: pg.Client, ...args: unknown[]) {
  queries += 1;
  if (countingText) {
    const first = args[0];
    const named = (first as { text?: unknown } | undefined)?.text;
    const text = typeof first === 'string' ? first : typeof named === 'string' ? named : '?';
    const key = text.replace(/\s+/g, ' ').slice(0, 120);
    byText.set(key, (byText.get(key) ?? 0) + 1);
  }
  return query.apply(this, args);
});

const now = (): number => performance.timeOrigin + performance.now();
const send = (message: WorkerMessage): void => void process.send?.(message);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

interface BenchDesk {
  index: number;
  role: 'agent' | 'supervisor';
  stack: MainStack;
  dir: string;
  call<T>(channel: string, input: unknown): Promise<T>;
}

async function openBenchDesk(job: WorkerJob, index: number): Promise<BenchDesk> {
  const dir = mkdtempSync(join(tmpdir(), `center-bench-${index}-`));
  const login = job.logins[index];
  if (login === undefined) throw new Error(`desk ${index} has no login of its own`);
  // A training desk's reservations are its own file's (demo guests never go to the center): the ones this desk charges
  // (BN-<desk>-<n>) are imported there before it starts, as an admin would; a charge goes only on one its source knows.
  const reservations = await BuiltinReservationStore.openFolder(dir, { training: true });
  try {
    const rows = Array.from(
      { length: job.paymentsPerDesk },
      (_, n) => `BN-${index}-${n},Bench Guest,2030-03-14,2030-03-18,Hotel Bench,1000.00,usd`,
    );
    const csv = ['confirmation_number,guest_name,check_in,check_out,hotel_name,balance_due,currency', ...rows].join(
      '\n',
    );
    const imported = await reservations.importCsv(csv);
    if (!imported.ok) throw new Error(`desk ${index}'s reservations were not imported: ${JSON.stringify(imported)}`);
  } finally {
    await reservations.close();
  }
  const seen = new Set<string>();
  // What the service made, as this desk saw it answered: a payment id once per id.
  const counting: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const path = new URL(input instanceof Request ? input.url : String(input)).pathname;
    if ((init?.method ?? 'GET') === 'POST' && response.status === 201 && path.endsWith('/payments')) {
      const body = (await response.clone().json()) as { id?: string };
      if (body.id !== undefined && !seen.has(body.id)) {
        seen.add(body.id);
        send({ type: 'service-payment', paymentId: body.id });
      }
    }
    return response;
  };
  const stack = await createMainStack({
    dataDir: dir,
    version: 'bench',
    fetch: counting,
    isTrustedSender: () => true,
    connect: () =>
      Promise.resolve({
        config: simulatorConfig(job.simulator),
        secrets: { read: () => Promise.resolve(job.simulator.clientSecret) },
        training: { controlUrl: job.simulator.controlUrl },
        close: () => Promise.resolve(),
      }),
    storage: centerStorage({
      host: job.center.host,
      port: job.center.port,
      database: job.center.database,
      user: login.user,
      password: () => Promise.resolve(login.password),
      tls: { mode: 'disable' },
      applicationName: `center-bench desk-${index}`,
    }),
  });
  const call = async <T>(channel: string, input: unknown): Promise<T> => {
    const start = now();
    const result = await stack.dispatch(channel, sender, input);
    if (TIMED.has(channel)) send({ type: 'door', channel, ms: now() - start });
    if (!result.ok)
      throw Object.assign(new Error(`${channel}: ${result.error.code} ${JSON.stringify(result.error.params ?? {})}`), {
        code: result.error.code,
      });
    return result.value as T;
  };
  const role = job.supervisors.includes(index) ? 'supervisor' : 'agent';
  const who =
    role === 'supervisor'
      ? { id: `sup${index}`, password: job.password }
      : { id: `agent${index}`, password: job.password };
  await call('session:signIn', who);
  return { index, role, stack, dir, call };
}

/** An agent's shift, compressed: payments with a pause between steps, a refund request for every other one. */
async function agentShift(job: WorkerJob, desk: BenchDesk): Promise<void> {
  const pause = (): Promise<void> => sleep(job.thinkMs * (0.5 + Math.random()));
  for (let n = 0; n < job.paymentsPerDesk; n++) {
    const reservationId = `BN-${desk.index}-${n}`;
    try {
      await pause();
      await desk.call('live:watch', { queue: false, reservations: [reservationId] });
      const method = await desk.call<{ id: string }>('payments:tokenize', {
        operationId: randomUUID(),
        card: { number: '4242424242424242', expMonth: 12, expYear: YEAR, cvv: '123' },
        reservationId,
      });
      await pause();
      const operationId = randomUUID();
      send({ type: 'payment-begun', operationId });
      let payment = await desk.call<{ id: string; status: string }>('payments:pay', {
        operationId,
        methodId: method.id,
        amountCents: 10_000 + n,
        currency: 'usd',
        reservationId,
        acknowledgedPaymentIds: [],
      });
      send({ type: 'payment-made', paymentId: payment.id });
      for (let i = 0; i < 50 && payment.status !== 'succeeded' && payment.status !== 'failed'; i++) {
        await sleep(200);
        payment = await desk.call('payments:get', { paymentId: payment.id });
      }
      await desk.call('reservations:overview', { reservationId });
      // The reservation was on screen while the payment was taken (the window watches it); closed after the refund request.
      if (n % 2 === 0 && payment.status === 'succeeded') {
        await pause();
        const requestId = randomUUID();
        const at = now();
        await desk.call('refunds:request', {
          requestId,
          paymentId: payment.id,
          amountCents: 1_000,
          reason: 'requested_by_customer',
        });
        send({ type: 'request-made', requestId, at });
      }
      await desk.call('live:watch', { queue: false, reservations: [] });
    } catch (error) {
      send({ type: 'failure', desk: desk.index, what: error instanceof Error ? error.message : String(error) });
    }
  }
}

/**
 * A supervisor with the approval queue open: every event reads the queue again (one read at a time, one more if events
 * came during it); a request is "seen" when a read shows it. The supervisor whose turn it is approves it.
 */
function superviseQueue(job: WorkerJob, desk: BenchDesk): { stop(): Promise<void> } {
  const seen = new Set<string>();
  let reading: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  // A supervisor approves one request at a time, as a person clicks: the next waits for the last answer.
  let approving: Promise<unknown> = Promise.resolve();
  const read = async (): Promise<void> => {
    const { requests } = await desk.call<{ requests: { id: string; status: string; refundCents?: number }[] }>(
      'refunds:queue',
      { status: 'pending' },
    );
    const at = now();
    for (const request of requests) {
      if (seen.has(request.id)) continue;
      seen.add(request.id);
      send({ type: 'request-seen', requestId: request.id, desk: desk.index, at });
      const turn = job.supervisors[parseInt(request.id.slice(0, 8), 16) % job.supervisors.length];
      if (turn === desk.index) {
        approving = approving.then(() =>
          desk
            .call('refunds:approve', {
              requestId: request.id,
              acknowledgedRefundIds: [],
              expectedAmountCents: request.refundCents,
            })
            .then(() => send({ type: 'request-approved', requestId: request.id }))
            .catch((error: unknown) =>
              send({ type: 'failure', desk: desk.index, what: error instanceof Error ? error.message : String(error) }),
            ),
        );
      }
    }
  };
  const schedule = (): void => {
    if (stopped) return;
    if (reading !== undefined) {
      again = true;
      return;
    }
    reading = read()
      .catch((error: unknown) =>
        send({ type: 'failure', desk: desk.index, what: error instanceof Error ? error.message : String(error) }),
      )
      .finally(() => {
        reading = undefined;
        if (again) {
          again = false;
          schedule();
        }
      });
  };
  // The changes of a moment read in one go, as the renderer's queue does (QUEUE_READ_MS in renderer/src/features/refunds/api.ts).
  let coalescing: ReturnType<typeof setTimeout> | undefined;
  const offEvent = desk.stack.onEvent((event) => {
    if (!QUEUE_EVENTS.includes(event) || coalescing !== undefined) return;
    coalescing = setTimeout(() => {
      coalescing = undefined;
      schedule();
    }, QUEUE_READ_MS);
  });
  const idle = setInterval(schedule, IDLE_READ_MS);
  void desk
    .call('live:watch', { queue: true, reservations: [] })
    .then(schedule)
    .catch((error: unknown) =>
      send({ type: 'failure', desk: desk.index, what: error instanceof Error ? error.message : String(error) }),
    );
  return {
    async stop() {
      stopped = true;
      clearInterval(idle);
      clearTimeout(coalescing);
      offEvent();
      await reading;
      await approving;
    },
  };
}

async function main(): Promise<void> {
  const job = await new Promise<WorkerJob>((resolve) =>
    process.once('message', (message) => resolve(message as WorkerJob)),
  );
  const desks: BenchDesk[] = [];
  // Opened one at a time: a center's desks start over the morning, not all in one instant.
  for (const index of job.desks) desks.push(await openBenchDesk(job, index));
  send({ type: 'ready' });
  await new Promise<void>((resolve) => process.once('message', () => resolve()));

  const supervisors = desks.filter((desk) => desk.role === 'supervisor').map((desk) => superviseQueue(job, desk));
  await Promise.all(desks.filter((desk) => desk.role === 'agent').map((desk) => agentShift(job, desk)));
  send({ type: 'agents-done' });
  // The parent says when every worker's agents are done and the last approvals had their time.
  await new Promise<void>((resolve) => process.once('message', () => resolve()));
  for (const supervisor of supervisors) await supervisor.stop();
  for (const desk of desks) {
    await desk.stack.close().catch(() => undefined);
    rmSync(desk.dir, { recursive: true, force: true });
  }
  send({ type: 'closed', queries, ...(countingText ? { byText: Object.fromEntries(byText) } : {}) });
}

main().catch((error: unknown) => {
  send({ type: 'failure', desk: -1, what: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  process.exit(1);
});
