/** The app's secrets, encrypted by the OS through Electron's safeStorage (passed in), in one JSON file of base64 ciphertext. */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { SecretStore } from '../payments';
import { writeFileAtomic } from '../storage/atomic-write';
import { SecretError } from './errors';

/** Every secret the app keeps: the service's client secret, the messaging providers' credentials, the center's database password. */
export const SECRET_NAMES = [
  'clientSecret',
  'reservationsApiKey',
  'smtpPassword',
  'twilioAuthToken',
  'webhookAuthHeaderValue',
  'centerPassword',
] as const;
export type SecretName = (typeof SECRET_NAMES)[number];

/**
 * What the store needs from Electron's `safeStorage` (which matches it); tests pass a fake. Electron 45's asynchronous
 * API: the synchronous isEncryptionAvailable/encryptString/decryptString are deprecated (removed in Electron 46), and
 * what they encrypted decrypts with decryptStringAsync.
 */
export interface SafeStorageLike {
  /** Resolves once the OS key provider is set up (lazily, the first time after the app is ready). */
  isAsyncEncryptionAvailable(): Promise<boolean>;
  /**
   * Linux only in Electron: 'basic_text' | 'gnome_libsecret' | 'kwallet' | 'kwallet5' | 'kwallet6' | 'unknown'. The
   * synchronous API's choice, from the desktop's name; the store does not decide by it (see assertSecureStorage).
   */
  getSelectedStorageBackend?(): string;
  encryptStringAsync(plainText: string): Promise<Buffer>;
  /** `shouldReEncrypt`: the key was rotated (or a stronger one is available): encrypt the value again and store that. */
  decryptStringAsync(encrypted: Buffer): Promise<{ result: string; shouldReEncrypt: boolean }>;
}

export interface EncryptedSecretStoreOptions {
  /** Electron's safeStorage, used only after the app's `ready` event. */
  safeStorage: SafeStorageLike;
  /** The store file, e.g. join(app.getPath('userData'), 'secrets.json'). */
  file: string;
  /** process.platform: on Linux the storage backend must be a real keyring. */
  platform: NodeJS.Platform;
}

/**
 * Linux: the tag of Chromium's fallback key provider (os_crypt_async's PosixKeyProvider), whose key is compiled into every
 * Chromium. The asynchronous API falls back to it whenever no keyring answers ("A fallback provider is used for
 * environments without a secret service available", Electron's safeStorage docs, Asynchronous API), and still reports
 * encryption as available. A keyring's key (FreedesktopSecretKeyProvider: the Secret Service or KWallet) is tagged "v11".
 * (On macOS and Windows "v10" is the Keychain's and DPAPI's own tag.)
 */
const LINUX_BUILT_IN_KEY_TAG = Buffer.from('v10');
const MAX_SECRET_LENGTH = 4096;

const StoreFile = z.strictObject({
  version: z.literal(1),
  /** Name → base64 of the OS-encrypted envelope. Unknown names (from a newer version) are kept as they are. */
  secrets: z.record(z.string(), z.base64()),
});
type StoreFile = z.infer<typeof StoreFile>;

/**
 * What is encrypted: the name with the value, so a decryption that "succeeds" with the wrong key (garbage)
 * or a ciphertext moved to another name is detected instead of returned.
 */
const Envelope = z.strictObject({ name: z.string(), value: z.string().min(1) });

type Loaded = { kind: 'ok'; file: StoreFile } | { kind: 'damaged' };

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}

function emptyFile(): StoreFile {
  return { version: 1, secrets: {} };
}

export function isSecretName(name: unknown): name is SecretName {
  return typeof name === 'string' && (SECRET_NAMES as readonly string[]).includes(name);
}

/**
 * Implements the engine's SecretStore (`read`) plus `write`, `has` and `remove` for provisioning.
 * Refuses to store anything the OS would not really encrypt; a secret that no longer decrypts is an
 * error ('needs_reprovisioning'), never garbage. Writes replace the file atomically.
 */
export class EncryptedSecretStore implements SecretStore {
  private readonly safeStorage: SafeStorageLike;
  private readonly file: string;
  private readonly platform: NodeJS.Platform;
  /** Changes run one after another, so two writes never lose each other's secret. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(options: EncryptedSecretStoreOptions) {
    this.safeStorage = options.safeStorage;
    this.file = options.file;
    this.platform = options.platform;
  }

  /** The secret, or undefined when none has been provisioned. */
  async read(name: SecretName): Promise<string | undefined> {
    checkName(name);
    const loaded = await this.load();
    if (loaded.kind === 'damaged') throw this.damaged();
    const stored = loaded.file.secrets[name];
    if (stored === undefined) return undefined;
    await this.assertSecureStorage();
    this.assertNotBuiltInKey(Buffer.from(stored, 'base64'));
    let decrypted: { result: string; shouldReEncrypt: boolean };
    try {
      decrypted = await this.safeStorage.decryptStringAsync(Buffer.from(stored, 'base64'));
    } catch (error) {
      // Electron 45 says so when the OS key is only temporarily out of reach (a keyring not unlocked yet): nothing is lost.
      if (error instanceof Error && /temporarily unavailable/i.test(error.message)) {
        throw new SecretError('encryption_unavailable', { secret: name, reason: 'keyring_locked' });
      }
      throw undecryptable(name);
    }
    const value = openEnvelope(decrypted.result, name);
    if (value === undefined) throw undecryptable(name);
    // The OS rotated its key: store the secret under the new one (the old ciphertext stays if that fails).
    if (decrypted.shouldReEncrypt) await this.reEncrypt(name, stored, decrypted.result);
    return value;
  }

