// Atomic file replacement, used by settings and the secret store.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../../main/storage/atomic-write';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'atomic-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('writeFileAtomic', () => {
  it('replaces the file whole, and removes its temp file when the rename fails', async () => {
    const target = join(dir, 'data.json');
    await writeFileAtomic(target, 'old');
    await writeFileAtomic(target, 'new');
    expect(readFileSync(target, 'utf8')).toBe('new');

    // A non-empty folder where the file should go: rename cannot replace it.
    const blocked = join(dir, 'blocked.json');
    mkdirSync(join(blocked, 'inside'), { recursive: true });
    await expect(writeFileAtomic(blocked, 'data')).rejects.toThrow();
    expect(readdirSync(dir).sort()).toEqual(['blocked.json', 'data.json']);
  });
});
