// The poller's schedule under fake timers with a scripted read, then once against the simulator over real HTTP.
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ServiceClient,
  simulatorConfig,
  ServiceError,
  TokenManager,
  type PaymentResource,
} from '../../../main/payments';
import { Poller, isSettled, type PollerDeps } from '../../../main/payments/poller';
import { useSimulator } from '../../support/simulator';

const ID = 'pay_' + 'a'.repeat(32);
const OTHER = 'pay_' + 'b'.repeat(32);

function payment(overrides: Partial<PaymentResource> = {}): PaymentResource {
  return {
    id: ID,
    status: 'processing',
    amount: 1500,
    currency: 'mxn',
    methodId: 'mth_' + 'c'.repeat(32),
    reservationId: 'R-1',
    refunds: [],
    metadata: {},
    createdAt: '2030-01-01T00:00:00.000Z',
    ...overrides,
  };
}

function refund(id: string, status: string): PaymentResource['refunds'][number] {
  return { id, status, amount: 100, currency: 'mxn' };
}

/** An answer that takes time to arrive. */
class Slow {
  constructor(
    readonly value: PaymentResource | Error,
    readonly takesMs: number,
  ) {}
}
type Step = PaymentResource | Error | Slow;

/**
 * A scripted read: answers in order, the last answer repeating. Records when each read started and ended
 * (ms since the test's start) and how many ran at once.
 */
function harness(script: Step[], options: Partial<PollerDeps> = {}) {
  const t0 = Date.now();
  const starts: number[] = [];
  const ends: number[] = [];
  const reads: string[] = [];
  const updates: PaymentResource[] = [];
  const errors: { paymentId: string; error: unknown }[] = [];
  let running = 0;
  let maxRunning = 0;
  const read = async (paymentId: string): Promise<PaymentResource> => {
    const step = script[Math.min(reads.length, script.length - 1)];
    reads.push(paymentId);
    starts.push(Date.now() - t0);
    running++;
    maxRunning = Math.max(maxRunning, running);
    try {
      if (step === undefined) throw new Error('empty script');
      const answer = step instanceof Slow ? step : new Slow(step, 0);
      if (answer.takesMs > 0) await new Promise((resolve) => setTimeout(resolve, answer.takesMs));
      if (answer.value instanceof Error) throw answer.value;
      return { ...answer.value, id: paymentId };
    } finally {
      running--;
      ends.push(Date.now() - t0);
    }
  };
  const poller = new Poller({
    read,
    onUpdate: (p) => void updates.push(p),
    onError: (paymentId, error) => errors.push({ paymentId, error }),
    ...options,
  });
  return {
    poller,
    t0,
    starts,
    ends,
    reads,
    updates,
    errors,
    maxRunning: () => maxRunning,
    elapsed: () => Date.now() - t0,
  };
}

const advance = (ms: number) => vi.advanceTimersByTimeAsync(ms);

