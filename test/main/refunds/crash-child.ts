/**
 * Crash harness for crash.test.ts, run as `node --import tsx test/main/refunds/crash-child.ts`.
 *
 * Its job comes as JSON in the CRASH_JOB environment variable (see `Job`). It opens the parent's journal
 * and refund-request files, builds a real PaymentEngine and RefundDesk whose dependencies — the refund
 * requests store, the Journal and fetch — are wrapped here (the production code has no crash hooks),
 * calls `desk.approve(requestId, approver)` once and stops dead at the chosen point:
 *
 * - `after-decision`: `RefundRequests.decide()` wrote the approval (both ids), the refund operation is not journaled;
 * - `after-journal`: the refund operation is written by `Journal.begin()`, nothing has been sent for it;
 * - `after-send`: the POST …/payments/{id}/refunds request has been written to the socket (the test queued a
 *   `delay` fault, so the service holds it and finishes it after the crash), no answer has arrived.
 *
 * At the point it prints `AT <point>` on stdout and blocks; the test then SIGKILLs it. `decide()` and
 * `begin()` are synchronous, so there the thread is parked with Atomics.wait (no later line of the desk or
 * the engine can run); in fetch it awaits a promise that never settles. Anything else (approve() settling,
 * an error) prints `UNEXPECTED …` and exits 2, so the test fails fast. Nothing is exported: importing this
 * file would run it.
 */
import { dirname } from 'node:path';
import { z } from 'zod';
import { CRASH_DESK_ID, haltAfterSend, haltHere, say } from '../support/crash-kit';
import { Journal, PaymentEngine, simulatorConfig } from '../../../main/payments';
import { openJournal } from '../../support/journal';
import { RefundDesk, RefundRequests } from '../../../main/refunds';
import { embeddedStorage } from '../../../main/storage';

const CRASH_POINTS = ['after-decision', 'after-journal', 'after-send'] as const;
type CrashPoint = (typeof CRASH_POINTS)[number];
/** Stops here for good, saying where (only the points this child knows). */
const halt = (point: CrashPoint): never => haltHere(point);

const Job = z.strictObject({
  point: z.enum(CRASH_POINTS),
  journalPath: z.string().min(1),
  requestsPath: z.string().min(1),
  authUrl: z.url(),
  cdeUrl: z.url(),
  baseUrl: z.url(),
  clientId: z.string().min(1),
  clientSecret: z.string().min(1),
  requestId: z.uuid(),
  paymentId: z.string().regex(/^pay_[0-9a-f]{32}$/),
  approver: z.strictObject({
    id: z.string().min(1),
    displayName: z.string().min(1),
    role: z.enum(['supervisor', 'admin']),
    disabled: z.literal(false),
  }),
});

/** Stops right after the approval is durably written, before the desk hands the refund to the engine. */
function haltAfterDecision(requests: RefundRequests): RefundRequests {
  const decide = requests.decide.bind(requests);
  requests.decide = async (id, decision) => {
    const decided = await decide(id, decision);
    if (decided && decision.status === 'approved') halt('after-decision');
    return decided;
  };
  return requests;
}

/**
 * Stops right after the refund operation is durably journaled, before anything is sent for it (the Journal patched in
 * this child): after the transaction that wrote it commits (the daily cap is checked in it), or at once when it was
 * written outside one.
 */
function haltAfterBegin(): void {
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called with its journal as `this` below
  const begin = Journal.prototype.begin;
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called with its journal as `this` below
  const transaction = Journal.prototype.transaction;
  let depth = 0;
  let refundBegun = false;
  Journal.prototype.begin = async function (this: Journal, op) {
    const stored = await begin.call(this, op);
    if (stored.kind === 'refund') {
      if (depth === 0) halt('after-journal');
      refundBegun = true;
    }
    return stored;
  };
  Journal.prototype.transaction = async function <T>(
    this: Journal,
    fn: (journal: Journal) => Promise<T>,
    options?: Parameters<Journal['transaction']>[1],
  ): Promise<T> {
    depth++;
    let committed = false;
    try {
      const result = await transaction.call(this, fn, options);
      committed = true;
      return result as T;
    } finally {
      depth--;
      if (depth === 0 && refundBegun) {
        refundBegun = false;
        if (committed) halt('after-journal');
      }
    }
  };
}

async function main(): Promise<void> {
  const job = Job.parse(JSON.parse(process.env.CRASH_JOB ?? 'null'));
  if (job.point === 'after-journal') haltAfterBegin();
  const journal = await openJournal(dirname(job.journalPath));
  // The test's desk: its approvals are the ones it recovers.
  const opened = await RefundRequests.open(embeddedStorage(dirname(job.requestsPath)), { deskId: CRASH_DESK_ID });
  const requests = job.point === 'after-decision' ? haltAfterDecision(opened) : opened;
  const engine = new PaymentEngine({
    config: simulatorConfig(job),
    secrets: { read: () => Promise.resolve(job.clientSecret) },
    journal,
    fetch,
    ...(job.point === 'after-send'
      ? { fetch: haltAfterSend(new URL(`${job.baseUrl}/payments/${job.paymentId}/refunds`)) }
      : {}),
  });
  await engine.recover();
  const desk = new RefundDesk({
    engine,
    requests,
    history: journal,
    verifyApprover: () => Promise.reject(new Error('no override in the crash harness')),
  });
  await desk.reconcile();
  const approved = await desk.approve(job.requestId, job.approver);
  say(`UNEXPECTED approve() returned ${approved.request.status} without reaching ${job.point}`);
  process.exit(2);
}

main().catch((error: unknown) => {
  say(`UNEXPECTED ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
  process.exit(2);
});
