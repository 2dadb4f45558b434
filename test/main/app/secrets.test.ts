// A secret-store failure reaches the agent as the store's own sentence, naming what IT must do — never "Something went
// wrong", never the secret. The real stack and door; the secret store is a stand-in that fails as the OS would make
// the real one fail (Electron's safeStorage cannot run here).
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMainStack, type MainStack } from '../../../main/app';
import { describeProblem } from '../../../main/cli/messages';
import type { ErrorParams } from '../../../main/errors';
import type { SenderInfo } from '../../../main/ipc';
import { SecretError, type SecretErrorCode } from '../../../main/secrets';
import { MIN_COST } from '../../../main/operators';

const sender: SenderInfo = { url: 'app://app/index.html', isMainFrame: true, webContentsId: 1 };
// The service is never reached: the secret is read before any request.
const SANDBOX = {
  environment: 'sandbox',
  authUrl: 'https://auth.service.invalid',
  cdeUrl: 'https://cde.service.invalid',
  baseUrl: 'https://api.service.invalid',
  clientId: 'desk',
} as const;

let dir: string;
let stack: MainStack | undefined;
const neverCalled = vi.fn<typeof fetch>(() => Promise.reject(new Error('no request was expected')));

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'stack-secrets-'));
  neverCalled.mockClear();
});
afterEach(async () => {
  await stack?.close();
  stack = undefined;
  rmSync(dir, { recursive: true, force: true });
});

async function signedInStack(error: SecretError): Promise<MainStack> {
  const failing = { read: () => Promise.reject(error) };
  const opened = await createMainStack({
    passwordCost: MIN_COST,
    dataDir: dir,
    version: 'test',
    fetch: neverCalled,
    isTrustedSender: () => true,
    service: SANDBOX,
    secrets: failing,
    reservations: { kind: 'rest', baseUrl: 'https://pms.invalid', authHeader: 'X-Api-Key' },
    reservationsSecret: failing.read,
  });
  stack = opened;
  await opened.directory.createFirstAdmin({ id: 'ada', displayName: 'Ada', password: 'a long password 42' });
  await opened.directory.createOperator('ada', {
    id: 'ana',
    displayName: 'Ana',
    role: 'agent',
    password: 'agent password 1234',
  });
  const signedIn = await opened.dispatch('session:signIn', sender, { id: 'ana', password: 'agent password 1234' });
  expect(signedIn.ok).toBe(true);
  return opened;
}

describe('a secret-store failure, as the agent sees it', () => {
  it.each<[SecretErrorCode, ErrorParams]>([
    ['needs_reprovisioning', { secret: 'clientSecret', reason: 'undecryptable' }],
    ['encryption_unavailable', { reason: 'unavailable', platform: 'linux' }],
  ])('%s: taking a card and looking up a reservation both answer with what IT must do', async (code, params) => {
    const opened = await signedInStack(new SecretError(code, params));

    const card = await opened.dispatch('payments:tokenize', sender, {
      operationId: randomUUID(),
      card: { number: '4242424242424242', expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvv: '123' },
      reservationId: 'CUN-7F3K2A',
    });
    // Only the code crosses the door: the params (a path on this machine, an errno) are for IT's words.
    expect(card).toEqual({ ok: false, error: { code } });
    // What IT must do is the catalogue's wording of the code and params.
    expect(describeProblem(new SecretError(code, params))).toMatch(/IT must/);

    const lookup = await opened.dispatch('reservations:search', sender, { text: 'Núñez' });
    expect(lookup).toEqual({ ok: false, error: { code } });
    expect(neverCalled).not.toHaveBeenCalled();
  });
});
