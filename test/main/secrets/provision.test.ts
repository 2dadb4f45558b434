// IT's provisioning path: flags parsed, the secret stored through the real encrypted store (fake OS encryption), the file gone.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EncryptedSecretStore, type SafeStorageLike } from '../../../main/secrets';
import { parseProvisionArgs, provisionSecret } from '../../../main/secrets/provision';

const SECRET = 'cs_live_provisioned_0123456789';

/** Stands in for Electron's safeStorage (cannot run here): reversible, but not plain text. */
const fakeSafeStorage: SafeStorageLike = {
  isEncryptionAvailable: () => true,
  getSelectedStorageBackend: () => 'gnome_libsecret',
  encryptString: (text) => Buffer.from(text, 'utf8').reverse(),
  decryptString: (data) => Buffer.from(data).reverse().toString('utf8'),
};

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'provision-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('parseProvisionArgs', () => {
  it('reads --provision-secret=<file> or --provision-secret <file>, with the client secret by default', () => {
    expect(parseProvisionArgs(['app', '--provision-secret=/tmp/s.txt'])).toEqual({ kind: 'provision', name: 'clientSecret', file: '/tmp/s.txt' });
    expect(parseProvisionArgs(['app', '--provision-secret', '/tmp/s.txt', '--secret-name=clientSecret'])).toEqual({
      kind: 'provision',
      name: 'clientSecret',
      file: '/tmp/s.txt',
    });
    expect(parseProvisionArgs(['app', '--user-data-dir=/x'])).toEqual({ kind: 'none' });
  });

  it('refuses a missing file and an unknown secret name with a sentence for IT', () => {
    const missing = parseProvisionArgs(['app', '--provision-secret']);
    expect(missing.kind === 'invalid' && missing.message).toMatch(/path of a file/);
    expect(parseProvisionArgs(['app', '--provision-secret', '--other'])).toMatchObject({ kind: 'invalid' });
    const unknown = parseProvisionArgs(['app', '--provision-secret=/s', '--secret-name=rootPassword']);
    expect(unknown.kind === 'invalid' && unknown.message).toMatch(/clientSecret/);
  });
});

describe('provisionSecret', () => {
  it('stores the trimmed secret encrypted, then deletes the plain-text file', async () => {
    const store = new EncryptedSecretStore({ safeStorage: fakeSafeStorage, file: join(dir, 'secrets.json'), platform: 'linux' });
    const file = join(dir, 'secret.txt');
    writeFileSync(file, `  ${SECRET}\r\n`);
    const message = await provisionSecret(store, 'clientSecret', file);
    expect(message).toContain('stored encrypted');
    expect(message).not.toContain(SECRET);
    expect(existsSync(file)).toBe(false);
    expect(await store.read('clientSecret')).toBe(SECRET);
    expect(readFileSync(join(dir, 'secrets.json'), 'utf8')).not.toContain(SECRET);
  });

  it('keeps the file and stores nothing when the OS would keep the secret in plain text', async () => {
    const store = new EncryptedSecretStore({
      safeStorage: { ...fakeSafeStorage, getSelectedStorageBackend: () => 'basic_text' },
      file: join(dir, 'secrets.json'),
      platform: 'linux',
    });
    const file = join(dir, 'secret.txt');
    writeFileSync(file, SECRET);
    await expect(provisionSecret(store, 'clientSecret', file)).rejects.toMatchObject({ code: 'insecure_backend' });
    expect(existsSync(file)).toBe(true);
    expect(existsSync(join(dir, 'secrets.json'))).toBe(false);
  });

  it('refuses an unreadable file or a file of several lines, naming the file but never the content', async () => {
    const store = new EncryptedSecretStore({ safeStorage: fakeSafeStorage, file: join(dir, 'secrets.json'), platform: 'linux' });
    await expect(provisionSecret(store, 'clientSecret', join(dir, 'missing.txt'))).rejects.toThrow(/missing\.txt cannot be read \(ENOENT\)/);
    const file = join(dir, 'two.txt');
    writeFileSync(file, `${SECRET}\nsecond-line`);
    const error = await provisionSecret(store, 'clientSecret', file).catch((e: unknown) => e);
    expect(String(error)).toMatch(/one line/);
    expect(String(error)).not.toContain(SECRET);
    expect(existsSync(file)).toBe(true);
    expect(await store.has('clientSecret')).toBe(false);
  });
});
