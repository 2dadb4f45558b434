// IT's provisioning path: flags parsed, the secret stored through the real encrypted store (fake OS encryption), from standard input or a file that is then gone.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EncryptedSecretStore, type SafeStorageLike } from '../../../main/secrets';
import {
  parseProvisionArgs,
  provisionSecret,
  provisionSecretFromInput,
  WINDOWS_STDIN_REFUSED,
} from '../../../main/secrets/provision';

const SECRET = 'cs_live_provisioned_0123456789';

/** Stands in for Electron's safeStorage (cannot run here; Electron 45's asynchronous API): reversible, but not plain text. */
const fakeSafeStorage: SafeStorageLike = {
  isAsyncEncryptionAvailable: () => Promise.resolve(true),
  getSelectedStorageBackend: () => 'gnome_libsecret',
  encryptStringAsync: (text) => Promise.resolve(Buffer.from(text, 'utf8').reverse()),
  decryptStringAsync: (data) =>
    Promise.resolve({ result: Buffer.from(data).reverse().toString('utf8'), shouldReEncrypt: false }),
};

/**
 * Linux with no keyring answering: Chromium's fallback key provider, whose key is built into every copy, tags what it
 * encrypts "v10" (os_crypt_async's PosixKeyProvider); the backend the synchronous API names does not tell.
 */
const builtInKeyFallback: SafeStorageLike = {
  ...fakeSafeStorage,
  getSelectedStorageBackend: () => 'basic_text',
  encryptStringAsync: (text) =>
    Promise.resolve(Buffer.concat([Buffer.from('v10'), Buffer.from(text, 'utf8').reverse()])),
  decryptStringAsync: (data) =>
    Promise.resolve({ result: Buffer.from(data.subarray(3)).reverse().toString('utf8'), shouldReEncrypt: false }),
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
    expect(parseProvisionArgs(['app', '--provision-secret=/tmp/s.txt'])).toEqual({
      kind: 'provision',
      name: 'clientSecret',
      source: { kind: 'file', file: '/tmp/s.txt' },
    });
    expect(parseProvisionArgs(['app', '--provision-secret', '/tmp/s.txt', '--secret-name=clientSecret'])).toEqual({
      kind: 'provision',
      name: 'clientSecret',
      source: { kind: 'file', file: '/tmp/s.txt' },
    });
    expect(parseProvisionArgs(['app', '--user-data-dir=/x'])).toEqual({ kind: 'none' });
  });

  it('reads standard input for the flag alone, followed by another flag, or given "-"', () => {
    const stdin = { kind: 'provision', name: 'clientSecret', source: { kind: 'stdin' } };
    expect(parseProvisionArgs(['app', '--provision-secret'])).toEqual(stdin);
    expect(parseProvisionArgs(['app', '--provision-secret=-'])).toEqual(stdin);
    expect(parseProvisionArgs(['app', '--provision-secret', '-'])).toEqual(stdin);
    expect(parseProvisionArgs(['app', '--provision-secret', '--secret-name', 'smtpPassword'])).toEqual({
      ...stdin,
      name: 'smtpPassword',
    });
    // The center's database password: a secret like the others, never a setting.
    expect(parseProvisionArgs(['app', '--provision-secret', '--secret-name=centerPassword'])).toEqual({
      ...stdin,
      name: 'centerPassword',
    });
    for (const platform of ['darwin', 'linux'] as const)
      expect(parseProvisionArgs(['app', '--provision-secret'], platform)).toEqual(stdin);
  });

  it('on Windows, refuses standard input (always empty for Electron there) before reading anything, pointing to the file form', () => {
    for (const argv of [
      ['app', '--provision-secret'],
      ['app', '--provision-secret=-'],
      ['app', '--provision-secret', '-', '--secret-name=smtpPassword'],
    ]) {
      const refused = parseProvisionArgs(argv, 'win32');
      expect(refused).toEqual({ kind: 'invalid', message: WINDOWS_STDIN_REFUSED });
    }
    expect(WINDOWS_STDIN_REFUSED).toMatch(/standard input .* nothing was stored/);
    expect(WINDOWS_STDIN_REFUSED).toContain('--provision-secret=C:\\path\\secret.txt');
    expect(WINDOWS_STDIN_REFUSED).toContain('docs/IT.md');
    // The file form is what works there.
    expect(parseProvisionArgs(['app', '--provision-secret=C:\\Users\\agent\\secret.txt'], 'win32')).toEqual({
      kind: 'provision',
      name: 'clientSecret',
      source: { kind: 'file', file: 'C:\\Users\\agent\\secret.txt' },
    });
  });

  it('refuses an empty value and an unknown secret name with a sentence for IT', () => {
    const empty = parseProvisionArgs(['app', '--provision-secret=']);
    expect(empty.kind === 'invalid' && empty.message).toMatch(/standard input .* or from a file/);
    const unknown = parseProvisionArgs(['app', '--provision-secret=/s', '--secret-name=rootPassword']);
    expect(unknown.kind === 'invalid' && unknown.message).toMatch(/clientSecret/);
  });
});

