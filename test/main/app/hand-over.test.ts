// A locked desk handed to another operator through the real door: the locked session ends (recorded), the next one signs in.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stackOptions } from './desk-kit';
import { createMainStack, type MainStack } from '../../../main/app';
import type { SenderInfo } from '../../../main/ipc';

const sender: SenderInfo = { url: 'app://app/index.html', isMainFrame: true, webContentsId: 1 };
const PASSWORD = 'a long password 42';

let dir: string;
let stack: MainStack;
const call = (channel: string, input: unknown = {}) => stack.dispatch(channel, sender, input);

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hand-over-'));
  stack = await createMainStack({
    ...stackOptions(dir),
  });
  await stack.directory.createFirstAdmin({ id: 'ada', displayName: 'Ada', password: PASSWORD });
  await stack.directory.createOperator('ada', { id: 'ana', displayName: 'Ana', role: 'agent', password: PASSWORD });
  await stack.directory.createOperator('ada', {
    id: 'sam',
    displayName: 'Sam',
    role: 'supervisor',
    password: PASSWORD,
  });
});
afterEach(async () => {
  await stack.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('session:endLocked ("Sign in as someone else" on the lock screen)', () => {
  it('ends the locked session, is recorded, and the next operator signs in without a restart', async () => {
    expect((await call('session:signIn', { id: 'ana', password: PASSWORD })).ok).toBe(true);
    expect((await call('session:lock')).ok).toBe(true);
    expect(await call('session:status')).toMatchObject({ ok: true, value: { locked: true } });

    // Another operator's password does not open Ana's locked session; the refusal says what to do instead.
    const refused = await call('session:signIn', { id: 'sam', password: PASSWORD });
    expect(refused).toEqual({ ok: false, error: { code: 'session_active', params: { lockedFor: 'Ana' } } });

    expect(await call('session:endLocked')).toEqual({ ok: true, value: { ok: true, ended: 'ana' } });
    expect(await call('session:status')).toEqual({ ok: true, value: { locked: false, needsFirstAdmin: false } });
    expect(await call('session:signIn', { id: 'sam', password: PASSWORD })).toMatchObject({
      ok: true,
      value: { id: 'sam' },
    });

    const [row] = await stack.audit.query({ action: 'session.handOver' }, 10);
    // Nobody is signed in on a locked desk: whoever pressed the button is anonymous; the session that ended is the resource.
    expect(row).toMatchObject({ actor: 'anonymous', outcome: 'ok', resource: 'ana', details: {} });
  });

  it('is refused while the session is open (that is what Sign out is for), and the operator stays signed in', async () => {
    expect((await call('session:signIn', { id: 'sam', password: PASSWORD })).ok).toBe(true);
    expect(await call('session:endLocked')).toMatchObject({
      ok: false,
      error: { code: 'not_locked', params: { signedIn: 'Sam' } },
    });
    expect(await call('session:status')).toMatchObject({ ok: true, value: { operator: { id: 'sam' }, locked: false } });
    expect(await stack.audit.query({ action: 'session.handOver' }, 10)).toMatchObject([
      { actor: 'sam', outcome: 'refused', details: { code: 'not_locked' } },
    ]);
  });

  it('with nobody signed in there is nothing to end', async () => {
    expect(await call('session:endLocked')).toEqual({ ok: true, value: { ok: true } });
  });
});
