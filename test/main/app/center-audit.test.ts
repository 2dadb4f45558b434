// Two desks, each a whole main stack with its own data folder, on one center (a real PostgreSQL, as the app role): the
// audit trail is the center's — each desk's rows in its own chain, read at either desk with the desk that wrote them —
// and what a desk compares with its own last start is its own (settings.change), never another desk's.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMainStack, type MainStack } from '../../../main/app';
import { CENTER_STORES } from '../../../main/center';
import { centerStorage } from '../../../main/storage';
import { createCenter, type TestCenter } from '../../support/center';
import { testPostgres } from '../../support/pg';
import { MIN_COST } from '../../../main/operators';

let center: TestCenter;
let root: string;
const stacks: MainStack[] = [];

beforeAll(async () => {
  center = await createCenter(await testPostgres(), { stores: CENTER_STORES });
  root = await mkdtemp(path.join(tmpdir(), 'cpd-center-audit-'));
}, 120_000);

afterEach(async () => {
  await Promise.all(stacks.splice(0).map((stack) => stack.close()));
});

afterAll(async () => {
  await center.drop();
  await rm(root, { recursive: true, force: true });
});

async function desk(name: string, settingsInEffect: Record<string, unknown>): Promise<MainStack> {
  const stack = await createMainStack({
    passwordCost: MIN_COST,
    dataDir: path.join(root, name),
    version: 'test',
    fetch,
    isTrustedSender: () => true,
    storage: centerStorage(center.app),
    settingsInEffect,
  });
  stacks.push(stack);
  return stack;
}

describe('the audit trail of a center of two desks', () => {
  it("keeps each desk's chain, shows every desk's rows at either desk, and compares a desk's settings with its own last start", async () => {
    await mkdir(path.join(root, 'a'));
    await mkdir(path.join(root, 'b'));
    const settings = { environment: 'training', language: 'es-MX' };
    const a = await desk('a', settings);
    const b = await desk('b', { ...settings, language: 'en-US' });
    a.audit.record({ actor: 'ana', action: 'session.signIn', outcome: 'ok', resource: 'ana' });
    b.audit.record({ actor: 'beto', action: 'session.signIn', outcome: 'ok', resource: 'beto' });
    await a.audit.flush();

    const rows = await b.audit.query({});
    expect(new Set(rows.map((row) => row.deskId))).toEqual(new Set([a.audit.deskId, b.audit.deskId]));
    expect(rows.filter((row) => row.deskId === a.audit.deskId).map((row) => [row.seq, row.action])).toEqual([
      [2, 'session.signIn'],
      [1, 'settings.change'],
    ]);
    expect(await a.audit.verify()).toEqual({ ok: true, rows: 4, desks: 2 });

    // Desk A starts again with the same settings: desk B's later settings.change (other values) does not make A record one.
    await a.close();
    stacks.splice(stacks.indexOf(a), 1);
    const again = await desk('a', settings);
    expect(
      (await again.audit.query({ action: 'settings.change', deskId: again.audit.deskId })).map((row) => row.seq),
    ).toEqual([1]);
    expect(again.audit.deskId).toBe(a.audit.deskId);
    expect((await again.audit.query({ action: 'session.' })).map((row) => row.deskId).sort()).toEqual(
      [a.audit.deskId, b.audit.deskId].sort(),
    );
  }, 60_000);
});
