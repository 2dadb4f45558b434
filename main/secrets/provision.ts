/** IT's way to put a secret on a desk: `--provision-secret=<file>` reads it once, stores it encrypted and deletes the file. */
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import { SecretError } from './errors';
import { isSecretName, SECRET_NAMES, type SecretName } from './store';

export const PROVISION_FLAG = '--provision-secret';
export const SECRET_NAME_FLAG = '--secret-name';

export type ProvisionArgs = { kind: 'none' } | { kind: 'provision'; name: SecretName; file: string } | { kind: 'invalid'; message: string };

function valueOf(argv: readonly string[], flag: string): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg.startsWith(`${flag}=`)) return arg.slice(flag.length + 1);
    if (arg === flag) return argv[i + 1] ?? '';
  }
  return undefined;
}

/** Reads the flags from the command line; a secret given on the command line itself is never accepted, only a file. */
export function parseProvisionArgs(argv: readonly string[]): ProvisionArgs {
  const file = valueOf(argv, PROVISION_FLAG);
  if (file === undefined) return { kind: 'none' };
  if (file === '' || file.startsWith('--')) {
    return { kind: 'invalid', message: `${PROVISION_FLAG} needs the path of a file that holds the secret: ${PROVISION_FLAG}=C:\\path\\secret.txt` };
  }
  const name = valueOf(argv, SECRET_NAME_FLAG) ?? 'clientSecret';
  if (!isSecretName(name)) {
    return { kind: 'invalid', message: `${SECRET_NAME_FLAG} must be one of: ${SECRET_NAMES.join(', ')}.` };
  }
  return { kind: 'provision', name, file };
}

export interface SecretWriter {
  write(name: SecretName, value: string): Promise<void>;
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
    throw new SecretError('invalid_value', `The file ${file} cannot be read (${code}); nothing was stored.`);
  }
  const value = text.trim();
  if (value.includes('\n')) throw new SecretError('invalid_value', `The file ${file} must hold the secret on one line; nothing was stored.`);
  await store.write(name, value);
  const { size } = await stat(file);
  await writeFile(file, Buffer.alloc(size));
  await rm(file);
  return `The ${name} was stored encrypted for this user on this computer, and ${file} was deleted.`;
}
