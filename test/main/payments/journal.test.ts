// The journal file itself: versioned migrations, WAL, and what it refuses to hold.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Journal, SCHEMA_VERSION } from '../../../main/payments';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'journal-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('Journal', () => {
  it('creates the schema once, in WAL mode, and reopens without migrating again', () => {
    const path = join(dir, 'journal.db');
    const first = new Journal(path);
    expect(first.schemaVersion).toBe(SCHEMA_VERSION);
    first.begin({ key: 'k-1', operationId: 'o-1', kind: 'refund', payload: { reason: 'duplicate' }, resendable: true, reservationId: 'R', operatorId: 'sup', paymentId: undefined, createdAt: 1 });
    first.close();
    const again = new Journal(path);
    expect(again.schemaVersion).toBe(SCHEMA_VERSION);
    expect(again.pendingOperations().map((o) => o.operationId)).toEqual(['o-1']);
    again.close();
    const raw = new Database(path, { readonly: true });
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    raw.close();
  });

  it('refuses a journal written by a newer version of the app, with a clear message', () => {
    const path = join(dir, 'journal.db');
    const raw = new Database(path);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    expect(() => new Journal(path)).toThrow(/newer version of the app/);
  });

  it('keys are unique: one operation id, one Idempotency-Key', () => {
    const journal = new Journal(join(dir, 'journal.db'));
    const op = { key: 'k-1', operationId: 'o-1', kind: 'create_payment' as const, payload: { amount: 1 }, resendable: true, reservationId: 'R', operatorId: 'a', paymentId: undefined, createdAt: 1 };
    journal.begin(op);
    expect(() => journal.begin({ ...op, key: 'k-2' })).toThrow(/UNIQUE/);
    expect(() => journal.begin({ ...op, operationId: 'o-2' })).toThrow(/UNIQUE/);
    journal.close();
  });

  it('canceled is final for the journal too: neither a canceled payment nor a canceled refund is unsettled; an unknown status is', () => {
    const journal = new Journal(join(dir, 'journal.db'));
    const base = { amount: 10, currency: 'usd', methodId: 'mth_1', reservationId: 'R', metadata: {}, createdAt: '2030-01-01T00:00:00Z' };
    journal.savePayment({ ...base, id: 'pay_canceled', status: 'canceled', refunds: [] });
    journal.savePayment({ ...base, id: 'pay_refund_canceled', status: 'succeeded', refunds: [{ id: 'ref_1', status: 'canceled', amount: 5, currency: 'usd' }] });
    journal.savePayment({ ...base, id: 'pay_review', status: 'under_review', refunds: [] });
    journal.savePayment({ ...base, id: 'pay_refund_review', status: 'succeeded', refunds: [{ id: 'ref_2', status: 'under_review', amount: 5, currency: 'usd' }] });
    expect(journal.unsettledPaymentIds().sort()).toEqual(['pay_refund_review', 'pay_review']);
    journal.close();
  });

  it('stores at most the last four digits of a card', () => {
    const journal = new Journal(join(dir, 'journal.db'));
    journal.saveMethod(
      { id: 'mth_1', type: 'card', card: { last4: '4242424242424242', brand: 'visa', expMonth: 1, expYear: 2030 }, createdAt: '2026-01-01T00:00:00Z' },
      'R',
    );
    expect(journal.methodsOf('R')[0]?.last4).toBe('4242');
    journal.close();
  });
});
