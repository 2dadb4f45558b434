// One open session per operator across the center, through the real door: two desks (each a whole main stack with its own data folder) on one place for
// the center's stores (the center's PostgreSQL, or for the embedded backend a second process on the same files). One
// open session per operator: desk B is told where it is open and may end it; desk A finds it ended at its next call,
// is told why, and its window is sent to the sign-in.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMainStack, type MainStack } from '../../../main/app';
import { CENTER_STORES } from '../../../main/center';
import type { SenderInfo } from '../../../main/ipc';
import type { Storage } from '../../../main/storage';
import { useStoreBackends } from '../../support/backends';
import { asAdmin } from '../../support/operators';
import { MIN_COST } from '../../../main/operators';

const sender: SenderInfo = { url: 'app://app/index.html', isMainFrame: true, webContentsId: 1 };
const PASSWORD = 'a long password 42';

const folders: string[] = [];
const stacks: MainStack[] = [];
afterEach(async () => {
  for (const stack of stacks.splice(0)) await stack.close();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

async function deskOn(storage: Storage): Promise<{
  stack: MainStack;
  events: { event: string; payload: unknown }[];
  call: (channel: string, input?: unknown) => ReturnType<MainStack['dispatch']>;
  deskId: string;
}> {
  const dataDir = mkdtempSync(join(tmpdir(), 'two-desks-'));
  folders.push(dataDir);
  const stack = await createMainStack({
    passwordCost: MIN_COST,
    dataDir,
    version: 'test',
    fetch,
    isTrustedSender: () => true,
    storage,
  });
  stacks.push(stack);
  const events: { event: string; payload: unknown }[] = [];
  stack.onEvent((event, payload) => events.push({ event, payload }));
  const call = (channel: string, input: unknown = {}) => stack.dispatch(channel, sender, input);
  const info = await call('app:info');
  if (!info.ok) throw new Error('app:info refused');
  return { stack, events, call, deskId: (info.value as { deskId: string }).deskId };
}

describe.each(useStoreBackends(CENTER_STORES))('two desks on $name', (backend) => {
  it('refuses a second session at desk B naming desk A; ending it there signs desk A out at its next call, saying why', async () => {
    const a = await deskOn(await backend.storage());
    const b = await deskOn(await backend.anotherDesk());
    // Accounts made at desk A are the center's.
    await a.stack.directory.createFirstAdmin({ id: 'ada', displayName: 'Ada', password: PASSWORD });
    await asAdmin(a.stack.directory, { id: 'ada', password: PASSWORD }, () =>
      a.stack.directory.createOperator('ada', { id: 'ana', displayName: 'Ana', role: 'agent', password: PASSWORD }),
    );

    expect((await a.call('session:signIn', { id: 'ana', password: PASSWORD })).ok).toBe(true);
    const refused = await b.call('session:signIn', { id: 'ana', password: PASSWORD });
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'session_elsewhere', params: { deskId: a.deskId, sinceAt: expect.any(String) as unknown } },
    });
    // Desk A works on.
    expect((await a.call('messaging:channels')).ok).toBe(true);

    expect(await b.call('session:signIn', { id: 'ana', password: PASSWORD, endSessionElsewhere: true })).toMatchObject({
      ok: true,
      value: { id: 'ana' },
    });
    expect(await b.stack.audit.query({ action: 'session.takeOver' }, 10)).toMatchObject([
      { actor: 'ana', resource: 'ana', details: { endedDeskId: a.deskId } },
    ]);
    expect(
      (await b.stack.audit.query({ action: 'session.signIn' }, 10)).map((row) => row.details['endSessionElsewhere']),
    ).toContain(true);

    // Desk A's next call: refused, saying where the session went; its window is sent to the sign-in.
    expect(await a.call('messaging:channels')).toMatchObject({
      ok: false,
      error: { code: 'session_ended_elsewhere', params: { deskId: b.deskId } },
    });
    expect(a.events.filter((e) => e.event === 'session:locked')).toEqual([
      {
        event: 'session:locked',
        payload: { endedElsewhere: { deskId: b.deskId, sinceAt: expect.any(String) as unknown } },
      },
    ]);
    expect(await a.call('session:status')).toEqual({ ok: true, value: { locked: false, needsFirstAdmin: false } });
    expect(await a.stack.audit.query({ action: 'session.lock' }, 10)).toMatchObject([
      { actor: 'ana', details: { reason: 'ended_elsewhere', deskId: b.deskId } },
    ]);
    // Desk B is signed in.
    expect((await b.call('messaging:channels')).ok).toBe(true);

    // Signed out at B, the operator signs in at A again without ending anything.
    expect((await b.call('session:signOut')).ok).toBe(true);
    expect(await a.call('session:signIn', { id: 'ana', password: PASSWORD })).toMatchObject({
      ok: true,
      value: { id: 'ana' },
    });
  });
});
