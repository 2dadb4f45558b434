// Shared set-up for the operators tests: a real operators.db in a temp folder, with a first admin.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OperatorDirectory, OperatorError, type OperatorDirectoryOptions, type OperatorErrorCode } from '../../../main/operators';

export const ADMIN = { id: 'root', displayName: 'Root Admin', password: 'admin password 1' };
export const AGENT = { id: 'ana', displayName: 'Ana López', role: 'agent' as const, password: 'agent password 1' };
export const SUPERVISOR = { id: 'sam', displayName: 'Sam', role: 'supervisor' as const, password: 'super password 1' };

export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'operators-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function openDirectory(dir: string, options?: OperatorDirectoryOptions): OperatorDirectory {
  return new OperatorDirectory(join(dir, 'operators.db'), options);
}

/** A directory with the first admin, an agent and a supervisor. */
export async function seeded(dir: string, options?: OperatorDirectoryOptions): Promise<OperatorDirectory> {
  const directory = openDirectory(dir, options);
  await directory.createFirstAdmin(ADMIN);
  await Promise.all([directory.createOperator(ADMIN.id, AGENT), directory.createOperator(ADMIN.id, SUPERVISOR)]);
  return directory;
}

/** The OperatorError a call throws (sync or async); fails the test when it throws anything else or nothing. */
export async function operatorError(fn: () => unknown): Promise<OperatorError> {
  try {
    await fn();
  } catch (error) {
    if (error instanceof OperatorError) return error;
    throw error;
  }
  throw new Error('expected an OperatorError, but the call succeeded');
}

export async function expectCode(fn: () => unknown, code: OperatorErrorCode): Promise<OperatorError> {
  const error = await operatorError(fn);
  if (error.code !== code) throw new Error(`expected OperatorError ${code}, got ${error.code}: ${error.message}`);
  return error;
}
