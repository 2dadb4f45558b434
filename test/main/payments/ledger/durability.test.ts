// Which of a payment's writes wait for the disk at their commit: the embedded journal's statements as SQLite runs them.
// better-sqlite3 is the real one with its `verbose` option on (its documented trace of every statement run, values
// bound): a trace, not a fake. The simulator answers over real HTTP.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PaymentEngine, simulatorConfig, type PaymentView } from '../../../../main/payments';
import { openJournal } from '../../../support/journal';
import { useSimulator } from '../../../support/simulator';

const trace = vi.hoisted(() => ({ statements: [] as { file: string; sql: string }[] }));

vi.mock('better-sqlite3', async (importOriginal) => {
  const { default: Real } = await importOriginal<{ default: typeof Database }>();
  class Traced extends Real {
    constructor(file?: string | Buffer, options?: Database.Options) {
      super(file, {
        ...options,
        verbose: (sql: unknown) => trace.statements.push({ file: String(file), sql: String(sql) }),
      });
    }
  }
  return { default: Traced };
});

const sim = useSimulator({ processingDelayMs: 1000 });
let dir: string;
let engine: PaymentEngine;
/** Each POST /payments the service answered: its status and whether it was a replay of its key's answer. */
const created: string[] = [];

async function openEngine(): Promise<PaymentEngine> {
  const next = new PaymentEngine({
    config: simulatorConfig(sim),
    secrets: { read: () => Promise.resolve(sim.clientSecret) },
    journal: await openJournal(dir),
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      const url = String(input instanceof Request ? input.url : input);
      if (init?.method === 'POST' && new URL(url).pathname.endsWith('/payments'))
        created.push(`${response.status}${response.headers.get('idempotent-replayed') === 'true' ? ' replayed' : ''}`);
      return response;
    },
  });
  await next.recover();
  return next;
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'durability-test-'));
  created.length = 0;
  engine = await openEngine();
  trace.statements.length = 0;
});
afterEach(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The journal's statements since the test began, each with whether it ran while the file's sync was lowered. */
function journalStatements(): { sql: string; synced: boolean }[] {
  let synced = true;
  const out: { sql: string; synced: boolean }[] = [];
  for (const { file, sql } of trace.statements) {
    if (!file.endsWith('journal.db')) continue;
    const level = /^PRAGMA synchronous = (\w+)$/i.exec(sql.trim());
    if (level) {
      synced = level[1] !== 'NORMAL' && level[1] !== '1';
      continue;
    }
    out.push({ sql, synced });
  }
  return out;
}

/** The statements writing `table` whose SQL holds every one of `words`, with the commit that made each durable. */
function writes(table: string, ...words: string[]): { sql: string; synced: boolean }[] {
  const statements = journalStatements();
  const found: { sql: string; synced: boolean }[] = [];
  statements.forEach((statement, i) => {
    const lower = statement.sql.toLowerCase();
    const writesTable = new RegExp(`^(insert into|update|with[\\s\\S]*?(insert into|update)) "${table}"`).test(lower);
    if (!writesTable || !words.every((word) => statement.sql.includes(word))) return;
    // Inside a transaction the COMMIT decides; a statement alone commits itself.
    const begin = statements.slice(0, i).findLastIndex((s) => /^begin/i.test(s.sql.trim()));
    const end = statements.slice(0, i).findLastIndex((s) => /^(commit|rollback)/i.test(s.sql.trim()));
    const commit = begin > end ? statements.slice(i).find((s) => /^commit/i.test(s.sql.trim())) : statement;
    found.push({ sql: statement.sql, synced: commit?.synced ?? true });
  });
  return found;
}

const YEAR = new Date().getUTCFullYear() + 3;
const who = { reservationId: 'HTL-DUR-1', operatorId: 'agent-7' };

function until(id: string, status: string): Promise<PaymentView> {
  return new Promise((resolve) => {
    const stop = engine.watch(id, (p) => {
      if (p.status !== status) return;
      stop();
      resolve(p);
    });
  });
}

/** A card tokenized, charged, and followed until the service says succeeded: the payment as it was answered. */
async function paidAndSucceeded(): Promise<PaymentView> {
  const method = await engine.tokenize({
    card: { number: '4242424242424242', expMonth: 12, expYear: YEAR, cvv: '123' },
    ...who,
  });
  const paid = await engine.pay({ methodId: method.id, amountCents: 1_250, currency: 'usd', ...who });
  const done = until(paid.id, 'succeeded');
  await sim.advanceClock(2);
  await done;
  return paid;
}

describe('what waits for the disk on the embedded journal', () => {
  it('a payment’s key before it is sent; not the tokenization, the answers or what the poll reads', async () => {
    const paid = await paidAndSucceeded();

    const begun = writes('operations', "'create_payment'");
    expect(begun).toHaveLength(1);
    expect(begun[0]?.synced).toBe(true);
    const tokenization = writes('operations', "'tokenize'");
    expect(tokenization).toHaveLength(1);
    expect(tokenization[0]?.synced).toBe(false);
    const settled = writes('operations', "'done'");
    expect(settled).toHaveLength(2);
    expect(settled.every((w) => !w.synced)).toBe(true);
    // The trace shortens long values: the id's first characters name it.
    const payments = writes('payments', paid.id.slice(0, 20));
    expect(payments.length).toBeGreaterThanOrEqual(2);
    expect(payments.every((w) => !w.synced)).toBe(true);
    expect(journalStatements().filter((s) => s.synced && /^(insert|update|with)/i.test(s.sql.trim()))).toEqual([
      begun[0] && expect.objectContaining({ sql: begun[0].sql }),
    ]);
  });

  it('a power cut that takes the unsynced commits leaves the payment unanswered: the next start asks with its key again', async () => {
    const method = await engine.tokenize({
      card: { number: '4242424242424242', expMonth: 12, expYear: YEAR, cvv: '123' },
      ...who,
    });
    const paid = await engine.pay({ methodId: method.id, amountCents: 1_250, currency: 'usd', ...who });
    await engine.close();
    // What the file holds when the last commits were not on the disk yet: the payment's key, not its answer (SQLite
    // in WAL loses only the last commits, in order; a synced commit keeps every one before it).
    const file = new Database(join(dir, 'journal.db'));
    try {
      file.prepare('DELETE FROM payments').run();
      file.prepare("UPDATE operations SET state = 'pending', result_id = NULL WHERE kind = 'create_payment'").run();
    } finally {
      file.close();
    }
    engine = await openEngine();
    expect(created).toEqual(['201', '201 replayed']);
    expect((await engine.listReservation(who.reservationId)).payments.map((p) => p.id)).toEqual([paid.id]);
  });

  it('a read of a payment the journal holds settled, or asked for by a person: what it learns is followed by no one', async () => {
    const paid = await paidAndSucceeded();
    const before = writes('payments', paid.id.slice(0, 20)).length;
    // The screen asks for it again (a refund made at another desk would be learnt so): it waits for the disk.
    expect((await engine.getPayment(paid.id)).status).toBe('succeeded');
    const after = writes('payments', paid.id.slice(0, 20));
    expect(after).toHaveLength(before + 1);
    expect(after.at(-1)?.synced).toBe(true);
  });

  it('a refusal that closes an operation for good', async () => {
    await expect(
      engine.pay({ methodId: `mth_${'0'.repeat(32)}`, amountCents: 1_250, currency: 'usd', ...who }),
    ).rejects.toThrow();
    const failed = writes('operations', "'failed'");
    expect(failed).toHaveLength(1);
    expect(failed[0]?.synced).toBe(true);
  });

  it('nothing when the file is back at full sync: the level is restored after each unsynced write', async () => {
    const method = await engine.tokenize({
      card: { number: '4242424242424242', expMonth: 12, expYear: YEAR, cvv: '123' },
      ...who,
    });
    expect(method.last4).toBe('4242');
    const levels = trace.statements
      .filter((s) => s.file.endsWith('journal.db'))
      .map((s) => /^PRAGMA synchronous = (\w+)$/i.exec(s.sql.trim())?.[1])
      .filter((level) => level !== undefined);
    expect(levels.length).toBeGreaterThan(0);
    expect(levels.at(-1)).toBe('2');
  });
});
