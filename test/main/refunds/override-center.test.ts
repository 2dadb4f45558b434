// Manager override's wrong passwords are counted per approver id for the whole center, with
// the operators (their own columns, by the database's clock), not in one desk's memory: spread over two desks they reach
// the pause, a restart of a desk does not lift it, the supervisor's own sign-in is untouched, and the right password after
// the pause works and starts the count over. Two full main stacks through the real door on one place (the center's real
// PostgreSQL, or for the embedded backend a second desk on the same files) and one simulator; nothing is mocked.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { CENTER_STORES } from '../../../main/center';
import { OPERATORS_STORE, type OperatorsDB } from '../../../main/operators';
import { databaseNowMs } from '../../../main/operators/store';
import { OVERRIDE_MAX_FAILURES } from '../../../main/refunds';
import { useSimulator } from '../../support/simulator';
import { centerStorage, embeddedStorage, type Storage } from '../../../main/storage';
import type { Output } from '../../../shared/ipc';
import { useStoreBackends } from '../../support/backends';
import { AGENT, SUPERVISOR, attachedTo, openDesk, type Desk } from '../app/desk-kit';

// Zoë Anderson, 980.00 USD due (main/reservations/demo.ts).
const RESERVATION = 'CUN-6B3D8F';
const ADMIN = { id: 'ada', password: 'a long password 42' };
const SECOND_AGENT = { id: 'bea', password: 'agent two pass 5678' };
const SECOND_SUPERVISOR = { id: 'sue', password: 'supervisor two 5678' };
const WRONG = 'not the password 0000';

const sim = useSimulator({ processingDelayMs: 0, refundDelayMs: 0 });

