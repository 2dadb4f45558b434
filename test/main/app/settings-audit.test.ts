// Settings changed between two starts (IT's managed file, the user's file) are recorded in the audit trail by `system`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMainStack } from '../../../main/app';
import { MIN_COST } from '../../../main/operators';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'settings-audit-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function start(settingsInEffect: Record<string, unknown>) {
  const stack = await createMainStack({
    passwordCost: MIN_COST,
    dataDir: dir,
    version: 'test',
    fetch,
    isTrustedSender: () => true,
    settingsInEffect,
  });
  const rows = await stack.audit.query({ action: 'settings.change' }, 100);
  await stack.close();
  return rows;
}

describe('settings in effect at start-up', () => {
  it('the first start records them; the same settings again add nothing; a change names the keys that changed', async () => {
    const first = {
      environment: 'training',
      language: 'es-MX',
      idleTimeoutMinutes: 15,
      refundLimits: { supervisor: { mxn: 10000 } },
    };
    const rows1 = await start(first);
    expect(rows1).toHaveLength(1);
    expect(rows1[0]).toMatchObject({
      actor: 'system',
      outcome: 'ok',
      resource: 'settings',
      details: { values: first },
    });

    expect(await start({ ...first })).toHaveLength(1);

    const rows3 = await start({ ...first, refundLimits: { supervisor: { mxn: 5000 } }, idleTimeoutMinutes: 10 });
    expect(rows3).toHaveLength(2);
    expect(rows3[0]?.details['changed']).toEqual(['idleTimeoutMinutes', 'refundLimits']);

    // A setting removed (back to its default) counts as a change too.
    const rows4 = await start({
      environment: 'training',
      idleTimeoutMinutes: 10,
      refundLimits: { supervisor: { mxn: 5000 } },
    });
    expect(rows4[0]?.details['changed']).toEqual(['language']);
  });
});

describe('policy settings in the user file', () => {
  it('are recorded as ignored by system at start-up, naming the settings (never their values)', async () => {
    const stack = await createMainStack({
      passwordCost: MIN_COST,
      fetch,
      dataDir: dir,
      version: 'test',
      isTrustedSender: () => true,
      settingsIgnored: [{ field: 'refundLimits' }, { field: 'baseUrl' }],
    });
    const rows = await stack.audit.query({ action: 'settings.ignored' }, 10);
    await stack.close();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actor: 'system',
      outcome: 'refused',
      resource: 'settings',
      details: { file: 'user', settings: ['refundLimits', 'baseUrl'] },
    });
  });
});
