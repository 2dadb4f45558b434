// The desk's stable id: made once in the data folder, the same at every start, a damaged file refused (never replaced).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESK_FILE, DeskIdentityError, deskIdentity } from '../../../main/center';

let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'cpd-desk-id-'));
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('the desk id', () => {
  it('is made at first start and the same ever after', async () => {
    const dir = path.join(folder, 'a');
    const first = await deskIdentity(dir, () => new Date('2026-11-24T01:00:00.000Z'));
    expect(first.deskId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(first.createdAt).toBe('2026-11-24T01:00:00.000Z');
    expect(await deskIdentity(dir)).toEqual(first);
    expect(JSON.parse(await readFile(path.join(dir, DESK_FILE), 'utf8'))).toEqual(first);
  });

  it('differs between two data folders (two desks)', async () => {
    const a = await deskIdentity(path.join(folder, 'b1'));
    const b = await deskIdentity(path.join(folder, 'b2'));
    expect(a.deskId).not.toBe(b.deskId);
  });

  it('a damaged file is refused in words, and left as it is', async () => {
    const dir = path.join(folder, 'c');
    await deskIdentity(dir);
    await writeFile(path.join(dir, DESK_FILE), '{"version":1,"deskId":"not-a-uuid"');
    const error: unknown = await deskIdentity(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeskIdentityError);
    expect(error).toMatchObject({ code: 'desk_id_damaged', params: { file: path.join(dir, DESK_FILE) } });
    expect(await readFile(path.join(dir, DESK_FILE), 'utf8')).toBe('{"version":1,"deskId":"not-a-uuid"');
  });
});