const desks: Desk[] = [];
const folders: string[] = [];
afterEach(async () => {
  for (const desk of desks.splice(0)) await desk.close();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe.each(useStoreBackends(CENTER_STORES))('manager override across the desks on $name', (backend) => {
  /** Where the desks keep their records: the center (emptied), or one folder of embedded files that both desks use. */
  async function place(): Promise<() => Storage> {
    if (backend.name === 'postgres') {
      await backend.storage();
      return () => centerStorage(backend.center().app);
    }
    const folder = mkdtempSync(join(tmpdir(), 'override-center-'));
    folders.push(folder);
    return () => embeddedStorage(folder);
  }

  async function deskOn(storage: () => Storage, seed: boolean): Promise<Desk> {
    const desk = await openDesk({ connect: attachedTo(sim) }, { storage, seed });
    desks.push(desk);
    return desk;
  }

  /** A refund request of 10.00 USD made by whoever is signed in at `desk`, on a payment taken there. */
  async function requestAt(desk: Desk): Promise<string> {
    const methodId = await desk.card(RESERVATION);
    const payment = await desk.ok<Output<'payments:pay'>>('payments:pay', {
      operationId: randomUUID(),
      methodId,
      amountCents: 5_000,
      currency: 'usd',
      reservationId: RESERVATION,
    });
    await desk.until(payment.id, (status) => status === 'succeeded');
    const request = await desk.ok<{ id: string }>('refunds:request', {
      requestId: randomUUID(),
      paymentId: payment.id,
      amountCents: 1_000,
      reason: 'cancellation',
    });
    return request.id;
  }

  const override = (desk: Desk, requestId: string, approver: { id: string }, approverPassword: string) =>
    desk.call('refunds:override', { requestId, approverId: approver.id, approverPassword });
  const codeOf = async (desk: Desk, requestId: string, approver: { id: string }, password: string): Promise<string> => {
    const result = await override(desk, requestId, approver, password);
    return result.ok ? 'approved' : result.error.code;
  };

  /**
   * Time passing for the pause, by the database's clock (which the test cannot move): it ends now. On the center as the
   * superuser (no desk's login writes an account row), on the embedded file as the desk may.
   */
  async function pauseEndsNow(storage: () => Storage, approverId: string): Promise<void> {
    if (backend.name === 'postgres') {
      const updated = await backend.center().query(
        `UPDATE operators.operators SET override_paused_until = CAST(floor(extract(epoch FROM now()) * 1000) AS bigint)
          WHERE id = $1 AND override_paused_until IS NOT NULL RETURNING id`,
        [approverId],
      );
      expect(updated).toHaveLength(1);
      return;
    }
    const opened = storage();
    try {
      const store = await opened.open<OperatorsDB>(OPERATORS_STORE);
      const updated = await store.db
        .updateTable('operators')
        .set({ override_paused_until: sql<number>`${databaseNowMs(store.backend)}` })
        .where('id', '=', approverId)
        .where('override_paused_until', 'is not', null)
        .returning('id')
        .execute();
      expect(updated).toHaveLength(1);
    } finally {
      await opened.close();
    }
  }

  it('wrong passwords at two desks add up to the pause, which holds after a restart, at every desk, for that approver only; the supervisor still signs in', async () => {
    const storage = await place();
    const a = await deskOn(storage, true);
    await a.signIn(ADMIN);
    await a.ok('operators:create', {
      id: SECOND_AGENT.id,
      displayName: 'Bea',
      role: 'agent',
      password: SECOND_AGENT.password,
    });
    await a.ok('operators:create', {
      id: SECOND_SUPERVISOR.id,
      displayName: 'Sue',
      role: 'supervisor',
      password: SECOND_SUPERVISOR.password,
    });
    const b = await deskOn(storage, false);
    await a.signIn(AGENT);
    await b.signIn(SECOND_AGENT);
    const atA = await requestAt(a);
    const atB = await requestAt(b);

    // 3 wrong at desk A, 2 at desk B: five in a row for sam across the center.
    const codes: string[] = [];
    for (let i = 0; i < 3; i++) codes.push(await codeOf(a, atA, SUPERVISOR, WRONG));
    for (let i = 0; i < 2; i++) codes.push(await codeOf(b, atB, SUPERVISOR, WRONG));
    expect(codes).toEqual(Array<string>(OVERRIDE_MAX_FAILURES).fill('invalid_credentials'));

    // Paused for sam at both desks, even with the right password, and told for how long.
    const paused = await override(a, atA, SUPERVISOR, SUPERVISOR.password);
    expect(paused).toMatchObject({
      ok: false,
      error: { code: 'override_paused', params: { minutes: 5, failures: OVERRIDE_MAX_FAILURES } },
    });
    expect(await codeOf(b, atB, SUPERVISOR, SUPERVISOR.password)).toBe('override_paused');

    // Desk B restarts (a new stack on the same records): still paused there.
    await b.restart();
    await b.signIn(SECOND_AGENT);
    expect(await codeOf(b, atB, SUPERVISOR, SUPERVISOR.password)).toBe('override_paused');

    // Another supervisor's override is not paused.
    expect(await codeOf(b, atB, SECOND_SUPERVISOR, SECOND_SUPERVISOR.password)).toBe('approved');

    // Sam's own account is not locked: he signs in at desk B and approves desk A's request from the queue.
    await b.signIn(SUPERVISOR);
    const approved = await b.ok<{ request: { status: string; decidedBy: string } }>('refunds:approve', {
      requestId: atA,
    });
    expect(approved.request).toMatchObject({ status: 'approved', decidedBy: SUPERVISOR.id });
  });

  it('after the pause the right password works and starts the count over, at any desk', async () => {
    const storage = await place();
    const a = await deskOn(storage, true);
    await a.signIn(ADMIN);
    await a.ok('operators:create', {
      id: SECOND_AGENT.id,
      displayName: 'Bea',
      role: 'agent',
      password: SECOND_AGENT.password,
    });
    const b = await deskOn(storage, false);
    await a.signIn(AGENT);
    await b.signIn(SECOND_AGENT);
    const atA = await requestAt(a);
    const atB = await requestAt(b);
    // Wrong passwords at both desks, each on its own agent's request.
    for (let i = 0; i < OVERRIDE_MAX_FAILURES; i++)
      expect(await (i % 2 === 0 ? codeOf(a, atA, SUPERVISOR, WRONG) : codeOf(b, atB, SUPERVISOR, WRONG))).toBe(
        'invalid_credentials',
      );
    expect(await codeOf(a, atA, SUPERVISOR, SUPERVISOR.password)).toBe('override_paused');

    await pauseEndsNow(storage, SUPERVISOR.id);
    expect(await codeOf(a, atA, SUPERVISOR, SUPERVISOR.password)).toBe('approved');

    // The count started over: four more wrong (at both desks) do not pause, the right one still works.
    for (let i = 0; i < OVERRIDE_MAX_FAILURES - 1; i++)
      expect(await (i % 2 === 0 ? codeOf(b, atB, SUPERVISOR, WRONG) : codeOf(a, atA, SUPERVISOR, WRONG))).toBe(
        'invalid_credentials',
      );
    expect(await codeOf(b, atB, SUPERVISOR, SUPERVISOR.password)).toBe('approved');
  });
});
