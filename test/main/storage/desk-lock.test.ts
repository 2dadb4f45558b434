// The data folder's desk.lock (main/storage/desk-lock.ts): one holder at a time, in this process or another, and never
// left behind by a process that died.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tryDeskLock } from '../../../main/storage';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'desk-lock-'));
  folders.push(dir);
  return dir;
}

describe('desk.lock', () => {
  it('has one holder at a time in a process; released, it can be taken again', () => {
    const dir = folder();
    const first = tryDeskLock(dir);
    expect(first).toBeDefined();
    expect(tryDeskLock(dir)).toBeUndefined();
    first?.release();
    first?.release();
    const second = tryDeskLock(dir);
    expect(second).toBeDefined();
    second?.release();
  });

  it('is seen from another process, and a process killed while holding it leaves no stale lock', async () => {
    const dir = folder();
    // Another process (a desk) takes the lock with the same SQLite and holds it until it is killed.
    const sqlite = createRequire(import.meta.url).resolve('better-sqlite3');
    const script = `const D = require(${JSON.stringify(sqlite)}); const db = new D(${JSON.stringify(join(dir, 'desk.lock'))}, { timeout: 0 }); db.exec('BEGIN EXCLUSIVE'); process.stdout.write('held\\n'); setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.once('data', () => resolve());
        child.once('exit', (code) => reject(new Error(`the holder exited (${String(code)})`)));
      });
      expect(tryDeskLock(dir)).toBeUndefined();
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
    const after = tryDeskLock(dir);
    expect(after).toBeDefined();
    after?.release();
  });
});
