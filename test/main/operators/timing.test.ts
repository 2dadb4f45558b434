// Every sign-in answer costs the same scrypt work (unknown id, wrong password, locked, disabled, right): node:crypto's scrypt is wrapped to count calls.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_FAILED_ATTEMPTS, type OperatorDirectory } from '../../../main/operators';
import { ADMIN, AGENT, SUPERVISOR, seeded, tempDir } from './helpers';

const calls = vi.hoisted(() => ({ scrypt: 0 }));

// Mocking a Node built-in is the only way to observe the work without timing assertions; the real scrypt still runs.
vi.mock('node:crypto', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:crypto')>();
  const scrypt = ((...args: Parameters<typeof real.scrypt>) => {
    calls.scrypt++;
    return real.scrypt(...args);
  }) as typeof real.scrypt;
  return { ...real, default: { ...real, scrypt }, scrypt };
});

let dir: string;
let cleanup: () => void;
let d: OperatorDirectory;
beforeEach(async () => {
  ({ dir, cleanup } = tempDir());
  d = await seeded(dir);
  // The first unknown id makes the stand-in hash once; warm it up so every case below is alike.
  await d.signIn('warm-up', 'x');
});
afterEach(async () => {
  await d.close();
  cleanup();
});

async function scryptCallsOf(fn: () => Promise<unknown>): Promise<number> {
  const before = calls.scrypt;
  await fn();
  return calls.scrypt - before;
}

describe('sign-in work', () => {
  it('is one scrypt derivation whatever the answer', async () => {
    const now = Date.now();
    await d.setDisabled(ADMIN.id, SUPERVISOR.id, true);
    const cases = {
      right: await scryptCallsOf(() => d.signIn(AGENT.id, AGENT.password, now)),
      wrongPassword: await scryptCallsOf(() => d.signIn(AGENT.id, 'wrong password 1', now)),
      unknownId: await scryptCallsOf(() => d.signIn('nobody', 'wrong password 1', now)),
      malformedId: await scryptCallsOf(() => d.signIn('?', 'wrong password 1', now)),
      disabled: await scryptCallsOf(() => d.signIn(SUPERVISOR.id, SUPERVISOR.password, now)),
      locked: 0,
    };
    for (let i = 0; i < MAX_FAILED_ATTEMPTS; i++) await d.signIn(AGENT.id, 'wrong password 1', now);
    cases.locked = await scryptCallsOf(async () => {
      expect(await d.signIn(AGENT.id, AGENT.password, now)).toMatchObject({ ok: false, reason: 'locked' });
    });
    expect(cases).toEqual({ right: 1, wrongPassword: 1, unknownId: 1, malformedId: 1, disabled: 1, locked: 1 });
  });
});
