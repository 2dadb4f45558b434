/**
 * `npm run bench:engine`: flow A through the PaymentEngine (fresh journal in a temp dir) against the
 * simulator started in-process with 20 ms latency and a 2 s processing delay: tokenize, pay, then follow
 * the payment with `engine.watch` on the poller's real schedule until it is succeeded.
 *
 * Every HTTP request goes through a timing fetch: its service time runs from the call until the
 * response body is fully read (the wrapper reads it and hands the engine an equivalent Response).
 * The engine's own time is, for each engine operation — tokenize, pay and each poll read — its
 * duration minus the service time of the requests inside it. A poll read runs from its request until
 * the engine has handled the answer: the later of the watch listener being called and a setImmediate
 * queued as the answer is handed over (it runs once the engine's synchronous and promise work on the
 * answer — parse, journal writes, events — is done). The moment between a poll timer firing and its
 * request (a cached token) is not seen. Nothing of the engine is warmed up first: this is the app's first payment
 * of a process, after its start (recover; statements and schemas compiled at the engine's opening). Node's fetch is
 * made ready first, as loading undici is left out: the first body a process reads to its end builds a realm for the web
 * streams' errors (~5 ms, once), which is fetch's cost, not the engine's. BENCH_DEBUG=1 adds a per-operation breakdown on stderr.
 *
 * Prints one line: `engine-bench overhead_ms_per_request=<x> requests=<n> minimum_requests=<m>`, where the
 * minimum is a token, a tokenization, a create and the reads the poll schedule needs to see the outcome
 * of a payment processed in 2 s. Budget: overhead <= 3 ms per request and requests = minimum; the exit
 * code is 1 when it is missed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PaymentEngine, simulatorConfig, type PaymentView } from '../../main/payments';
import { DEFAULT_SCHEDULE } from '../../main/payments/poller';
import { launchSimulator } from '../support/simulator';
import { openJournal } from '../support/journal';

const LATENCY_MS = 20;
const PROCESSING_DELAY_MS = 2000;
const BUDGET_MS_PER_REQUEST = 3;
const GIVE_UP_MS = 30_000;

/** Reads the schedule takes until one comes at least `delayMs` after the payment was created. */
function readsNeeded(schedule: readonly number[], delayMs: number): number {
  const last = schedule.at(-1) ?? 0;
  if (last <= 0) throw new RangeError('the poll schedule must end with a positive delay');
  let waited = 0;
  for (let reads = 1; ; reads++) {
    waited += schedule[Math.min(reads - 1, schedule.length - 1)] ?? last;
    if (waited >= delayMs) return reads;
  }
}

/** One HTTP exchange, in performance.now() ms: `start` the call, `end` the body read, `handled` the engine done with it. */
interface Exchange {
  request: string;
  start: number;
  end: number;
  handled: number;
}