describe('Poller (fake timers)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2030-01-01T00:00:00Z') });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reads at 1 s, 3 s, 7 s, 15 s, 31 s, then every 30 s after follow', async () => {
    const h = harness([payment()]);
    h.poller.follow(ID);
    await advance(999);
    expect(h.starts).toEqual([]);
    await advance(1);
    expect(h.starts).toEqual([1000]);
    await advance(181_000 - 1000);
    expect(h.starts).toEqual([1000, 3000, 7000, 15000, 31000, 61000, 91000, 121000, 151000, 181000]);
    expect(h.poller.followed()).toEqual([ID]);
    expect(vi.getTimerCount()).toBe(1);
  });

  it('uses a custom schedule and repeats its last value', async () => {
    const h = harness([payment()], { schedule: [50, 100] });
    h.poller.follow(ID);
    await advance(450);
    expect(h.starts).toEqual([50, 150, 250, 350, 450]);
  });

  it('rejects an empty or negative schedule', () => {
    const read = () => Promise.resolve(payment());
    expect(() => new Poller({ read, onUpdate: () => {}, schedule: [] })).toThrow(RangeError);
    expect(() => new Poller({ read, onUpdate: () => {}, schedule: [1000, -1] })).toThrow(RangeError);
  });

  it.each(['succeeded', 'failed', 'expired'])('stops by itself at %s', async (status) => {
    const h = harness([
      payment(),
      payment({ status: 'requires_action', nextAction: { url: 'https://x/1' } }),
      payment({ status }),
    ]);
    h.poller.follow(ID);
    await advance(7000);
    expect(h.starts).toEqual([1000, 3000, 7000]);
    expect(h.poller.followed()).toEqual([]);
    expect(h.poller.nextCheckAt(ID)).toBeUndefined();
    expect(vi.getTimerCount()).toBe(0);
    await advance(120_000);
    expect(h.reads).toHaveLength(3);
    expect(h.updates.map((p) => p.status)).toEqual(['processing', 'requires_action', status]);
  });

  it.each(['succeeded', 'failed'])('follows a pending refund until it is %s', async (final) => {
    const h = harness([
      payment({ status: 'succeeded', refunds: [refund('ref_1', 'succeeded'), refund('ref_2', 'pending')] }),
      payment({ status: 'succeeded', refunds: [refund('ref_1', 'succeeded'), refund('ref_2', 'pending')] }),
      payment({ status: 'succeeded', refunds: [refund('ref_1', 'succeeded'), refund('ref_2', final)] }),
    ]);
    h.poller.follow(ID);
    await advance(3000);
    expect(h.poller.followed()).toEqual([ID]);
    await advance(4000);
    expect(h.starts).toEqual([1000, 3000, 7000]);
    expect(h.poller.followed()).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
    expect(h.updates.map((p) => p.refunds.map((r) => r.status))).toEqual([
      ['succeeded', 'pending'],
      ['succeeded', final],
    ]);
  });

  it('does not follow a payment known to be settled, but does follow one with a pending refund', async () => {
    const h = harness([payment({ status: 'succeeded' })]);
    h.poller.follow(ID, payment({ status: 'succeeded', refunds: [refund('ref_1', 'succeeded')] }));
    h.poller.follow(OTHER, payment({ status: 'failed', failure: { code: 'card_declined' } }));
    expect(h.poller.followed()).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
    h.poller.follow(ID, payment({ status: 'succeeded', refunds: [refund('ref_1', 'pending')] }));
    expect(h.poller.followed()).toEqual([ID]);
    await advance(1000);
    expect(h.reads).toEqual([ID]);
  });

  it('isSettled: terminal and no pending refund', () => {
    expect(isSettled(payment({ status: 'succeeded' }))).toBe(true);
    expect(isSettled(payment({ status: 'expired' }))).toBe(true);
    expect(isSettled(payment({ status: 'succeeded', refunds: [refund('ref_1', 'pending')] }))).toBe(false);
    expect(isSettled(payment({ status: 'succeeded', refunds: [refund('ref_1', 'failed')] }))).toBe(true);
    expect(isSettled(payment({ status: 'processing' }))).toBe(false);
    expect(isSettled(payment({ status: 'on_hold' }))).toBe(false);
  });

  it('canceled is final: a canceled payment is settled and its polling stops; a canceled refund is settled too', async () => {
    expect(isSettled(payment({ status: 'canceled' }))).toBe(true);
    expect(isSettled(payment({ status: 'succeeded', refunds: [refund('ref_1', 'canceled')] }))).toBe(true);
    const h = harness([payment({ status: 'processing' }), payment({ status: 'canceled' })]);
    h.poller.follow(ID);
    await advance(3000);
    expect(h.reads).toHaveLength(2);
    expect(h.poller.followed()).toEqual([]);
    await advance(60_000);
    expect(h.reads).toHaveLength(2);
  });

  it('a refund in a status this app does not know is not final: followed at the longest interval', async () => {
    expect(isSettled(payment({ status: 'succeeded', refunds: [refund('ref_1', 'under_review')] }))).toBe(false);
    const h = harness([payment({ status: 'succeeded', refunds: [refund('ref_1', 'under_review')] })]);
    h.poller.follow(ID);
    await advance(1000);
    expect(h.poller.nextCheckAt(ID)).toBe(h.t0 + 31_000);
    await advance(60_000);
    expect(h.starts).toEqual([1000, 31000, 61000]);
  });

  it('keeps polling an unknown status, every 30 s', async () => {
    const h = harness([payment({ status: 'under_review' })]);
    h.poller.follow(ID);
    await advance(1000);
    expect(h.poller.nextCheckAt(ID)).toBe(h.t0 + 31_000);
    await advance(120_000);
    expect(h.starts).toEqual([1000, 31000, 61000, 91000, 121000]);
    expect(h.poller.followed()).toEqual([ID]);
    expect(h.updates).toHaveLength(1);
  });

  it('follows a payment known to be in an unknown status', async () => {
    const h = harness([payment({ status: 'under_review' })]);
    h.poller.follow(ID, payment({ status: 'under_review' }));
    expect(h.poller.followed()).toEqual([ID]);
    await advance(31_000);
    expect(h.starts).toEqual([1000, 31000]);
    expect(h.updates).toEqual([]);
  });

  it('runs one poller per payment however many callers follow it', async () => {
    const h = harness([payment()]);
    h.poller.follow(ID);
    await advance(500);
    h.poller.follow(ID);
    h.poller.follow(ID, payment());
    expect(h.poller.followed()).toEqual([ID]);
    expect(vi.getTimerCount()).toBe(1);
    await advance(2500);
    expect(h.starts).toEqual([1000, 3000]);
    h.poller.follow(OTHER);
    await advance(4000);
    expect(h.reads).toEqual([ID, ID, OTHER, OTHER, ID]);
    expect(h.starts).toEqual([1000, 3000, 4000, 6000, 7000]);
  });

  it('never overlaps reads when a read takes longer than the interval; the next delay counts from its end', async () => {
    const h = harness([new Slow(payment(), 5000)]);
    h.poller.follow(ID);
    await advance(1000);
    expect(h.poller.nextCheckAt(ID)).toBe(h.t0 + 1000);
    h.poller.restartSoon(ID); // mid-read: must not start a second read
    h.poller.follow(ID);
    await advance(5000);
    expect(h.ends).toEqual([6000]);
    expect(h.poller.nextCheckAt(ID)).toBe(h.t0 + 7000);
    await advance(40_000);
    expect(h.starts).toEqual([1000, 7000, 14000, 23000, 36000]);
    expect(h.ends).toEqual([6000, 12000, 19000, 28000, 41000]);
    expect(h.maxRunning()).toBe(1);
  });

  it('does not overlap a read left running by stop() with the next follow', async () => {
    const h = harness([
      new Slow(payment({ status: 'requires_action', nextAction: { url: 'https://x/old' } }), 5000),
      payment(),
    ]);
    h.poller.follow(ID);
    await advance(2000); // read 1 runs from 1000 to 6000
    h.poller.stop(ID);
    h.poller.follow(ID); // due at 3000, but waits for read 1
    await advance(10_000);
    expect(h.starts).toEqual([1000, 6000, 8000, 12000]);
    expect(h.maxRunning()).toBe(1);
    // read 1's answer belonged to the stopped follow: not reported.
    expect(h.updates.map((p) => p.status)).toEqual(['processing']);
  });

  it('reports a failing read through onError and keeps the schedule', async () => {
    const failure = new ServiceError('network', 'network_error', 'The payment service cannot be reached.');
    const h = harness([payment(), failure, failure, payment(), payment({ status: 'succeeded' })]);
    h.poller.follow(ID);
    await advance(31_000);
    expect(h.starts).toEqual([1000, 3000, 7000, 15000, 31000]);
    expect(h.errors).toEqual([
      { paymentId: ID, error: failure },
      { paymentId: ID, error: failure },
    ]);
    expect(h.updates.map((p) => p.status)).toEqual(['processing', 'succeeded']);
    expect(h.poller.followed()).toEqual([]);
  });

  it('survives a read that throws synchronously, a failing onUpdate and a failing onError', async () => {
    let calls = 0;
    const errors: unknown[] = [];
    const poller = new Poller({
      read: (id) => {
        calls++;
        if (calls === 1) throw new Error('sync');
        return Promise.resolve(payment({ id, amount: calls }));
      },
      onUpdate: () => {
        throw new Error('ui gone');
      },
      onError: (_id, error) => {
        errors.push(error);
        throw new Error('logger gone');
      },
    });
    poller.follow(ID);
    await advance(7000);
    expect(calls).toBe(3);
    expect(errors.map((e) => (e instanceof Error ? e.message : e))).toEqual(['sync', 'ui gone', 'ui gone']);
    expect(poller.nextCheckAt(ID)).toBe(Date.now() + 8000);
    poller.stopAll();
  });

  it('works without onError', async () => {
    let calls = 0;
    const poller = new Poller({
      read: () => {
        calls++;
        return Promise.reject(new Error('down'));
      },
      onUpdate: () => {},
    });
    poller.follow(ID);
    await advance(3000);
    expect(calls).toBe(2);
    poller.stopAll();
  });

  it('reports only what the agent sees change', async () => {
    const base = payment();
    const h = harness([
      base,
      payment({ updatedAt: '2030-01-01T00:00:05.000Z', metadata: { note: 'x' } }), // invisible
      payment({ status: 'requires_action', nextAction: { type: 'three_d_secure', url: 'https://x/a' } }),
      payment({
        status: 'requires_action',
        nextAction: { type: 'three_d_secure', url: 'https://x/a' },
        availableInstallments: [3],
      }), // invisible
      payment({ status: 'requires_action', nextAction: { type: 'three_d_secure', url: 'https://x/b' } }),
      payment({ status: 'processing' }),
      payment({ status: 'processing', amount: 2400 }),
      payment({ status: 'processing', amount: 2400, installments: { count: 3, perInstallment: 800 } }),
      payment({ status: 'processing', amount: 2400, installments: { count: 6, perInstallment: 400 } }),
      payment({
        status: 'processing',
        amount: 2400,
        installments: { count: 6, perInstallment: 400 },
        failure: { code: 'processing_error' },
      }),
      payment({
        status: 'processing',
        amount: 2400,
        installments: { count: 6, perInstallment: 400 },
        failure: { code: 'processing_error' },
      }),
    ]);
    h.poller.follow(ID);
    await advance(1000 + 2000 + 4000 + 8000 + 16000 + 30_000 * 6);
    expect(h.reads).toHaveLength(11);
    expect(
      h.updates.map((p) => [p.status, p.amount, p.nextAction?.url, p.installments?.count, p.failure?.code]),
    ).toEqual([
      ['processing', 1500, undefined, undefined, undefined],
      ['requires_action', 1500, 'https://x/a', undefined, undefined],
      ['requires_action', 1500, 'https://x/b', undefined, undefined],
      ['processing', 1500, undefined, undefined, undefined],
      ['processing', 2400, undefined, undefined, undefined],
      ['processing', 2400, undefined, 3, undefined],
      ['processing', 2400, undefined, 6, undefined],
      ['processing', 2400, undefined, 6, 'processing_error'],
    ]);
  });

  it('reports refund ids and statuses, and compares the first read with the known state', async () => {
    const known = payment({ status: 'succeeded', refunds: [refund('ref_1', 'pending')] });
    const h = harness([
      known,
      payment({ status: 'succeeded', refunds: [{ ...refund('ref_1', 'pending'), createdAt: 'later' }] }), // invisible
      payment({ status: 'succeeded', refunds: [refund('ref_1', 'pending'), refund('ref_2', 'pending')] }),
      payment({ status: 'succeeded', refunds: [refund('ref_1', 'succeeded'), refund('ref_2', 'pending')] }),
      payment({ status: 'succeeded', refunds: [refund('ref_1', 'succeeded'), refund('ref_2', 'failed')] }),
    ]);
    h.poller.follow(ID, known);
    await advance(31_000);
    expect(h.reads).toHaveLength(5);
    expect(h.updates.map((p) => p.refunds.map((r) => `${r.id}:${r.status}`))).toEqual([
      ['ref_1:pending', 'ref_2:pending'],
      ['ref_1:succeeded', 'ref_2:pending'],
      ['ref_1:succeeded', 'ref_2:failed'],
    ]);
    expect(h.poller.followed()).toEqual([]);
  });

  it('gives the time of the next check', async () => {
    const h = harness([payment(), payment(), payment({ status: 'succeeded' })]);
    expect(h.poller.nextCheckAt(ID)).toBeUndefined();
    h.poller.follow(ID);
    expect(h.poller.nextCheckAt(ID)).toBe(h.t0 + 1000);
    await advance(1000);
    expect(h.poller.nextCheckAt(ID)).toBe(h.t0 + 3000);
    await advance(1500);
    expect(h.poller.nextCheckAt(ID)).toBe(h.t0 + 3000);
    await advance(500);
    expect(h.poller.nextCheckAt(ID)).toBe(h.t0 + 7000);
    h.poller.follow(OTHER);
    expect(h.poller.nextCheckAt(OTHER)).toBe(h.t0 + 4000);
    h.poller.stop(OTHER);
    expect(h.poller.nextCheckAt(OTHER)).toBeUndefined();
    expect(vi.getTimerCount()).toBe(1);
    await advance(4000);
    expect(h.poller.nextCheckAt(ID)).toBeUndefined();
  });

  it('restartSoon starts the schedule over and cancels the pending read', async () => {
    const h = harness([payment()]);
    h.poller.follow(ID);
    await advance(20_000); // reads at 1, 3, 7, 15 s; next due at 31 s
    expect(h.poller.nextCheckAt(ID)).toBe(h.t0 + 31_000);
    h.poller.restartSoon(ID);
    expect(h.poller.nextCheckAt(ID)).toBe(h.t0 + 21_000);
    expect(vi.getTimerCount()).toBe(1);
    await advance(20_000);
    expect(h.starts).toEqual([1000, 3000, 7000, 15000, 21000, 23000, 27000, 35000]);
  });

  it('restartSoon follows a payment that was not followed (e.g. a refund on a settled payment)', async () => {
    const h = harness([
      payment({ status: 'succeeded', refunds: [refund('ref_1', 'pending')] }),
      payment({ status: 'succeeded', refunds: [refund('ref_1', 'succeeded')] }),
    ]);
    h.poller.restartSoon(ID);
    expect(h.poller.followed()).toEqual([ID]);
    expect(h.poller.nextCheckAt(ID)).toBe(h.t0 + 1000);
    await advance(10_000);
    expect(h.starts).toEqual([1000, 3000]);
    expect(h.updates).toHaveLength(2);
    expect(h.poller.followed()).toEqual([]);
  });

  it('restartSoon during a read: one more read from the start of the schedule, even if that read looked settled', async () => {
    const h = harness([
      new Slow(payment({ status: 'succeeded' }), 500),
      payment({ status: 'succeeded', refunds: [refund('ref_1', 'pending')] }),
      payment({ status: 'succeeded', refunds: [refund('ref_1', 'succeeded')] }),
    ]);
    h.poller.follow(ID);
    await advance(1200);
    h.poller.restartSoon(ID); // e.g. the agent refunded while the read was on its way
    await advance(300); // read 1 ends at 1500, answer: succeeded, no refund
    expect(h.poller.followed()).toEqual([ID]);
    expect(h.poller.nextCheckAt(ID)).toBe(h.t0 + 2500);
    await advance(10_000);
    expect(h.starts).toEqual([1000, 2500, 4500]);
    expect(h.poller.followed()).toEqual([]);
    expect(h.maxRunning()).toBe(1);
  });

  it('stop ends one payment; a read in flight is then not reported', async () => {
    const h = harness([new Slow(payment(), 500)]);
    h.poller.follow(ID);
    h.poller.follow(OTHER);
    await advance(1200);
    h.poller.stop(ID);
    h.poller.stop('pay_unknown');
    await advance(2000); // both reads ended at 1500
    expect(h.poller.followed()).toEqual([OTHER]);
    expect(h.updates.map((p) => p.id)).toEqual([OTHER]);
    await advance(1000);
    expect(h.reads).toEqual([ID, OTHER, OTHER]);
    expect(h.updates.map((p) => p.id)).toEqual([OTHER]);
  });

  it('stopAll leaves no pending timer and no further read', async () => {
    const h = harness([payment()]);
    h.poller.follow(ID);
    h.poller.follow(OTHER);
    h.poller.restartSoon('pay_' + 'd'.repeat(32));
    await advance(2000);
    expect(vi.getTimerCount()).toBe(3);
    h.poller.stopAll();
    expect(vi.getTimerCount()).toBe(0);
    expect(h.poller.followed()).toEqual([]);
    const count = h.reads.length;
    await advance(300_000);
    expect(h.reads).toHaveLength(count);
  });
});

