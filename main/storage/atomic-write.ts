/** Atomic file replacement: write a temp file beside the target, fsync it, rename it over the target. */
import { randomUUID } from 'node:crypto';
import { mkdir, open, rename, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export interface AtomicWriteOptions {
  /** File mode of a newly created file (POSIX only; Windows ignores it). Default 0o600. */
  mode?: number;
}

/** Windows can refuse a rename for a moment while an antivirus or indexer holds the target open. */
const RENAME_RETRIES = 5;
const RENAME_RETRY_MS = 50;
const TRANSIENT_RENAME_CODES = new Set(['EPERM', 'EACCES', 'EBUSY']);

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}

async function renameWithRetry(from: string, to: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await rename(from, to);
      return;
    } catch (error) {
      const code = errorCode(error);
      if (
        process.platform !== 'win32' ||
        attempt >= RENAME_RETRIES ||
        code === undefined ||
        !TRANSIENT_RENAME_CODES.has(code)
      )
        throw error;
      await new Promise((resolve) => setTimeout(resolve, RENAME_RETRY_MS * attempt));
    }
  }
}

/** Makes the rename itself durable (POSIX); Windows cannot open a directory for fsync. */
async function syncDirectory(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  let handle: FileHandle | undefined;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // Best effort: some file systems refuse fsync on a directory; the data itself is already synced.
  } finally {
    await handle?.close();
  }
}

/**
 * Replaces `file` with `data` so that a reader (or a crash) sees either the old content or the new one,
 * never a half-written file. The folder is created when missing; on failure the temp file is removed.
 */
export async function writeFileAtomic(
  file: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const dir = dirname(file);
  await mkdir(dir, { recursive: true });
  const temp = join(dir, `.${basename(file)}.${randomUUID()}.tmp`);
  let handle: FileHandle | undefined;
  try {
    handle = await open(temp, 'wx', options.mode ?? 0o600);
    await handle.writeFile(data);
    await handle.sync();
    await handle.close();
    handle = undefined;
    await renameWithRetry(temp, file);
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await rm(temp, { force: true });
    throw error;
  }
  await syncDirectory(dir);
}