async function main(): Promise<void> {
  const sim = await launchSimulator({ latencyMs: LATENCY_MS, processingDelayMs: PROCESSING_DELAY_MS });
  const dir = mkdtempSync(join(tmpdir(), 'engine-bench-'));
  const journal = await openJournal(dir);
  const exchanges: Exchange[] = [];

  const timed: typeof fetch = async (input, init) => {
    // Started first: the first touch of the `Request` global loads undici, which is fetch's cost, not the engine's.
    const exchange: Exchange = { request: '', start: performance.now(), end: 0, handled: 0 };
    exchange.request = `${init?.method ?? 'GET'} ${new URL(input instanceof Request ? input.url : String(input)).pathname}`;
    const response = await fetch(input, init);
    // The body is read here so that its transfer is service time; the engine gets the same answer again.
    const copy = new Response(await response.arrayBuffer(), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    exchange.end = performance.now();
    exchanges.push(exchange);
    setImmediate(() => {
      exchange.handled = performance.now();
    });
    return copy;
  };

  const engine = new PaymentEngine({
    config: simulatorConfig(sim),
    secrets: { read: () => Promise.resolve(sim.clientSecret) },
    journal,
    fetch: timed,
  });

  try {
    await engine.recover();
    // Node's fetch made ready outside the engine's time: a body read to its end by its async iterator, as fetch reads
    // one, releases its reader (node:internal/webstreams lazyReadableReleasedError builds the realm then).
    for await (const chunk of new Response('{}').body ?? []) void chunk;
    const who = { reservationId: 'BENCH-A-1', operatorId: 'bench' };
    const operations: { name: string; start: number; end: number }[] = [];
    const timedOp = async <T>(name: string, run: () => Promise<T>): Promise<T> => {
      const start = performance.now();
      const value = await run();
      operations.push({ name, start, end: performance.now() });
      return value;
    };

    const card = { number: '4242424242424242', expMonth: 12, expYear: new Date().getUTCFullYear() + 3, cvv: '123' };
    const method = await timedOp('tokenize', () => engine.tokenize({ card, ...who }));
    const paid = await timedOp('pay', () =>
      engine.pay({ methodId: method.id, amountCents: 12550, currency: 'usd', ...who }),
    );

    const heard: number[] = [];
    const settled = await new Promise<PaymentView>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the payment was not succeeded after ${GIVE_UP_MS} ms`)),
        GIVE_UP_MS,
      );
      const stop = engine.watch(paid.id, (payment) => {
        heard.push(performance.now());
        if (payment.status !== 'succeeded') return;
        clearTimeout(timer);
        stop();
        resolve(payment);
      });
    });
    if (settled.status !== 'succeeded') throw new Error(`unexpected status ${settled.status}`);
    await new Promise((resolve) => setImmediate(resolve));

    const serviceIn = (op: { start: number; end: number }): number =>
      exchanges.filter((e) => e.start >= op.start && e.end <= op.end).reduce((sum, e) => sum + (e.end - e.start), 0);
    // Poll reads: each GET from its call until the engine has handled its answer (and told the listener).
    const reads = exchanges.filter((e) => e.request.startsWith('GET ') && e.start >= (operations.at(-1)?.end ?? 0));
    reads.forEach((read, i) => {
      const next = reads[i + 1]?.start ?? Number.POSITIVE_INFINITY;
      const told = heard.filter((t) => t >= read.end && t < next);
      operations.push({ name: 'poll', start: read.start, end: Math.max(read.handled, ...told) });
    });
    if (process.env.BENCH_DEBUG) {
      // Per operation on stderr: total ms, of which service ms (the stdout line stays the only one).
      for (const op of operations)
        console.error(`${op.name} total=${(op.end - op.start).toFixed(2)} service=${serviceIn(op).toFixed(2)}`);
    }

    const engineMs = operations.reduce((sum, op) => sum + (op.end - op.start - serviceIn(op)), 0);
    const counted = new Set(
      operations.flatMap((op) => exchanges.filter((e) => e.start >= op.start && e.end <= op.end)),
    );

    const requests = exchanges.length;
    const [token, tokenization, create] = [1, 1, 1];
    const minimum = token + tokenization + create + readsNeeded(DEFAULT_SCHEDULE, PROCESSING_DELAY_MS);
    const perRequest = engineMs / requests;
    console.log(
      `engine-bench overhead_ms_per_request=${perRequest.toFixed(2)} requests=${requests} minimum_requests=${minimum}`,
    );

    if (counted.size !== requests) {
      console.error(
        `engine-bench: ${requests - counted.size} request(s) outside any engine operation: ${exchanges.map((e) => e.request).join(', ')}`,
      );
      process.exitCode = 1;
    }
    if (perRequest > BUDGET_MS_PER_REQUEST || requests !== minimum) {
      console.error(
        `engine-bench: over budget (<= ${BUDGET_MS_PER_REQUEST} ms per request, exactly ${minimum} requests): ${exchanges.map((e) => e.request).join(', ')}`,
      );
      process.exitCode = 1;
    }
  } finally {
    await engine.close();
    await journal.close();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