describe('provisionSecret', () => {
  it('stores the trimmed secret encrypted, then deletes the plain-text file', async () => {
    const store = new EncryptedSecretStore({
      safeStorage: fakeSafeStorage,
      file: join(dir, 'secrets.json'),
      platform: 'linux',
    });
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
      safeStorage: builtInKeyFallback,
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
    const store = new EncryptedSecretStore({
      safeStorage: fakeSafeStorage,
      file: join(dir, 'secrets.json'),
      platform: 'linux',
    });
    await expect(provisionSecret(store, 'clientSecret', join(dir, 'missing.txt'))).rejects.toMatchObject({
      code: 'invalid_value',
      params: { file: join(dir, 'missing.txt'), reason: 'file_unreadable', errno: 'ENOENT' },
    });
    const file = join(dir, 'two.txt');
    writeFileSync(file, `${SECRET}\nsecond-line`);
    const error = await provisionSecret(store, 'clientSecret', file).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'invalid_value', params: { file, reason: 'several_lines' } });
    expect(String(error)).not.toContain(SECRET);
    expect(existsSync(file)).toBe(true);
    expect(await store.has('clientSecret')).toBe(false);
  });
});

describe('provisionSecretFromInput (standard input)', () => {
  const store = (): EncryptedSecretStore =>
    new EncryptedSecretStore({ safeStorage: fakeSafeStorage, file: join(dir, 'secrets.json'), platform: 'linux' });

  it('stores the piped secret encrypted; nothing else is written to the folder', async () => {
    const secrets = store();
    // A real stream, in several chunks, with the newline `echo` adds.
    const message = await provisionSecretFromInput(
      secrets,
      'clientSecret',
      Readable.from([Buffer.from('cs_live_provi'), Buffer.from(`sioned_0123456789\n`)]),
    );
    expect(message).toBe('The clientSecret was stored encrypted for this user on this computer.');
    expect(await secrets.read('clientSecret')).toBe(SECRET);
    expect(readdirSync(dir)).toEqual(['secrets.json']);
    expect(readFileSync(join(dir, 'secrets.json'), 'utf8')).not.toContain(SECRET);
  });

  it('another secret by name, with a Windows line ending and a byte-order mark (PowerShell pipes)', async () => {
    const secrets = store();
    await provisionSecretFromInput(secrets, 'smtpPassword', Readable.from([`\uFEFFsmtp-pass-1\r\n`]));
    expect(await secrets.read('smtpPassword')).toBe('smtp-pass-1');
    expect(await secrets.has('clientSecret')).toBe(false);
  });

  it('refuses a terminal (the secret would be echoed), an empty input, several lines and an oversized input, storing nothing', async () => {
    const secrets = store();
    const terminal = Object.assign(Readable.from([SECRET]), { isTTY: true });
    await expect(provisionSecretFromInput(secrets, 'clientSecret', terminal)).rejects.toMatchObject({
      code: 'invalid_value',
      params: { source: 'stdin', reason: 'terminal', secret: 'clientSecret' },
    });
    await expect(provisionSecretFromInput(secrets, 'clientSecret', Readable.from([' \n']))).rejects.toMatchObject({
      code: 'invalid_value',
      params: { source: 'stdin', reason: 'no_secret' },
    });
    const twoLines = await provisionSecretFromInput(
      secrets,
      'clientSecret',
      Readable.from([`${SECRET}\nsecond-line`]),
    ).catch((e: unknown) => e);
    expect(twoLines).toMatchObject({ code: 'invalid_value', params: { source: 'stdin', reason: 'several_lines' } });
    expect(String(twoLines)).not.toContain(SECRET);
    await expect(
      provisionSecretFromInput(secrets, 'clientSecret', Readable.from(['x'.repeat(40)]), { maxBytes: 32 }),
    ).rejects.toMatchObject({ code: 'invalid_value', params: { source: 'stdin', reason: 'too_large', maxBytes: 32 } });
    expect(existsSync(join(dir, 'secrets.json'))).toBe(false);
  });

  it('gives up, storing nothing, when standard input never ends', async () => {
    const secrets = store();
    const open = new PassThrough();
    open.write('cs_live_partial');
    await expect(provisionSecretFromInput(secrets, 'clientSecret', open, { timeoutMs: 50 })).rejects.toMatchObject({
      code: 'invalid_value',
      params: { source: 'stdin', reason: 'timeout', seconds: 0 },
    });
    expect(open.destroyed).toBe(true);
    expect(existsSync(join(dir, 'secrets.json'))).toBe(false);
  });

  it('stores nothing when the OS would keep the secret in plain text', async () => {
    const secrets = new EncryptedSecretStore({
      safeStorage: builtInKeyFallback,
      file: join(dir, 'secrets.json'),
      platform: 'linux',
    });
    await expect(provisionSecretFromInput(secrets, 'clientSecret', Readable.from([SECRET]))).rejects.toMatchObject({
      code: 'insecure_backend',
    });
    expect(existsSync(join(dir, 'secrets.json'))).toBe(false);
  });
});