describe('Poller against the simulator (real timers, real HTTP)', () => {
  const sim = useSimulator({ processingDelayMs: 1_000 });

  it('follows a new payment from processing to succeeded and stops by itself', async () => {
    const config = simulatorConfig(sim);
    const tokens = new TokenManager({
      authUrl: config.authUrl,
      clientId: config.clientId,
      secrets: { read: () => Promise.resolve(sim.clientSecret) },
      timeoutMs: config.requestTimeoutMs,
      fetch,
    });
    const client = new ServiceClient({ config, tokens, fetch });
    const method = await client.tokenize(
      { number: '4242424242424242', expMonth: 12, expYear: new Date().getUTCFullYear() + 3, cvv: '123' },
      randomUUID(),
    );
    const created = await client.createPayment(
      { methodId: method.value.id, amount: 250, currency: 'mxn', reservationId: 'R-POLL' },
      randomUUID(),
    );
    expect(created.value.status).toBe('processing');

    const updates: PaymentResource[] = [];
    const errors: unknown[] = [];
    let reads = 0;
    const poller = new Poller({
      read: async (id) => {
        reads++;
        return (await client.getPayment(id)).value;
      },
      onUpdate: (p) => void updates.push(p),
      onError: (_id, error) => errors.push(error),
      schedule: [50, 100],
    });
    try {
      poller.follow(created.value.id);
      await vi.waitFor(() => expect(poller.followed()).toEqual([]), { timeout: 5000, interval: 20 });
      expect(errors).toEqual([]);
      expect(updates.map((p) => p.status)).toEqual(['processing', 'succeeded']);
      expect(updates.every((p) => p.id === created.value.id)).toBe(true);
      expect(reads).toBeGreaterThanOrEqual(2);
      const after = reads;
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(reads).toBe(after);
    } finally {
      poller.stopAll();
    }
  });
});
