// What the agent reads when a capability fails behind the real door: the one user-facing error, never `internal` for a known failure.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMainStack, type MainStack } from '../../../main/app';
import type { SenderInfo } from '../../../main/ipc';
import { EncryptedSecretStore, type SafeStorageLike } from '../../../main/secrets';
import { MIN_COST } from '../../../main/operators';

const sender: SenderInfo = { url: 'app://app/index.html', isMainFrame: true, webContentsId: 1 };
const PASSWORD = 'a long password 42';
const hosts = {
  authUrl: 'https://auth.example.test',
  cdeUrl: 'https://cde.example.test',
  baseUrl: 'https://api.example.test',
  clientId: 'cli_desk',
};

/** Electron's safeStorage cannot run here; the damaged store file is refused before the OS is ever asked, so this is never called. */
const unreachedSafeStorage = new Proxy({} as SafeStorageLike, {
  get: () => {
    throw new Error('safeStorage must not be reached: the store file is damaged');
  },
});

let dir: string;
let stack: MainStack | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'door-errors-'));
});
afterEach(async () => {
  await stack?.close();
  stack = undefined;
  rmSync(dir, { recursive: true, force: true });
});

describe('a secret-store failure', () => {
  it('reaches the agent as the store’s own sentence, naming what IT must do (not as an internal error)', async () => {
    const secretsFile = join(dir, 'secrets.json');
    writeFileSync(secretsFile, '{ this is not the store');
    const unexpected: unknown[] = [];
    stack = await createMainStack({
      passwordCost: MIN_COST,
      fetch,
      dataDir: dir,
      version: 'test',
      isTrustedSender: () => true,
      service: { environment: 'sandbox', ...hosts },
      secrets: new EncryptedSecretStore({ safeStorage: unreachedSafeStorage, file: secretsFile, platform: 'linux' }),
      onUnexpectedError: (_channel, error) => unexpected.push(error),
    });
    await stack.directory.createFirstAdmin({ id: 'ada', displayName: 'Ada', password: PASSWORD });
    await stack.directory.createOperator('ada', { id: 'ana', displayName: 'Ana', role: 'agent', password: PASSWORD });
    expect((await stack.dispatch('session:signIn', sender, { id: 'ana', password: PASSWORD })).ok).toBe(true);

    // Reading a payment needs an access token, which needs the client secret from the store.
    const answer = await stack.dispatch('payments:get', sender, { paymentId: `pay_${'a'.repeat(32)}` });
    expect(answer).toEqual({ ok: false, error: { code: 'needs_reprovisioning' } });
    expect(unexpected).toEqual([]);
  });
});
