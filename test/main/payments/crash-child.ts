/**
 * Crash harness for recovery.test.ts, run as `node --import tsx test/main/payments/crash-child.ts`.
 *
 * Its job comes as JSON in the CRASH_JOB environment variable (see `Job`). It builds a real
 * PaymentEngine whose dependencies — the Journal and fetch — are wrapped here (the production code has
 * no crash hooks), calls `engine.pay(...)` once and stops dead at the chosen point:
 *
 * - `after-journal`: the operation is written by `Journal.begin()` and committed (its transaction, which also checks that
 *   no payment of the reservation is in progress, is over), nothing has been sent: stopped as the engine calls fetch;
 * - `after-send`: the POST /payments request has been written to the socket (the test queued a `delay`
 *   fault, so the service holds it), no answer has arrived;
 * - `after-answer`: the service's answer is in hand, `Journal.settle()` of the create_payment operation
 *   was reached, but its transaction (payment row + operation done) is not committed.
 *
 * At the point it prints `AT <point>` on stdout and blocks; the test then SIGKILLs it. At `begin()` and
 * `settle()` the thread is parked with Atomics.wait (no later line of the engine can run, the transaction
 * stays open: the embedded file's queries are synchronous underneath); in fetch it awaits a promise that never settles.
 * Anything else (pay() settling, an error) prints `UNEXPECTED …` and exits 2, so the test fails fast.
 * Nothing is exported: importing this file would run it.
 */
import { z } from 'zod';
import { haltAfterSend, haltHere, say } from '../support/crash-kit';
import { dirname } from 'node:path';
import { Journal, PaymentEngine, simulatorConfig } from '../../../main/payments';
import { openJournal } from '../../support/journal';

const CRASH_POINTS = ['after-journal', 'after-send', 'after-answer'] as const;
type CrashPoint = (typeof CRASH_POINTS)[number];
/** Stops here for good, saying where (only the points this child knows). */
const halt = (point: CrashPoint): never => haltHere(point);

const Job = z.strictObject({
  point: z.enum(CRASH_POINTS),
  journalPath: z.string().min(1),
  authUrl: z.url(),
  cdeUrl: z.url(),
  baseUrl: z.url(),
  clientId: z.string().min(1),
  clientSecret: z.string().min(1),
  operationId: z.uuid(),
  methodId: z.string().min(1),
  reservationId: z.string().min(1),
  operatorId: z.string().min(1),
  amountCents: z.number().int(),
  currency: z.enum(['usd', 'mxn']),
});

/**
 * Stops right after the operation is durably journaled (committed), before anything is sent for it: at the engine's call
 * of fetch for POST /payments (the payment's begin runs in a transaction, so a stop inside Journal.begin would be before
 * its commit). The first POST /payments is this job's: its journal row was committed before it.
 */
function haltBeforeSend(target: URL): typeof fetch {
  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    if (method === 'POST' && url.href === target.href) halt('after-journal');
    return fetch(input, init);
  };
}

/** Stops with the service's answer in hand, inside the uncommitted transaction, before the operation is closed. */
function haltBeforeSettle(): void {
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called with its journal as `this` below
  const settle = Journal.prototype.settle;
  Journal.prototype.settle = async function (this: Journal, key, outcome, at) {
    if (outcome.state === 'done' && (await this.operationByKey(key))?.kind === 'create_payment') halt('after-answer');
    await settle.call(this, key, outcome, at);
  };
}

async function main(): Promise<void> {
  const job = Job.parse(JSON.parse(process.env.CRASH_JOB ?? 'null'));
  if (job.point === 'after-answer') haltBeforeSettle();
  const journal = await openJournal(dirname(job.journalPath));
  const engine = new PaymentEngine({
    config: simulatorConfig(job),
    secrets: { read: () => Promise.resolve(job.clientSecret) },
    journal,
    fetch,
    ...(job.point === 'after-send' ? { fetch: haltAfterSend(new URL(`${job.baseUrl}/payments`)) } : {}),
    ...(job.point === 'after-journal' ? { fetch: haltBeforeSend(new URL(`${job.baseUrl}/payments`)) } : {}),
  });
  await engine.recover();
  const paid = await engine.pay({
    operationId: job.operationId,
    methodId: job.methodId,
    amountCents: job.amountCents,
    currency: job.currency,
    reservationId: job.reservationId,
    operatorId: job.operatorId,
  });
  say(`UNEXPECTED pay() returned ${paid.id} without reaching ${job.point}`);
  process.exit(2);
}

main().catch((error: unknown) => {
  say(`UNEXPECTED ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
  process.exit(2);
});
