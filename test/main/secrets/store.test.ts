// The encrypted secret store. Electron's safeStorage cannot run here (no Electron binary, no OS keychain), so a fake
// SafeStorageLike stands in for it (Electron 45's asynchronous API): AES-256-GCM under a test key plays the keychain;
// a new key plays a reset keyring; a rotated key (the old one still known) plays the OS asking to re-encrypt.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeProblem } from '../../../main/cli/messages';
import { EncryptedSecretStore, SecretError, type SafeStorageLike, type SecretErrorCode } from '../../../main/secrets';

const SECRET = 'cs_test_9f8e7d6c5b4a-very-secret';

function sealWith(key: Buffer, plainText: string): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plainText, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

function openWith(key: Buffer, encrypted: Buffer): string {
  const decipher = createDecipheriv('aes-256-gcm', key, encrypted.subarray(0, 12));
  decipher.setAuthTag(encrypted.subarray(12, 28));
  return Buffer.concat([decipher.update(encrypted.subarray(28)), decipher.final()]).toString('utf8');
}

/** The mocked safeStorage (what Electron's own would do with the OS keychain). */
class FakeSafeStorage implements SafeStorageLike {
  available: boolean | 'throws' = true;
  backend: string | undefined = 'gnome_libsecret';
  encryptions = 0;
  /** Keys the OS still knows after a rotation: their data decrypts, with a request to encrypt it again. */
  private readonly previousKeys: Buffer[] = [];
  constructor(private key: Buffer = randomBytes(32)) {}

  isAsyncEncryptionAvailable(): Promise<boolean> {
    return this.available === 'throws' ? Promise.reject(new Error('no key provider')) : Promise.resolve(this.available);
  }
  getSelectedStorageBackend(): string {
    return this.backend ?? 'unknown';
  }
  encryptStringAsync(plainText: string): Promise<Buffer> {
    this.encryptions++;
    return Promise.resolve(sealWith(this.key, plainText));
  }
  decryptStringAsync(encrypted: Buffer): Promise<{ result: string; shouldReEncrypt: boolean }> {
    try {
      return Promise.resolve({ result: openWith(this.key, encrypted), shouldReEncrypt: false });
    } catch (error) {
      for (const old of this.previousKeys) {
        try {
          return Promise.resolve({ result: openWith(old, encrypted), shouldReEncrypt: true });
        } catch {
          // the next older key
        }
      }
      return Promise.reject(error instanceof Error ? error : new Error('decryption failed'));
    }
  }
  /** The keyring was reset or the OS profile is new: the old key is gone. */
  resetKeyring(): void {
    this.key = randomBytes(32);
  }
  /** The OS moved to a new key and still knows the old one. */
  rotateKey(): void {
    this.previousKeys.push(this.key);
    this.key = randomBytes(32);
  }
  forgetOldKeys(): void {
    this.previousKeys.length = 0;
  }
}

/** A store whose "decryption" never fails but yields garbage under another key (as unauthenticated ciphers can). */
class XorSafeStorage implements SafeStorageLike {
  constructor(private readonly key: number) {}
  isAsyncEncryptionAvailable(): Promise<boolean> {
    return Promise.resolve(true);
  }
  encryptStringAsync(plainText: string): Promise<Buffer> {
    return Promise.resolve(Buffer.from(Buffer.from(plainText, 'utf8').map((byte) => byte ^ this.key)));
  }
  decryptStringAsync(encrypted: Buffer): Promise<{ result: string; shouldReEncrypt: boolean }> {
    return Promise.resolve({
      result: Buffer.from(encrypted.map((byte) => byte ^ this.key)).toString('utf8'),
      shouldReEncrypt: false,
    });
  }
}

/**
 * Chromium's Linux fallback for the asynchronous API (os_crypt_async's PosixKeyProvider): when no keyring answers, the
 * encryptor still "works", with a key compiled into every Chromium ("peanuts"), and tags its output "v10"; a real keyring
 * (FreedesktopSecretKeyProvider) tags "v11". getSelectedStorageBackend() only reports what the desktop suggests
 * ('gnome_libsecret' on GNOME), whether or not a keyring runs; isAsyncEncryptionAvailable() resolves true either way.
 */
