// The audit trail over a real SQLite file: rows chained by hash; an edit, a deletion or a re-link is reported by verify.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuditTrail, GENESIS } from '../../../main/audit';
import { CARD_SPELLINGS, CVV_PHRASES } from '../../shared/text/spellings';
import { pansInFolder } from '../support/card-scan';

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'audit-'));
  file = join(dir, 'audit.db');
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function fill(count: number): void {
  const trail = new AuditTrail(file, { now: () => Date.parse('2026-11-23T10:00:00.000Z') });
  for (let i = 1; i <= count; i++) {
    trail.append({ actor: 'ana', action: 'payment.create', outcome: 'ok', resource: `pay_${String(i).padStart(32, '0')}`, requestId: `req_${i}`, details: { amount: i * 10 } });
  }
  trail.close();
}

/** What someone with the file (and no regard for the triggers) could do. */
function tamper(sql: string): void {
  const db = new Database(file);
  db.exec('DROP TRIGGER audit_no_update; DROP TRIGGER audit_no_delete;');
  db.exec(sql);
  db.close();
}

describe('AuditTrail', () => {
  it('chains each row to the one before, from a fixed genesis, and verifies', () => {
    fill(5);
    const trail = new AuditTrail(file);
    const rows = trail.rows();
    expect(rows.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(rows[0]?.prevHash).toBe(GENESIS);
    for (let i = 1; i < rows.length; i++) expect(rows[i]?.prevHash).toBe(rows[i - 1]?.hash);
    expect(rows[2]).toMatchObject({ actor: 'ana', action: 'payment.create', outcome: 'ok', requestId: 'req_3', details: { amount: 30 }, at: '2026-11-23T10:00:00.000Z' });
    expect(trail.verify()).toEqual({ ok: true, rows: 5 });
    trail.close();
  });

  it('refuses updates and deletes through SQL (append-only)', () => {
    fill(2);
    const db = new Database(file);
    expect(() => db.exec("UPDATE audit SET outcome = 'failed' WHERE seq = 1")).toThrow(/append-only/);
    expect(() => db.exec('DELETE FROM audit WHERE seq = 2')).toThrow(/append-only/);
    db.close();
  });

  it('reports the first altered row', () => {
    fill(6);
    tamper("UPDATE audit SET details = '{\"amount\":1}' WHERE seq = 4");
    const trail = new AuditTrail(file);
    expect(trail.verify()).toEqual({ ok: false, rows: 4, seq: 4, reason: 'row 4 was changed after it was written' });
    trail.close();
  });

  it('reports a deleted row, and a row whose hash was recomputed to hide an edit', () => {
    fill(6);
    tamper('DELETE FROM audit WHERE seq = 3');
    let trail = new AuditTrail(file);
    expect(trail.verify()).toMatchObject({ ok: false, seq: 3, reason: 'row 3 is missing (the next one is 4)' });
    trail.close();

    rmSync(file);
    rmSync(`${file}-wal`, { force: true });
    rmSync(`${file}-shm`, { force: true });
    fill(4);
    tamper("UPDATE audit SET actor = 'sam', hash = 'f' || substr(hash, 2) WHERE seq = 2");
    trail = new AuditTrail(file);
    expect(trail.verify()).toMatchObject({ ok: false, seq: 2 });
    trail.close();
  });

  it('never writes a card number, CVV, secret or token given in the details', () => {
    const trail = new AuditTrail(file);
    const row = trail.append({ actor: 'ana', action: 'link.send', outcome: 'failed', details: { note: 'card 4242 4242 4242 4242', cvv: '123', accessToken: 'tok_abc', clientSecret: 'cs_live_x' } });
    const text = JSON.stringify(row.details) + JSON.stringify(trail.rows());
    trail.close();
    for (const forbidden of ['4242 4242 4242 4242', 'tok_abc', 'cs_live_x', '"123"']) expect(text).not.toContain(forbidden);
    expect(row.details).toEqual({ note: 'card [card]', cvv: '[redacted]', accessToken: '[redacted]', clientSecret: '[redacted]' });
  });

  it('no column keeps a card number or CVV, in any of 20 spellings: actor, action, resource, request id and details', () => {
    const trail = new AuditTrail(file);
    for (const [i, { text }] of CARD_SPELLINGS.entries()) {
      const cvv = CVV_PHRASES[i % CVV_PHRASES.length]?.text ?? '';
      trail.append({ actor: text, action: `session.${text}`, outcome: 'refused', resource: `id ${text}`, requestId: `req ${text} ${cvv}`, details: { note: `${text} ${cvv}`, [text]: 1 } });
    }
    expect(trail.verify()).toMatchObject({ ok: true, rows: 20 });
    trail.close();
    // Every byte of the database and its journal files, read as Latin-1, UTF-8 and UTF-16.
    expect(pansInFolder(dir, CARD_SPELLINGS.map((s) => s.digits))).toEqual([]);
    const rows = new AuditTrail(file).rows();
    expect(rows.map((r) => r.actor)).toEqual(Array.from({ length: 20 }, () => '[card]'));
    expect(rows.every((r) => r.resource === 'id [card]' && r.action === 'session.[card]' && r.requestId?.startsWith('req [card] '))).toBe(true);
    for (const [i, row] of rows.entries()) {
      const cvv = CVV_PHRASES[i % CVV_PHRASES.length];
      expect(row.details).toEqual({ note: `[card] ${cvv?.text.replace(cvv.value, '[redacted]')}`, '[card]': 1 });
    }
  });

  it('audit:verify prints one line and exits 1 at a broken link', () => {
    fill(3);
    const run = (): string => execFileSync(process.execPath, ['--import', 'tsx', 'main/audit/cli.ts', file], { encoding: 'utf8' });
    expect(run()).toBe('audit-verify ok rows=3\n');
    tamper("UPDATE audit SET outcome = 'refused' WHERE seq = 2");
    let failure: { status?: number; stdout?: string } = {};
    try {
      run();
    } catch (error) {
      failure = error as { status: number; stdout: string };
    }
    expect(failure.status).toBe(1);
    expect(failure.stdout).toBe('audit-verify broken seq=2 rows_checked=2 reason="row 2 was changed after it was written"\n');
  });

  it('rows cut off the end leave an intact chain: the head kept beside the database shows them', () => {
    const headFile = join(dir, 'audit-head.json');
    const trail = new AuditTrail(file, { headFile });
    for (let i = 1; i <= 4; i++) trail.append({ actor: 'sam', action: 'refund.create', outcome: 'ok', resource: `pay_${i}` });
    expect(trail.verify()).toEqual({ ok: true, rows: 4 });
    trail.close();

    tamper('DELETE FROM audit WHERE seq >= 3');
    // Without the head the shorter chain is still a valid chain…
    const bare = new AuditTrail(file);
    expect(bare.verify()).toEqual({ ok: true, rows: 2 });
    bare.close();
    // …with it, the cut is reported, and by the command too (it reads audit-head.json beside the file).
    const checked = new AuditTrail(file, { headFile });
    expect(checked.verify()).toEqual({ ok: false, rows: 2, seq: 3, reason: 'rows 3 to 4 were removed from the end' });
    checked.close();
    let failure: { status?: number; stdout?: string } = {};
    try {
      execFileSync(process.execPath, ['--import', 'tsx', 'main/audit/cli.ts', file], { encoding: 'utf8' });
    } catch (error) {
      failure = error as { status: number; stdout: string };
    }
    expect(failure.status).toBe(1);
    expect(failure.stdout).toContain('broken seq=3');
  });

  it('a head one row behind (the app stopped between the row and its head) is accepted; a head naming another row is not', () => {
    const headFile = join(dir, 'audit-head.json');
    const trail = new AuditTrail(file, { headFile });
    const first = trail.append({ actor: 'ana', action: 'session.signIn', outcome: 'ok' });
    trail.append({ actor: 'ana', action: 'session.signOut', outcome: 'ok' });
    writeFileSync(headFile, JSON.stringify({ seq: first.seq, hash: first.hash }));
    expect(trail.verify()).toEqual({ ok: true, rows: 2 });
    writeFileSync(headFile, JSON.stringify({ seq: 2, hash: first.hash }));
    expect(trail.verify()).toMatchObject({ ok: false, seq: 2, reason: 'row 2 is not the one that was written last' });
    trail.close();
  });
});
