// The audit trail as the app writes it: every recorded call through the real door (createMainStack over the simulator),
// the lock, the results the poller learns — and an edit of the app's audit.db found by `npm run audit:verify`.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stackOptions } from '../app/desk-kit';
import { createMainStack, type MainStack } from '../../../main/app';
import { auditEntryFor } from '../../../main/audit';
import type { AuditRow } from '../../../main/audit';
import type { SenderInfo } from '../../../main/ipc';
import { MIN_COST } from '../../../main/operators';

const REPO = fileURLToPath(new URL('../../..', import.meta.url));
const sender: SenderInfo = { url: 'app://app/index.html', isMainFrame: true, webContentsId: 1 };
const CARD = '4111111111111111';
const CVV = '7319';
let dir: string;
let stack: MainStack;

const call = async (channel: string, input: unknown) => stack.dispatch(channel, sender, input);
async function ok<T>(channel: string, input: unknown): Promise<T> {
  const result = await call(channel, input);
  if (!result.ok) throw new Error(`${channel}: ${result.error.code} ${result.error.message}`);
  return result.value as T;
}
const rows = (): Promise<AuditRow[]> => stack.audit.rows();
const last = async (action: string): Promise<AuditRow | undefined> =>
  (await rows()).filter((r) => r.action === action).at(-1);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'audit-calls-'));
  stack = await createMainStack({
    ...stackOptions(dir),
    service: { environment: 'training', simulator: { processingDelayMs: 0, refundDelayMs: 0 } },
    idleTimeoutMs: 1_000,
  });
  await stack.directory.createFirstAdmin({ id: 'ada', displayName: 'Ada Admin', password: 'a long password 42' });
});
afterAll(async () => {
  await stack.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('what the app writes to the audit trail', () => {
  it('sign-ins, refused and accepted; account changes; a settings change; sign-out', async () => {
    expect(await call('session:signIn', { id: 'ADA', password: 'wrong password 1' })).toMatchObject({ ok: false });
    expect(await last('session.signIn')).toMatchObject({
      actor: 'ada',
      outcome: 'refused',
      details: { code: 'invalid_credentials' },
    });
    expect(JSON.stringify(await last('session.signIn'))).not.toContain('wrong password');

    await ok('session:signIn', { id: 'ada', password: 'a long password 42' });
    expect(await last('session.signIn')).toMatchObject({ actor: 'ada', outcome: 'ok', resource: 'ada' });

    await ok('operators:create', {
      id: 'ana',
      displayName: 'Ana Agent',
      role: 'agent',
      password: 'agent password 1234',
    });
    expect(await last('account.create')).toMatchObject({
      actor: 'ada',
      outcome: 'ok',
      resource: 'ana',
      details: { role: 'agent' },
    });
    await ok('operators:update', { id: 'ana', role: 'supervisor' });
    await ok('operators:update', { id: 'ana', role: 'agent' });
    expect(await last('account.update')).toMatchObject({ actor: 'ada', resource: 'ana', details: { role: 'agent' } });
    await ok('operators:resetPassword', { id: 'ana', password: 'agent password 5678' });
    expect(await last('account.resetPassword')).toMatchObject({ actor: 'ada', resource: 'ana', outcome: 'ok' });
    expect(JSON.stringify(await rows())).not.toContain('agent password');

    await ok('app:setLanguage', { language: 'en-US' });
    expect(await last('settings.change')).toMatchObject({
      actor: 'ada',
      resource: 'language',
      details: { value: 'en-US' },
    });
    await ok('session:signOut', {});
    expect(await last('session.signOut')).toMatchObject({ actor: 'ada', outcome: 'ok' });
  });

  it('a refusal by role is recorded with the caller and the reason', async () => {
    await ok('session:signIn', { id: 'ana', password: 'agent password 5678' });
    expect(
      await call('operators:create', { id: 'eve', displayName: 'Eve', role: 'admin', password: 'a long password 99' }),
    ).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(await last('account.create')).toMatchObject({
      actor: 'ana',
      outcome: 'refused',
      resource: 'eve',
      details: { code: 'forbidden' },
    });
  });

  it("calls at the same moment: each audit row names exactly the service requests its own call made (the journal's attempts of its operation)", async () => {
    const reservationId = 'CUN-8T1V4W';
    const card = { number: CARD, expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvv: CVV.slice(0, 3) };
    const operations = [randomUUID(), randomUUID(), randomUUID()];
    const methods = await Promise.all(
      operations.map((operationId) => ok<{ id: string }>('payments:tokenize', { operationId, card, reservationId })),
    );
    await stack.audit.flush();
    const journal = new Database(join(dir, 'journal.db'), { readonly: true });
    try {
      for (const [i, operationId] of operations.entries()) {
        const sent = journal
          .prepare(
            'SELECT a.request_id AS id FROM attempts a JOIN operations o ON o.key = a.idempotency_key WHERE o.operation_id = ? ORDER BY a.attempt',
          )
          .all(operationId) as { id: string }[];
        expect(sent).toHaveLength(1);
        const row = (await rows()).find((r) => r.action === 'card.save' && r.resource === methods[i]?.id);
        expect(row?.requestId).toBe(sent.map((a) => a.id).join(' '));
      }
    } finally {
      journal.close();
    }
  });

  it('a card saved, a payment made and its result: ids, amounts and the service request id — never the card number or CVV', async () => {
    const reservationId = 'CUN-7F3K2A';
    const method = await ok<{ id: string }>('payments:tokenize', {
      operationId: randomUUID(),
      card: { number: CARD, expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvv: CVV.slice(0, 3) },
      reservationId,
    });
    expect(await last('card.save')).toMatchObject({
      actor: 'ana',
      outcome: 'ok',
      resource: method.id,
      details: { brand: 'visa', last4: '1111', reservationId },
    });
    const paid = await ok<{ id: string }>('payments:pay', {
      operationId: randomUUID(),
      methodId: method.id,
      amountCents: 12050,
      currency: 'mxn',
      reservationId,
      acknowledgedPaymentIds: [],
    });
    const row = await last('payment.create');
    expect(row).toMatchObject({
      actor: 'ana',
      outcome: 'ok',
      resource: paid.id,
      details: { amountCents: 12050, currency: 'mxn', reservationId },
    });
    expect(row?.requestId).toMatch(/\S/);

    for (let i = 0; i < 100 && !(await last('payment.result')); i++) {
      await ok('payments:get', { paymentId: paid.id });
      await sleep(50);
    }
    expect(await last('payment.result')).toMatchObject({
      actor: 'system',
      outcome: 'ok',
      resource: paid.id,
      details: { status: 'succeeded' },
    });

    const file =
      readFileSync(join(dir, 'audit.db')).toString('latin1') +
      readFileSync(join(dir, 'audit.db-wal'), { flag: 'a+' }).toString('latin1');
    expect(file).not.toContain(CARD);
    expect(file).not.toContain('"cvv"');
    expect(file).not.toMatch(/Bearer|access_token|client_secret/i);
  });

  it('the lock: by the button, and when the desk is left idle', async () => {
    await ok('session:lock', {});
    expect(await last('session.lock')).toMatchObject({ actor: 'ana', outcome: 'ok', details: { reason: 'manual' } });
    await ok('session:signIn', { id: 'ana', password: 'agent password 5678' });
    await sleep(1_300);
    expect(await call('payments:pay', {})).toMatchObject({ ok: false });
    expect(await last('session.lock')).toMatchObject({ actor: 'ana', details: { reason: 'idle' } });
  });

  it('supervisors read it: filters, paging, CSV; the chain verifies', async () => {
    await ok('session:signIn', { id: 'ana', password: 'agent password 5678' });
    await ok('session:signOut', {});
    await ok('session:signIn', { id: 'ada', password: 'a long password 42' });
    const page = await ok<{ rows: AuditRow[]; nextBeforeId?: number }>('audit:list', { action: 'session.', limit: 2 });
    expect(page.rows).toHaveLength(2);
    expect(page.rows.every((r) => r.action.startsWith('session.'))).toBe(true);
    expect(page.rows[0]!.id).toBeGreaterThan(page.rows[1]!.id);
    expect(page.rows.every((r) => r.deskId === page.rows[0]!.deskId && /^[0-9a-f-]{36}$/.test(r.deskId))).toBe(true);
    const older = await ok<{ rows: AuditRow[] }>('audit:list', {
      action: 'session.',
      limit: 2,
      beforeId: page.nextBeforeId,
    });
    expect(older.rows[0]!.id).toBeLessThan(page.rows[1]!.id);
    expect(
      (await ok<{ rows: AuditRow[] }>('audit:list', { outcome: 'refused' })).rows.map((r) => r.action).sort(),
    ).toEqual(['account.create', 'call.refused', 'session.signIn']);

    const csv = await ok<{ csv: string; rows: number }>('audit:exportCsv', { actor: 'ana' });
    const lines = csv.csv.trim().split('\r\n');
    expect(lines[0]).toBe(
      'desk_id,seq,at,actor,action,outcome,resource,request_id,details,hash,written_by,desk_at,actor_session',
    );
    expect(lines).toHaveLength(csv.rows + 1);
    expect(lines.slice(1).every((l) => l.split(',')[3] === 'ana' && l.split(',')[0] === page.rows[0]!.deskId)).toBe(
      true,
    );
    expect(await last('audit.export')).toMatchObject({ actor: 'ada', details: { actor: 'ana', rows: csv.rows } });
    expect(await ok('audit:verify', {})).toMatchObject({ ok: true });
  });
});

describe('a call refused before its input was read', () => {
  it('is recorded with the channel, caller, reason and the shape of what was sent — never the input, at most 1 KB, once a minute', async () => {
    await ok('session:signOut', {}).catch(() => undefined);
    const before = (await rows()).length;
    const note = `charge 4242 4242 4242 4242 ${'x'.repeat(4 * 1024 * 1024)}`;
    // Signed out, a 4 MB note: refused by the contract before anything else looks at it.
    for (let i = 0; i < 3; i++)
      expect(await call('refunds:request', { requestId: 'not-a-uuid', note })).toMatchObject({
        ok: false,
        error: { code: 'invalid_input' },
      });
    // Another shape, the same refusal (the request id, first): not written again. Another reason is.
    expect(await call('refunds:request', { requestId: 'not-a-uuid', note, extra: 1 })).toMatchObject({ ok: false });
    expect(await call('refunds:request', { requestId: randomUUID(), note, extra: 1 })).toMatchObject({ ok: false });
    const written = (await rows()).slice(before);
    expect(written.map((r) => [r.actor, r.action, r.outcome, r.resource, r.details['field']])).toEqual([
      ['anonymous', 'call.refused', 'refused', 'refunds:request', 'requestId'],
      ['anonymous', 'call.refused', 'refused', 'refunds:request', 'paymentId'],
    ]);
    expect(written[0]?.details).toMatchObject({
      channel: 'refunds:request',
      stage: 'input',
      code: 'invalid_input',
      summary: `{"requestId":"string(10)","note":"string(${note.length})"}`,
    });
    for (const row of written) {
      // The row's own hashes are hex: a "4242" in one says nothing of what was sent.
      const text = JSON.stringify({ ...row, hash: undefined, prevHash: undefined });
      expect(Buffer.byteLength(text)).toBeLessThan(2048);
      expect(text).not.toContain('xxxx');
      expect(text).not.toContain('4242');
    }
    // A channel that is not in the contract, with a name made to hold a card number.
    await call('shell:4242424242424242', {});
    expect(JSON.stringify((await rows()).at(-1))).not.toContain('4242424242424242');
  });

  it('a loop of the same refusal is written once a minute, whatever the size of what is sent each time', async () => {
    const before = (await rows()).length;
    for (let i = 0; i < 50; i++) {
      expect(await call('refunds:reject', { requestId: 'not-a-uuid', note: 'y'.repeat(i + 1) })).toMatchObject({
        ok: false,
        error: { code: 'invalid_input' },
      });
    }
    expect((await rows()).slice(before).map((r) => [r.action, r.resource, r.details['code']])).toEqual([
      ['call.refused', 'refunds:reject', 'invalid_input'],
    ]);
  });

  it('a key the contract does not know, 1 MB long: named neither in the answer nor in the row, which stays under 1 KB of details', async () => {
    const key = `k${'4242 4242 4242 4242 '.repeat(50_000)}`;
    const before = (await rows()).length;
    const answer = await call('session:lock', { [key]: 1 });
    expect(answer).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(JSON.stringify(answer).length).toBeLessThan(1024);
    const written = (await rows()).slice(before);
    expect(written).toHaveLength(1);
    expect(Buffer.byteLength(JSON.stringify(written[0]?.details))).toBeLessThanOrEqual(1024 + 256);
  });
});

describe('verification of the app audit.db', () => {
  it('an altered row in the database file is reported, with its number, by npm run audit:verify', async () => {
    const file = join(dir, 'audit.db');
    const target = await last('payment.create');
    if (!target) throw new Error('no payment row');
    await stack.close();
    const verify = () => {
      try {
        return {
          code: 0,
          out: execFileSync(process.execPath, ['--import', 'tsx', 'main/cli/audit-verify.ts', file], {
            cwd: REPO,
            encoding: 'utf8',
          }),
        };
      } catch (error) {
        const e = error as { status: number; stdout: string };
        return { code: e.status, out: e.stdout };
      }
    };
    const before = verify();
    expect(before.code).toBe(0);
    expect(before.out).toMatch(/^audit-verify ok rows=\d+/);

    const db = new Database(file);
    db.exec('DROP TRIGGER audit_no_update');
    db.prepare('UPDATE audit SET details = ? WHERE id = ?').run(
      JSON.stringify({ ...target.details, amountCents: 150 }),
      target.id,
    );
    db.close();
    const broken = verify();
    expect(broken.code).toBe(1);
    expect(broken.out).toContain(`audit-verify broken desk=${target.deskId} seq=${target.seq}`);
    expect(broken.out).toContain('was changed after it was written');
    // The stack is closed here: reopen one so that afterAll can close it again.
    stack = await createMainStack({
      passwordCost: MIN_COST,
      dataDir: mkdtempSync(join(tmpdir(), 'audit-calls-2-')),
      version: 'test',
      fetch,
      isTrustedSender: () => true,
    });
  });
});

describe('a call refused before its input was read', () => {
  it('(who is signed in unknown: the center down) is recorded as a refusal, never through the channel rule that reads the input', () => {
    const entry = auditEntryFor(
      {
        channel: 'payments:pay',
        input: undefined,
        raw: { reservationId: 'CUN-6B3D8F' },
        operator: undefined,
        stage: 'access',
        error: { code: 'center_unavailable', message: 'down' },
        output: undefined,
      },
      [],
      { paymentOfRequest: () => undefined },
    );
    expect(entry).toMatchObject({
      actor: 'anonymous',
      action: 'call.refused',
      outcome: 'refused',
      details: { channel: 'payments:pay', stage: 'access', code: 'center_unavailable' },
    });
  });
});
