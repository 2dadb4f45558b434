/**
 * IT's way to put a secret on a desk: `--provision-secret` reads it from standard input (macOS, Linux), or
 * `--provision-secret=<file>` reads a file, then overwrites and deletes it (every OS; the only form on Windows, where
 * Electron's standard input is always empty), and stores it encrypted. The secret is never accepted on the command line.
 */
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import { SecretError } from './errors';
import { isSecretName, SECRET_NAMES, type SecretName } from './store';

export const PROVISION_FLAG = '--provision-secret';
export const SECRET_NAME_FLAG = '--secret-name';
/** The value that means "standard input", as in many command-line tools; the flag alone means the same. */
export const STDIN_MARKER = '-';

export type ProvisionSource = { kind: 'stdin' } | { kind: 'file'; file: string };

export type ProvisionArgs =
  | { kind: 'none' }
  | { kind: 'provision'; name: SecretName; source: ProvisionSource }
  | { kind: 'invalid'; message: string };

function valueOf(argv: readonly string[], flag: string): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg.startsWith(`${flag}=`)) return arg.slice(flag.length + 1);
    if (arg === flag) {
      const next = argv[i + 1];
      // The flag alone (last, or followed by another flag) reads standard input.
      return next === undefined || next.startsWith('--') ? STDIN_MARKER : next;
    }
  }
  return undefined;
}

/** What IT is told on Windows, where a GUI program such as Electron gets no standard input (it is always at its end). */
export const WINDOWS_STDIN_REFUSED =
  `On Windows the app cannot read a secret from standard input (Electron's standard input is always empty there); nothing was stored. ` +
  `Write the secret on one line to a file only this user can read and pass that file: ${PROVISION_FLAG}=C:\\path\\secret.txt ` +
  '(the app stores it encrypted, then overwrites and deletes the file; see docs/IT.md).';

/**
 * Reads the flags: `--provision-secret` or `--provision-secret=-` (standard input, the recommended way on macOS and
 * Linux), `--provision-secret=<file>`; `--secret-name=<name>` picks the secret (the client secret by default).
 * On Windows standard input is refused (WINDOWS_STDIN_REFUSED) before anything is read.
 */
export function parseProvisionArgs(
  argv: readonly string[],
  platform: NodeJS.Platform = process.platform,
): ProvisionArgs {
  const value = valueOf(argv, PROVISION_FLAG);
  if (value === undefined) return { kind: 'none' };
  if (value === '') {
    return {
      kind: 'invalid',
      message: `${PROVISION_FLAG} reads the secret from standard input (${PROVISION_FLAG} or ${PROVISION_FLAG}=-) or from a file (${PROVISION_FLAG}=C:\\path\\secret.txt).`,
    };
  }
  const name = valueOf(argv, SECRET_NAME_FLAG) ?? 'clientSecret';
  if (!isSecretName(name)) {
    return { kind: 'invalid', message: `${SECRET_NAME_FLAG} must be one of: ${SECRET_NAMES.join(', ')}.` };
  }
  if (value === STDIN_MARKER && platform === 'win32') return { kind: 'invalid', message: WINDOWS_STDIN_REFUSED };
  return {
    kind: 'provision',
    name,
    source: value === STDIN_MARKER ? { kind: 'stdin' } : { kind: 'file', file: value },
  };
}

export interface SecretWriter {
  write(name: SecretName, value: string): Promise<void>;
}

/** The secret as sent: one line, surrounding whitespace (and a byte-order mark) removed; refused when empty or of several lines. */
function oneLine(text: string, where: { file: string } | { source: 'stdin' }): string {
  const value = text.replace(/^\uFEFF/, '').trim();
  if (value === '') throw new SecretError('invalid_value', { ...where, reason: 'no_secret' });
  if (/[\r\n]/.test(value)) throw new SecretError('invalid_value', { ...where, reason: 'several_lines' });
  return value;
}

/**
 * Stores the file's content (one line; surrounding whitespace trimmed) under `name`, then overwrites and
 * deletes the file so the plain text does not stay on the disk. Nothing is deleted when storing fails.
 * Answers a sentence for IT; the secret is never part of it.
 */
export async function provisionSecret(store: SecretWriter, name: SecretName, file: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : 'read error';
    throw new SecretError('invalid_value', { file, reason: 'file_unreadable', errno: code });
  }
  const value = oneLine(text, { file });
  await store.write(name, value);
  const { size } = await stat(file);
  await writeFile(file, Buffer.alloc(size));
  await rm(file);
  return `The ${name} was stored encrypted for this user on this computer, and ${file} was deleted.`;
}

/** What provisioning needs of standard input (process.stdin in the app; a stream in tests). */
export interface SecretInput extends AsyncIterable<Buffer | string> {
  /** True when a person would type the secret at a terminal, where it would be echoed and kept in the scroll-back. */
  readonly isTTY?: boolean;
  destroy?(): void;
}

export interface StdinOptions {
  /** How long to wait for the whole secret before giving up (default 30 s): a console nobody types into must not hang the install. */
  timeoutMs?: number;
  /** The most bytes accepted (default 16 KiB; the store takes secrets of up to 4096 characters). */
  maxBytes?: number;
}

/** Reads standard input to its end; the bytes read are zeroed once decoded. */
async function readAll(input: SecretInput, maxBytes: number, timeoutMs: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      input.destroy?.();
      reject(
        new SecretError('invalid_value', { source: 'stdin', reason: 'timeout', seconds: Math.round(timeoutMs / 1000) }),
      );
    }, timeoutMs);
  });
  const read = async (): Promise<string> => {
    for await (const chunk of input) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      size += bytes.length;
      chunks.push(bytes);
      if (size > maxBytes) throw new SecretError('invalid_value', { source: 'stdin', reason: 'too_large', maxBytes });
    }
    const all = Buffer.concat(chunks);
    const text = all.toString('utf8');
    all.fill(0);
    return text;
  };
  const reading = read();
  // When the time runs out first, the destroyed stream may still end the read with an error: nobody waits for it.
  reading.catch(() => undefined);
  try {
    return await Promise.race([reading, timedOut]);
  } finally {
    clearTimeout(timer);
    for (const chunk of chunks) chunk.fill(0);
  }
}

/**
 * Stores the secret piped into standard input under `name` (one line; surrounding whitespace trimmed).
 * Refused when standard input is a terminal: a typed secret would be echoed on screen. Nothing touches
 * the disk but the encrypted store. Answers a sentence for IT; the secret is never part of it.
 */
export async function provisionSecretFromInput(
  store: SecretWriter,
  name: SecretName,
  input: SecretInput,
  options: StdinOptions = {},
): Promise<string> {
  if (input.isTTY === true) {
    throw new SecretError('invalid_value', { source: 'stdin', reason: 'terminal', secret: name });
  }
  const text = await readAll(input, options.maxBytes ?? 16 * 1024, options.timeoutMs ?? 30_000);
  const value = oneLine(text, { source: 'stdin' });
  await store.write(name, value);
  return `The ${name} was stored encrypted for this user on this computer.`;
}
