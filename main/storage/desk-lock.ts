/**
 * The data folder's `desk.lock`: a running desk holds an exclusive SQLite lock on it for as long as its stack is open, so
 * that IT's move-in (another process, or the same one) can see the desk is running. The operating system drops the lock
 * when the process ends, however it ends: a desk that crashed never leaves a stale lock behind.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { StorageError } from './errors';
import { sqliteNativeBinding } from './sqlite';

export const DESK_LOCK_FILE = 'desk.lock';

export interface DeskLock {
  /** Drops the lock (idempotent). */
  release(): void;
}

const isBusy = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
};

/**
 * Takes the folder's lock without waiting: the lock, or undefined when another holder has it (another desk, or a move in
 * progress). The file holds no data; it is a rollback-journal database (not WAL) so that an open EXCLUSIVE transaction
 * locks the file itself, which other processes' SQLite sees.
 */
export function tryDeskLock(dataDir: string): DeskLock | undefined {
  mkdirSync(dataDir, { recursive: true });
  const binding = sqliteNativeBinding();
  const db = new Database(join(dataDir, DESK_LOCK_FILE), {
    timeout: 0,
    ...(binding === undefined ? {} : { nativeBinding: binding }),
  });
  try {
    db.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    db.close();
    if (isBusy(error)) return undefined;
    throw error;
  }
  let held = true;
  return {
    release() {
      if (!held) return;
      held = false;
      db.close();
    },
  };
}

/**
 * For a desk starting on its folder: the lock, held for as long as it runs. Another holder (IT's move-in of the folder,
 * another copy of the app on it) refuses the start in words, before anything is opened. A folder where the lock cannot be
 * made does not (said to `onError`, answered undefined): the lock only guards the move.
 */
export function holdDeskFolder(dataDir: string, onError?: (error: unknown) => void): DeskLock | undefined {
  let lock: DeskLock | undefined;
  try {
    lock = tryDeskLock(dataDir);
  } catch (error) {
    onError?.(error);
    return undefined;
  }
  if (lock === undefined) {
    throw new StorageError(
      'data_folder_in_use',
      `This desk's data folder (${dataDir}) is in use: IT is moving its records into the center, or the app is already running on it. Start the desk again once the move is done.`,
    );
  }
  return lock;
}
