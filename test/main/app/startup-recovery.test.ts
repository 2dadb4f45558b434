// The start-up screen's count, through the real door: payments whose answers were lost (the simulator's drop_after_commit)
// are completed by recover() at the next start, which says how many it completes before the first and after each; the
// start-up door tells each step to the window, and once the stack serves, its own app:startup answers `ready`.
// The simulator runs in this process and outlives the desk's restart, as the service would.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createStartup } from '../../../main/app';
import { useSimulator } from '../../support/simulator';
import type { Output, StartupStatus } from '../../../shared/ipc';
import { AGENT, attachedTo, openDesk, sender, type Desk } from './desk-kit';

// Three reservations, each with a charge whose answer is lost (main/reservations/demo.ts).
const RESERVATIONS = [
  { reservationId: 'CUN-6B3D8F', amountCents: 12_000, currency: 'usd' },
  { reservationId: 'SJD-3B7N1C', amountCents: 25_000, currency: 'usd' },
  { reservationId: 'MEX-4K6W9Z', amountCents: 50_000, currency: 'mxn' },
];

const sim = useSimulator({ processingDelayMs: 0, refundDelayMs: 0 });
const desks: Desk[] = [];

afterEach(async () => {
  for (const desk of desks.splice(0)) await desk.close();
});

const loseAnswer = () => sim.fault('POST /payments', 'drop_after_commit', 3);

describe('recover() at start, with unanswered payments', () => {
  it('says how many it completes, before the first and after each; the start-up door tells each step; then the stack answers ready', async () => {
    const desk = await openDesk({ connect: attachedTo(sim) });
    desks.push(desk);
    await desk.signIn(AGENT);
    for (const { reservationId, amountCents, currency } of RESERVATIONS) {
      const methodId = await desk.card(reservationId);
      await loseAnswer();
      const paid = await desk.call('payments:pay', {
        operationId: randomUUID(),
        methodId,
        amountCents,
        currency,
        reservationId,
        acknowledgedPaymentIds: [],
      });
      expect(paid.ok).toBe(false);
    }

    await desk.restart();
    const startup = createStartup({ language: () => 'es-MX', isTrustedSender: () => true });
    const told: StartupStatus[] = [];
    startup.onChange((status) => told.push(status));
    const steps: [number, number][] = [];
    const report = await desk.stack.recover({
      onProgress: (done, total) => {
        steps.push([done, total]);
        startup.progress(done, total);
      },
    });

    expect(report.resent).toHaveLength(3);
    expect(steps).toEqual([
      [0, 3],
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
    expect(told.map((status) => status.recovering)).toEqual([
      { total: 3, done: 0 },
      { total: 3, done: 1 },
      { total: 3, done: 2 },
      { total: 3, done: 3 },
    ]);
    // Each completed payment is the one the service made: one per reservation.
    await desk.signIn(AGENT);
    for (const { reservationId } of RESERVATIONS) {
      const overview = await desk.ok<Output<'reservations:overview'>>('reservations:overview', { reservationId });
      expect(overview.payments).toHaveLength(1);
    }
    expect(await desk.stack.dispatch('app:startup', sender, {})).toEqual({
      ok: true,
      value: { phase: 'ready', language: 'es-MX' },
    });
  });

  it('with nothing unanswered says none, once', async () => {
    const desk = await openDesk({ connect: attachedTo(sim) });
    desks.push(desk);
    const steps: [number, number][] = [];
    await desk.stack.recover({ onProgress: (done, total) => steps.push([done, total]) });
    expect(steps).toEqual([[0, 0]]);
  });

  it('a quit during the recovery (the stack closed under it): what is still to complete is not sent after the close', async () => {
    const posts: { at: number; key: string | null }[] = [];
    const watching: typeof fetch = (input, init) => {
      const request = new Request(input, init);
      if (request.method === 'POST' && new URL(request.url).pathname.endsWith('/payments'))
        posts.push({ at: performance.now(), key: request.headers.get('idempotency-key') });
      return fetch(input, init);
    };
    const desk = await openDesk({ connect: attachedTo(sim), fetch: watching });
    desks.push(desk);
    await desk.signIn(AGENT);
    for (const { reservationId, amountCents, currency } of RESERVATIONS) {
      const methodId = await desk.card(reservationId);
      await loseAnswer();
      const paid = await desk.call('payments:pay', {
        operationId: randomUUID(),
        methodId,
        amountCents,
        currency,
        reservationId,
        acknowledgedPaymentIds: [],
      });
      expect(paid.ok).toBe(false);
    }

    await desk.restart();
    posts.length = 0;
    let closedAt: number | undefined;
    let closing: Promise<void> | undefined;
    // The agent quits anyway once the first is completed: main's shutdown closes the stack while recover() goes on.
    const recovering = desk.stack.recover({
      onProgress: (done) => {
        if (done !== 1 || closing !== undefined) return;
        closedAt = performance.now();
        closing = desk.stack.close();
      },
    });
    await recovering.catch(() => undefined);
    await closing;

    expect(closedAt).toBeDefined();
    expect(posts).toHaveLength(1);
    expect(posts.filter((post) => post.at >= (closedAt ?? 0))).toEqual([]);
  });
});