class HardcodedKeyFallback implements SafeStorageLike {
  private static readonly key = Buffer.from('fd621fe5a2b402539dfa147ca9272778', 'hex');
  constructor(private readonly backend = 'gnome_libsecret') {}
  isAsyncEncryptionAvailable(): Promise<boolean> {
    return Promise.resolve(true);
  }
  getSelectedStorageBackend(): string {
    return this.backend;
  }
  encryptStringAsync(plainText: string): Promise<Buffer> {
    const cipher = createCipheriv('aes-128-cbc', HardcodedKeyFallback.key, Buffer.alloc(16, 0x20));
    return Promise.resolve(Buffer.concat([Buffer.from('v10'), cipher.update(plainText, 'utf8'), cipher.final()]));
  }
  decryptStringAsync(encrypted: Buffer): Promise<{ result: string; shouldReEncrypt: boolean }> {
    const decipher = createDecipheriv('aes-128-cbc', HardcodedKeyFallback.key, Buffer.alloc(16, 0x20));
    const result = Buffer.concat([decipher.update(encrypted.subarray(3)), decipher.final()]).toString('utf8');
    return Promise.resolve({ result, shouldReEncrypt: false });
  }
}

/**
 * sway, i3 and other desktops Chromium does not recognise: getSelectedStorageBackend() answers "basic_text - When the
 * desktop environment is not recognised" (Electron 45's safeStorage docs), while the asynchronous API asks the Secret
 * Service on the session bus whatever the desktop (FreedesktopSecretKeyProvider::GetKey), gets the keyring's key and
 * tags its ciphertext "v11".
 */
class SecretServiceOnUnrecognisedDesktop extends FakeSafeStorage {
  override getSelectedStorageBackend(): string {
    return 'basic_text';
  }
  override encryptStringAsync(plainText: string): Promise<Buffer> {
    return super.encryptStringAsync(plainText).then((sealed) => Buffer.concat([Buffer.from('v11'), sealed]));
  }
  override decryptStringAsync(encrypted: Buffer): Promise<{ result: string; shouldReEncrypt: boolean }> {
    return super.decryptStringAsync(encrypted.subarray(3));
  }
}

let dir: string;
let file: string;
let safeStorage: FakeSafeStorage;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'secrets-'));
  file = join(dir, 'secrets.json');
  safeStorage = new FakeSafeStorage();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const store = (platform: NodeJS.Platform = 'linux', storage: SafeStorageLike = safeStorage): EncryptedSecretStore =>
  new EncryptedSecretStore({ safeStorage: storage, file, platform });

async function secretError(fn: () => Promise<unknown>, code: SecretErrorCode): Promise<SecretError> {
  try {
    await fn();
  } catch (error) {
    if (!(error instanceof SecretError)) throw error;
    expect(error.code).toBe(code);
    expect(describeProblem(error)).not.toContain(SECRET);
    expect(JSON.stringify(error.params ?? {})).not.toContain(SECRET);
    expect(error.stack ?? '').not.toContain(SECRET);
    return error;
  }
  throw new Error(`expected a SecretError (${code}), but the call succeeded`);
}

