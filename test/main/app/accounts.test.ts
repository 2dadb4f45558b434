// Operator accounts through the real door: the audit trail's own actors (system, anonymous) cannot be anyone's id.
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
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'accounts-'));
  stack = await createMainStack({
    ...stackOptions(dir),
  });
});
afterEach(async () => {
  await stack.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('reserved operator ids', () => {
  it('the first admin cannot be called "anonymous"', async () => {
    const answer = await stack.dispatch('session:createFirstAdmin', sender, {
      id: 'Anonymous',
      displayName: 'Who',
      password: PASSWORD,
    });
    expect(answer).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', field: 'id' },
    });
    expect(await stack.directory.needsFirstAdmin()).toBe(true);
  });

  it('an admin cannot create "system" or "anonymous", in any case; the refusal names the field', async () => {
    expect(
      (await stack.dispatch('session:createFirstAdmin', sender, { id: 'ada', displayName: 'Ada', password: PASSWORD }))
        .ok,
    ).toBe(true);
    for (const id of ['system', 'SYSTEM', ' anonymous']) {
      const answer = await stack.dispatch('operators:create', sender, {
        id,
        displayName: 'Impostor',
        role: 'supervisor',
        password: PASSWORD,
      });
      expect(answer, id).toMatchObject({
        ok: false,
        error: { code: 'invalid_input', field: 'id' },
      });
    }
    expect((await stack.directory.list('ada')).map((o) => o.id)).toEqual(['ada']);
  });
});
