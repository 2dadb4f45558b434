// How passwords are kept: scrypt with a per-password salt, the cost stored with the hash (and raised on sign-in), no plaintext in the file.
import { existsSync, readFileSync } from 'node:fs';
import { scryptSync } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_COST } from '../../../main/operators';
import { ADMIN, openDirectory, tempDir } from './helpers';

const SAME = 'the same password 42';

let dir: string;
let cleanup: () => void;
beforeEach(() => {
  ({ dir, cleanup } = tempDir());
});
afterEach(() => cleanup());

function storedHashes(path: string): Map<string, string> {
  const raw = new Database(path, { readonly: true });
  const rows = raw.prepare('SELECT id, password_hash FROM operators').all() as { id: string; password_hash: string }[];
  raw.close();
  return new Map(rows.map((r) => [r.id, r.password_hash]));
}

/** Every byte SQLite has written: the main file and, while open, its write-ahead log. */
function fileBytes(path: string): Buffer {
  return Buffer.concat([path, `${path}-wal`].filter((p) => existsSync(p)).map((p) => readFileSync(p)));
}

const PHC = /^\$scrypt\$ln=(\d+),r=(\d+),p=(\d+)\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$/;

describe('password hashes', () => {
  it('are scrypt (N=2^15, r=8, p=1) with a 16-byte salt per password: the same password gives different hashes', async () => {
    const path = join(dir, 'operators.db');
    const d = await openDirectory(dir);
    await d.createFirstAdmin({ ...ADMIN, password: SAME });
    await d.createOperator(ADMIN.id, { id: 'ana', displayName: 'Ana', role: 'agent', password: SAME });
    await d.close();

    const hashes = storedHashes(path);
    const root = hashes.get('root') ?? '';
    const ana = hashes.get('ana') ?? '';
    expect(root).not.toBe(ana);
    for (const stored of [root, ana]) {
      const m = PHC.exec(stored);
      expect(m, stored).not.toBeNull();
      const [, ln, r, p, salt64, key64] = m ?? [];
      expect([Number(ln), Number(r), Number(p)]).toEqual([DEFAULT_COST.log2N, DEFAULT_COST.r, DEFAULT_COST.p]);
      const salt = Buffer.from(salt64 ?? '', 'base64');
      const key = Buffer.from(key64 ?? '', 'base64');
      expect(salt).toHaveLength(16);
      // Recomputing scrypt with the stored salt and cost gives the stored key: it is scrypt, nothing else.
      const N = 2 ** Number(ln);
      const again = scryptSync(SAME, salt, key.length, { N, r: Number(r), p: Number(p), maxmem: 256 * N * Number(r) });
      expect(again.equals(key)).toBe(true);
    }
    const [rootSalt, anaSalt] = [root, ana].map((h) => PHC.exec(h)?.[4]);
    expect(rootSalt).not.toBe(anaSalt);
  });

  it('leave no plaintext password in the database file or its log, open or closed, nor in any answer', async () => {
    const path = join(dir, 'operators.db');
    const d = await openDirectory(dir);
    const passwords = ['admin plaintext 11', 'agent plaintext 22', 'reset plaintext 33'];
    await d.createFirstAdmin({ ...ADMIN, password: passwords[0] ?? '' });
    await d.createOperator(ADMIN.id, { id: 'ana', displayName: 'Ana', role: 'agent', password: passwords[1] ?? '' });
    await d.signIn('ana', 'a wrong guess 44');
    await d.resetPassword(ADMIN.id, 'ana', passwords[2] ?? '');
    const answers = JSON.stringify([
      await d.list(ADMIN.id),
      await d.signIn('ana', passwords[2] ?? ''),
      await d.view('root'),
    ]);

    const whileOpen = fileBytes(path);
    expect(whileOpen.length).toBeGreaterThan(0);
    for (const secret of [...passwords, 'a wrong guess 44'])
      expect(whileOpen.includes(Buffer.from(secret, 'utf8'))).toBe(false);
    await d.close();
    const closed = fileBytes(path);
    for (const secret of passwords) {
      expect(closed.includes(Buffer.from(secret, 'utf8'))).toBe(false);
      expect(answers).not.toContain(secret);
    }
    expect(answers).not.toMatch(/scrypt|hash/i);
    // Sanity check of the probe itself: the file does hold what it should.
    expect(closed.includes(Buffer.from(ADMIN.displayName, 'utf8'))).toBe(true);
  });

  it('are raised to the current cost at the next successful sign-in', async () => {
    const path = join(dir, 'operators.db');
    const old = await openDirectory(dir, { cost: { log2N: 14, r: 8, p: 1 } });
    await old.createFirstAdmin(ADMIN);
    await old.close();
    expect(storedHashes(path).get('root')).toMatch(/^\$scrypt\$ln=14,r=8,p=1\$/);

    const current = await openDirectory(dir);
    expect(await current.signIn(ADMIN.id, 'not the password 1')).toMatchObject({ ok: false });
    expect(storedHashes(path).get('root')).toMatch(/^\$scrypt\$ln=14,/);
    expect((await current.signIn(ADMIN.id, ADMIN.password)).ok).toBe(true);
    expect(storedHashes(path).get('root')).toMatch(/^\$scrypt\$ln=15,r=8,p=1\$/);
    expect((await current.signIn(ADMIN.id, ADMIN.password)).ok).toBe(true);
    await current.close();
  });

  it('cannot be configured weaker than N=2^14, r=8, p=1', async () => {
    await expect(openDirectory(dir, { cost: { log2N: 10, r: 8, p: 1 } })).rejects.toThrow(RangeError);
    await expect(openDirectory(dir, { cost: { log2N: 15, r: 1, p: 1 } })).rejects.toThrow(RangeError);
  });

  it('that are damaged never match, and sign-in still answers like a wrong password', async () => {
    const path = join(dir, 'operators.db');
    const d = await openDirectory(dir);
    await d.createFirstAdmin(ADMIN);
    const raw = new Database(path);
    raw.prepare(`UPDATE operators SET password_hash = '$scrypt$ln=99,r=8,p=1$AAAA$AAAA' WHERE id = 'root'`).run();
    raw.close();
    expect(await d.signIn(ADMIN.id, ADMIN.password)).toEqual({ ok: false, reason: 'invalid_credentials' });
    await d.close();
  });
});
