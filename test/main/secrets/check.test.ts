// The start-up check of the stored secrets, over the real encrypted store. Electron's safeStorage cannot run here:
// a stand-in encrypts with AES-256-GCM under a key that a "keyring reset" replaces.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeProblem } from '../../../main/cli/messages';
import { EncryptedSecretStore, SecretError, unreadableSecrets, type SafeStorageLike } from '../../../main/secrets';

function keychain(key = randomBytes(32)): SafeStorageLike {
  return {
    isAsyncEncryptionAvailable: () => Promise.resolve(true),
    getSelectedStorageBackend: () => 'gnome_libsecret',
    encryptStringAsync: (text) => {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
      return Promise.resolve(Buffer.concat([iv, cipher.getAuthTag(), body]));
    },
    decryptStringAsync: (data) => {
      const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, 12));
      decipher.setAuthTag(data.subarray(12, 28));
      return Promise.resolve({
        result: Buffer.concat([decipher.update(data.subarray(28)), decipher.final()]).toString('utf8'),
        shouldReEncrypt: false,
      });
    },
  };
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'secrets-check-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const store = (safeStorage: SafeStorageLike): EncryptedSecretStore =>
  new EncryptedSecretStore({ safeStorage, file: join(dir, 'secrets.json'), platform: 'linux' });

describe('unreadableSecrets', () => {
  it('is empty when every stored secret decrypts, and when none is stored', async () => {
    const os = keychain();
    expect(await unreadableSecrets(store(os))).toEqual([]);
    await store(os).write('clientSecret', 'cs_test_1');
    await store(os).write('smtpPassword', 'smtp-pass');
    expect(await unreadableSecrets(store(os))).toEqual([]);
  });

  it('names each stored secret the OS can no longer decrypt, with what IT must do, never the value', async () => {
    await store(keychain()).write('clientSecret', 'cs_test_1');
    await store(keychain()).write('twilioAuthToken', 'twilio-token');
    const problems = await unreadableSecrets(store(keychain()));
    expect(problems.map((p) => p.code)).toEqual(['needs_reprovisioning', 'needs_reprovisioning']);
    expect(problems.map((p) => p.params)).toEqual([
      { secret: 'clientSecret', reason: 'undecryptable' },
      { secret: 'twilioAuthToken', reason: 'undecryptable' },
    ]);
    expect(problems.map(describeProblem)).toEqual([
      expect.stringMatching(
        /^The stored clientSecret cannot be decrypted .* IT must provision the secret again on this computer \(--provision-secret\)\.$/,
      ),
      expect.stringMatching(/^The stored twilioAuthToken cannot be decrypted/),
    ]);
    expect(JSON.stringify(problems.map(describeProblem))).not.toMatch(/cs_test_1|twilio-token/);
  });

  it('says a store problem once, not once per secret', async () => {
    mkdirSync(join(dir, 'secrets.json'));
    const problems = await unreadableSecrets(store(keychain()));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toBeInstanceOf(SecretError);
    expect(problems[0]?.code).toBe('store_unreadable');
  });
});