  /** Encrypts and stores the secret, replacing any earlier one (also one that no longer decrypts). */
  async write(name: SecretName, value: string): Promise<void> {
    checkName(name);
    if (typeof value !== 'string' || value.length === 0)
      throw new SecretError('invalid_value', { secret: name, reason: 'empty' });
    if (value.length > MAX_SECRET_LENGTH) {
      throw new SecretError('invalid_value', { secret: name, reason: 'too_long', maxLength: MAX_SECRET_LENGTH });
    }
    await this.assertSecureStorage();
    const encrypted = await this.encrypt(name, JSON.stringify({ name, value }));
    await this.change((file) => {
      file.secrets[name] = encrypted.toString('base64');
      return true;
    });
  }

  /** Encrypts and checks that the result decrypts back: the OS must really hold the key (on Linux, a keyring's). */
  private async encrypt(name: SecretName, plainText: string): Promise<Buffer> {
    let encrypted: Buffer;
    try {
      encrypted = await this.safeStorage.encryptStringAsync(plainText);
      if ((await this.safeStorage.decryptStringAsync(encrypted)).result !== plainText)
        throw new Error('round trip mismatch');
    } catch {
      throw new SecretError('encryption_failed', { secret: name });
    }
    this.assertNotBuiltInKey(encrypted);
    return encrypted;
  }

  /** Linux: refuses what Chromium encrypted with its built-in key (no keyring answered): anyone with the file could open it. */
  private assertNotBuiltInKey(encrypted: Buffer): void {
    if (this.platform === 'win32' || this.platform === 'darwin') return;
    if (!encrypted.subarray(0, LINUX_BUILT_IN_KEY_TAG.length).equals(LINUX_BUILT_IN_KEY_TAG)) return;
    throw new SecretError('insecure_backend');
  }

  /** Replaces the ciphertext read (`stored`) with a new one, unless the secret changed meanwhile; a failure keeps the old one. */
  private async reEncrypt(name: SecretName, stored: string, plainText: string): Promise<void> {
    try {
      const encrypted = await this.encrypt(name, plainText);
      await this.change((file) => {
        if (file.secrets[name] !== stored) return false;
        file.secrets[name] = encrypted.toString('base64');
        return true;
      });
    } catch {
      // The secret was read; the next read tries again.
    }
  }

  /** Whether a secret of that name is stored (without decrypting it). */
  async has(name: SecretName): Promise<boolean> {
    checkName(name);
    const loaded = await this.load();
    if (loaded.kind === 'damaged') throw this.damaged();
    return loaded.file.secrets[name] !== undefined;
  }

  /** Forgets the secret; true when there was one. */
  async remove(name: SecretName): Promise<boolean> {
    checkName(name);
    return this.change((file) => {
      if (file.secrets[name] === undefined) return false;
      delete file.secrets[name];
      return true;
    });
  }

  /** Runs `apply` on the current file and saves it when it reports a change; a damaged file starts over empty. */
  private change(apply: (file: StoreFile) => boolean): Promise<boolean> {
    const run = async (): Promise<boolean> => {
      const loaded = await this.load();
      const file = loaded.kind === 'ok' ? loaded.file : emptyFile();
      const changed = apply(file) || loaded.kind === 'damaged';
      if (changed) await writeFileAtomic(this.file, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
      return changed;
    };
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => undefined);
    return result;
  }

  private async load(): Promise<Loaded> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      const code = errorCode(error);
      if (code === 'ENOENT') return { kind: 'ok', file: emptyFile() };
      throw new SecretError('store_unreadable', { file: this.file, errno: code ?? 'read error' });
    }
    try {
      const parsed = StoreFile.safeParse(JSON.parse(text));
      return parsed.success ? { kind: 'ok', file: parsed.data } : { kind: 'damaged' };
    } catch {
      return { kind: 'damaged' };
    }
  }

  private damaged(): SecretError {
    return new SecretError('needs_reprovisioning', { file: this.file, reason: 'damaged' });
  }

  /**
   * Throws unless the OS key store is available. On Linux the asynchronous result is trusted and only the insecure
   * fallback is refused, by the tag of what it encrypts (assertNotBuiltInKey): getSelectedStorageBackend() answers
   * "basic_text - When the desktop environment is not recognised" (Electron 45's safeStorage docs), as on sway or i3, yet
   * the asynchronous API's providers ask the keyring whatever the desktop's name: "Secret Service API: Uses the
   * freedesktop.org Secret Service API (e.g., GNOME Keyring) for key storage" (the same docs, Asynchronous API; Chromium's
   * FreedesktopSecretKeyProvider::GetKey: KDE → KWallet, any other desktop → the Secret Service).
   */
  private async assertSecureStorage(): Promise<void> {
    const linux = this.platform !== 'win32' && this.platform !== 'darwin';
    const available = await this.safeStorage.isAsyncEncryptionAvailable().catch(() => false);
    if (!available) {
      throw new SecretError('encryption_unavailable', {
        reason: 'unavailable',
        platform: linux ? 'linux' : this.platform === 'darwin' ? 'darwin' : 'win32',
      });
    }
  }
}

function checkName(name: unknown): asserts name is SecretName {
  if (!isSecretName(name)) throw new SecretError('invalid_value', { reason: 'unknown_name' });
}

function openEnvelope(plainText: string, name: SecretName): string | undefined {
  try {
    const envelope = Envelope.safeParse(JSON.parse(plainText));
    return envelope.success && envelope.data.name === name ? envelope.data.value : undefined;
  } catch {
    return undefined;
  }
}

function undecryptable(name: SecretName): SecretError {
  return new SecretError('needs_reprovisioning', { secret: name, reason: 'undecryptable' });
}