describe('EncryptedSecretStore', () => {
  it('round trip: write, has, read, remove', async () => {
    const secrets = store();
    expect(await secrets.read('clientSecret')).toBeUndefined();
    expect(await secrets.has('clientSecret')).toBe(false);
    await secrets.write('clientSecret', SECRET);
    expect(await secrets.has('clientSecret')).toBe(true);
    expect(await secrets.read('clientSecret')).toBe(SECRET);
    // A new instance (the next app start) reads the same file.
    expect(await store().read('clientSecret')).toBe(SECRET);
    await secrets.write('clientSecret', `${SECRET}-rotated`);
    expect(await secrets.read('clientSecret')).toBe(`${SECRET}-rotated`);
    expect(await secrets.remove('clientSecret')).toBe(true);
    expect(await secrets.remove('clientSecret')).toBe(false);
    expect(await secrets.read('clientSecret')).toBeUndefined();
  });

  it('the file holds only base64 ciphertext: no plaintext, no base64 of it; no temp file left', async () => {
    await store().write('clientSecret', SECRET);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(Buffer.from(SECRET).toString('base64'));
    expect(text).not.toContain(Buffer.from(SECRET).toString('hex'));
    const parsed = JSON.parse(text) as { version: number; secrets: Record<string, string> };
    expect(parsed.version).toBe(1);
    expect(Object.keys(parsed.secrets)).toEqual(['clientSecret']);
    expect(parsed.secrets['clientSecret']).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    expect(readdirSync(dir)).toEqual(['secrets.json']);
  });

  it('works with macOS and Windows, where Electron has no backend to report', async () => {
    for (const platform of ['darwin', 'win32'] as const) {
      safeStorage.backend = undefined;
      await store(platform).write('clientSecret', SECRET);
      expect(await store(platform).read('clientSecret')).toBe(SECRET);
    }
  });

  it('Linux on a desktop Chromium does not recognise (sway, i3: the backend reads basic_text) whose keyring answers: stored and read', async () => {
    const sway = new SecretServiceOnUnrecognisedDesktop();
    await store('linux', sway).write('clientSecret', SECRET);
    expect(await store('linux', sway).read('clientSecret')).toBe(SECRET);
    const { secrets } = JSON.parse(readFileSync(file, 'utf8')) as { secrets: Record<string, string> };
    expect(
      Buffer.from(secrets['clientSecret'] ?? '', 'base64')
        .subarray(0, 3)
        .toString(),
    ).toBe('v11');
  });

  it('Linux where the backend cannot be asked: the asynchronous result decides', async () => {
    const withoutBackend: SafeStorageLike = {
      isAsyncEncryptionAvailable: () => Promise.resolve(true),
      encryptStringAsync: (s) => safeStorage.encryptStringAsync(s),
      decryptStringAsync: (b) => safeStorage.decryptStringAsync(b),
    };
    await store('linux', withoutBackend).write('clientSecret', SECRET);
    expect(await store('linux', withoutBackend).read('clientSecret')).toBe(SECRET);
  });

  it.each(['gnome_libsecret', 'basic_text'])(
    'Linux where no keyring answers and Chromium falls back to its built-in key ("v10"), the backend reading %s: refused, as plain text would be',
    async (backend) => {
      const fallback = new HardcodedKeyFallback(backend);
      const error = await secretError(() => store('linux', fallback).write('clientSecret', SECRET), 'insecure_backend');
      expect(error.params).toBeUndefined();
      expect(describeProblem(error)).toMatch(/gnome-keyring/);
      expect(describeProblem(error)).toMatch(/KWallet/);
      expect(readdirSync(dir)).toEqual([]);
      // A secret stored that way earlier is refused too (anyone with the file can open it): IT installs a keyring and provisions again.
      const stored = await fallback.encryptStringAsync(JSON.stringify({ name: 'clientSecret', value: SECRET }));
      writeFileSync(file, JSON.stringify({ version: 1, secrets: { clientSecret: stored.toString('base64') } }));
      await secretError(() => store('linux', fallback).read('clientSecret'), 'insecure_backend');
      // On macOS and Windows "v10" is the Keychain's and DPAPI's own tag: nothing to refuse there.
      await store('darwin', fallback).write('clientSecret', SECRET);
      expect(await store('darwin', fallback).read('clientSecret')).toBe(SECRET);
    },
  );

  it('encryption unavailable: refused on every platform, with what IT must do', async () => {
    safeStorage.available = false;
    const linux = await secretError(() => store('linux').write('clientSecret', SECRET), 'encryption_unavailable');
    expect(linux.params).toEqual({ reason: 'unavailable', platform: 'linux' });
    expect(describeProblem(linux)).toMatch(/gnome-keyring/);
    const mac = await secretError(() => store('darwin').write('clientSecret', SECRET), 'encryption_unavailable');
    expect(mac.params).toEqual({ reason: 'unavailable', platform: 'darwin' });
    expect(describeProblem(mac)).toMatch(/Keychain/);
    const windows = await secretError(() => store('win32').write('clientSecret', SECRET), 'encryption_unavailable');
    expect(windows.params).toEqual({ reason: 'unavailable', platform: 'win32' });
    expect(describeProblem(windows)).toMatch(/DPAPI.*IT must check the user profile/);
    // The OS key provider failing to start reads the same way.
    safeStorage.available = 'throws';
    await secretError(() => store('darwin').write('clientSecret', SECRET), 'encryption_unavailable');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a secret the OS asks to re-encrypt (its key rotated) is read, and stored again under the new key', async () => {
    await store().write('clientSecret', SECRET);
    const before = readFileSync(file, 'utf8');
    safeStorage.rotateKey();
    expect(await store().read('clientSecret')).toBe(SECRET);
    expect(readFileSync(file, 'utf8')).not.toBe(before);
    // The old key can go: the stored secret no longer needs it.
    safeStorage.forgetOldKeys();
    expect(await store().read('clientSecret')).toBe(SECRET);
    const encryptions = safeStorage.encryptions;
    await store().read('clientSecret');
    expect(safeStorage.encryptions).toBe(encryptions);
  });

  it('a stored secret that no longer decrypts (keyring reset) → needs_reprovisioning, never garbage', async () => {
    await store().write('clientSecret', SECRET);
    safeStorage.resetKeyring();
    const error = await secretError(() => store().read('clientSecret'), 'needs_reprovisioning');
    expect(error.params).toEqual({ secret: 'clientSecret', reason: 'undecryptable' });
    expect(describeProblem(error)).toMatch(/IT must provision the secret again .*--provision-secret/);
    // Provisioning again fixes it.
    await store().write('clientSecret', SECRET);
    expect(await store().read('clientSecret')).toBe(SECRET);
  });

  it("the OS key store only temporarily unavailable (a keyring still locked): not 'provision again', but try again", async () => {
    await store().write('clientSecret', SECRET);
    // Electron 45's exact rejection when os_crypt_async reports the key as temporarily unavailable.
    const locked: SafeStorageLike = {
      isAsyncEncryptionAvailable: () => Promise.resolve(true),
      getSelectedStorageBackend: () => 'gnome_libsecret',
      encryptStringAsync: (text) => safeStorage.encryptStringAsync(text),
      decryptStringAsync: () =>
        Promise.reject(new Error('safeStorage.decryptStringAsync is temporarily unavailable. Please try again.')),
    };
    const error = await secretError(() => store('linux', locked).read('clientSecret'), 'encryption_unavailable');
    expect(error.params).toEqual({ secret: 'clientSecret', reason: 'keyring_locked' });
    expect(describeProblem(error)).not.toMatch(/provision/);
    expect(describeProblem(error)).toMatch(/try again/i);
    // Nothing was lost: once the keyring answers, the secret reads.
    expect(await store().read('clientSecret')).toBe(SECRET);
  });

  it('a "successful" decryption into garbage (another key, no authentication) → needs_reprovisioning', async () => {
    await store('win32', new XorSafeStorage(0x5a)).write('clientSecret', SECRET);
    expect(await store('win32', new XorSafeStorage(0x5a)).read('clientSecret')).toBe(SECRET);
    await secretError(() => store('win32', new XorSafeStorage(0x33)).read('clientSecret'), 'needs_reprovisioning');
  });

  it('a damaged store file → needs_reprovisioning on read; a new write replaces it', async () => {
    writeFileSync(file, '{"version":1,"secrets":{"clientSecret":"%%% not base64"}}');
    await secretError(() => store().read('clientSecret'), 'needs_reprovisioning');
    await secretError(() => store().has('clientSecret'), 'needs_reprovisioning');
    await store().write('clientSecret', SECRET);
    expect(await store().read('clientSecret')).toBe(SECRET);
  });

  it('an unreadable store file (a folder in its place) → store_unreadable, saying what IT must do', async () => {
    mkdirSync(file);
    const error = await secretError(() => store().read('clientSecret'), 'store_unreadable');
    expect(error.params).toEqual({ file, errno: 'EISDIR' });
    expect(describeProblem(error)).toMatch(/IT must give this user access to it/);
  });

  it('refuses an empty value or an unknown name', async () => {
    await secretError(() => store().write('clientSecret', ''), 'invalid_value');
    // A name from outside the type (e.g. from a command line) is refused at run time too.
    const name: unknown = 'notASecret';
    await secretError(() => store().read(name as 'clientSecret'), 'invalid_value');
  });

  it('concurrent writes and removes are applied one after another', async () => {
    const secrets = store();
    await Promise.all([
      secrets.write('clientSecret', 'one'),
      secrets.write('clientSecret', 'two'),
      secrets.remove('clientSecret'),
      secrets.write('clientSecret', SECRET),
    ]);
    expect(await secrets.read('clientSecret')).toBe(SECRET);
    expect(readdirSync(dir)).toEqual(['secrets.json']);
  });

  it("satisfies the engine's SecretStore", async () => {
    const engineView: { read(name: 'clientSecret'): Promise<string | undefined> } = store();
    await store().write('clientSecret', SECRET);
    expect(await engineView.read('clientSecret')).toBe(SECRET);
  });
});
