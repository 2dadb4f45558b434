// The main stack's own wiring (main/app/stack.ts) through the real door, on a desk's own files with the simulator in
// this process: the data folder's desk.lock it holds for IT's move-in, and the payment and refund results it writes once
// to the audit trail. Nothing is mocked; one case
// makes one audit append fail with a SQLite trigger the test adds to the desk's audit.db (a full disk, the center lost:
// the trail's onError), then drops it.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createMainStack, type MainStack, type MainStackOptions } from '../../../main/app';
import type { SenderInfo } from '../../../main/ipc';
import { tryDeskLock } from '../../../main/storage';

const sender: SenderInfo = { url: 'app://app/index.html', isMainFrame: true, webContentsId: 1 };
const AGENT = { id: 'ana', password: 'agent password 1234' };

const folders: string[] = [];
const stacks: MainStack[] = [];
afterEach(async () => {
  for (const stack of stacks.splice(0)) await stack.close().catch(() => undefined);
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'stack-'));
  folders.push(dir);
  return dir;
}
const options = (dir: string): MainStackOptions => ({
  dataDir: dir,
  version: 'test',
  fetch,
  isTrustedSender: () => true,
  service: { environment: 'training', simulator: { processingDelayMs: 0, refundDelayMs: 0 } },
});

describe('the main stack', () => {
  it('hashes new passwords at the default cost (scrypt 2^15, r 8, p 1) when given none, and refuses one below MIN_COST before opening anything', async () => {
    const dir = folder();
    const stack = await createMainStack(options(dir));
    stacks.push(stack);
    await stack.directory.createFirstAdmin({ id: 'ada', displayName: 'Ada', password: 'a long password 42' });
    const raw = new Database(join(dir, 'operators.db'), { readonly: true });
    const stored = raw.prepare('SELECT password_hash FROM operators').pluck().all();
    raw.close();
    expect(stored).toEqual([expect.stringMatching(/^\$scrypt\$ln=15,r=8,p=1\$/)]);

    const weak = folder();
    await expect(createMainStack({ ...options(weak), passwordCost: { log2N: 10, r: 8, p: 1 } })).rejects.toThrow(
      RangeError,
    );
    expect(existsSync(join(weak, 'operators.db'))).toBe(false);
  });

  // A desk never writes its files under IT's move-in: createMainStack holding desk.lock only at its start, and starting
  // anyway when the lock is held ("a move in progress does not keep the desk from starting"), would write its files under
  // the move (recover(), sign-ins, payments) and never take the lock afterwards: once the move is done, a second
  // `npm run center:move-in` would find the folder free and copy the files of a desk that is running on them.
  it('S1: a desk started while a move held desk.lock is seen as running by the next move', async () => {
    const dir = folder();
    const move = tryDeskLock(dir);
    expect(move).toBeDefined();
    // Refused to start while the folder is being moved, in words (nothing written under the move).
    const refused: unknown = await createMainStack(options(dir)).then(
      (started) => (stacks.push(started), undefined),
      (error: unknown) => error,
    );
    expect(refused).toMatchObject({ code: 'data_folder_in_use' });
    const stack = undefined as MainStack | undefined;
    move?.release();
    // The move is over. A desk running on the folder must hold its lock (at once, or within a few seconds).
    let free = false;
    for (let i = 0; i < 10; i++) {
      const next = tryDeskLock(dir);
      free = next !== undefined;
      next?.release();
      if (!free) break;
      await sleep(500);
    }
    expect(stack === undefined || !free).toBe(true);
  }, 60_000);

  // A once-only result row is remembered only after the trail has written it: the stack's recordResultOnce remembering a
  // result (recordedResults) before, and recording it fire-and-forget, would lose it for good when that append fails (the
  // disk full, the center lost for a moment: the trail's onError says the row is lost): every later read of the payment
  // would be skipped by the remembered key. The trail itself remembers a once-only row only after it is written or found;
  // a memory in front of it must not defeat that.
  it('S4: a payment result whose audit row could not be written is written at a later read of the payment', async () => {
    const dir = folder();
    const stack = await createMainStack(options(dir));
    stacks.push(stack);
    await stack.directory.createFirstAdmin({ id: 'ada', displayName: 'Ada', password: 'a long password 42' });
    await stack.directory.createOperator('ada', {
      id: AGENT.id,
      displayName: 'Ana',
      role: 'agent',
      password: AGENT.password,
    });
    const ok = async <T>(channel: string, input: unknown): Promise<T> => {
      const result = await stack.dispatch(channel, sender, input);
      if (!result.ok) throw new Error(`${channel}: ${result.error.code} ${result.error.message}`);
      return result.value as T;
    };
    await ok('session:signIn', AGENT);
    const reservationId = 'CUN-7F3K2A';
    const method = await ok<{ id: string }>('payments:tokenize', {
      operationId: randomUUID(),
      card: { number: '4111111111111111', expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvv: '731' },
      reservationId,
    });

    // The audit file refuses the result rows for a while (what a full disk or a lost center does to the append).
    const fault = new Database(join(dir, 'audit.db'));
    fault.exec(
      "CREATE TRIGGER s4_fault BEFORE INSERT ON audit WHEN NEW.action = 'payment.result' BEGIN SELECT RAISE(ABORT, 'disk I/O error (S4)'); END;",
    );
    const paid = await ok<{ id: string; status: string }>('payments:pay', {
      operationId: randomUUID(),
      methodId: method.id,
      amountCents: 12050,
      currency: 'mxn',
      reservationId,
      acknowledgedPaymentIds: [],
    });
    let status = paid.status;
    for (let i = 0; i < 100 && status !== 'succeeded'; i++) {
      status = (await ok<{ status: string }>('payments:get', { paymentId: paid.id })).status;
      await sleep(50);
    }
    expect(status).toBe('succeeded');
    await stack.audit.flush();
    const results = async () => (await stack.audit.query({ action: 'payment.result', resource: paid.id })).length;
    expect(await results()).toBe(0);

    // The disk has room again: the payment is read again, its final status reported again.
    fault.exec('DROP TRIGGER s4_fault');
    fault.close();
    for (let i = 0; i < 5; i++) await ok('payments:get', { paymentId: paid.id });
    await stack.audit.flush();
    expect(await results()).toBe(1);
  }, 60_000);
});
