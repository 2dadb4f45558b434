/** The app's logger: pino, written to size-rotated files by pino-roll, every call scrubbed by redact. */
import path from 'node:path';
import pino, { type Level, type Logger } from 'pino';
import pinoRoll from 'pino-roll';
import { REDACT_PATHS, REDACTED, redact, redactLine, redactLogArguments, redactRecord } from './redact';

export interface LoggerOptions {
  /** A folder for the logs only (e.g. join(app.getPath('logs'))): rotation numbers files it finds there. */
  dir: string;
  /** Default 'info'. */
  level?: Level | 'silent';
  /** File base name: app → app.1.log, app.2.log… Default 'app'. */
  name?: string;
  /** Rotate at this size: '5m' (default), '500k', or a number of MB. */
  maxFileSize?: string | number;
  /** Files kept in the folder, the current one included (default 10); older ones are deleted. */
  maxFiles?: number;
}

export interface AppLogger {
  readonly logger: Logger;
  /** Writes out what is buffered. */
  flush(): Promise<void>;
  /** Flushes and closes the file (at quit); the logger must not be used afterwards. */
  close(): Promise<void>;
}

/**
 * The logger a capability asks for, with the levels it logs at: the app's pino logger fits. What a capability passes
 * it is that capability's rule (ids, codes, counts), never a card, a secret or a token.
 */
export type LevelLogger<L extends 'info' | 'warn' | 'error'> = {
  [Level in L]: (fields: object, message?: string) => void;
};

export const DEFAULT_MAX_FILE_SIZE = '5m';
export const DEFAULT_MAX_FILES = 10;

/**
 * A pino logger writing JSON lines to `<dir>/<name>.<n>.log`, rotated by size, keeping `maxFiles` files.
 * Every log call goes through redactLogArguments (any depth, messages, error messages and stacks), and every
 * finished line through redactLine (child bindings included); pino's own redact paths cover the usual shapes too.
 * Runs in this thread (no worker): nothing to resolve inside a packaged app, and nothing lost to a worker at exit once close() is awaited.
 */
export async function createLogger(options: LoggerOptions): Promise<AppLogger> {
  const maxFiles = options.maxFiles ?? DEFAULT_MAX_FILES;
  if (!Number.isInteger(maxFiles) || maxFiles < 2) throw new Error('maxFiles must be a whole number of at least 2');
  const stream = await pinoRoll({
    file: path.join(options.dir, options.name ?? 'app'),
    extension: '.log',
    size: options.maxFileSize ?? DEFAULT_MAX_FILE_SIZE,
    // removeOtherLogFiles: files from earlier runs count (and are deleted) too. pino-roll lists the folder
    // while the new file may not exist yet, so it keeps `count` or `count + 1` files: count = maxFiles - 1.
    limit: { count: maxFiles - 1, removeOtherLogFiles: true },
    mkdir: true,
    // Lines are still written at once (every line is longer than 1 byte); with the default 0, SonicBoom's
    // flush() returns without waiting for writes in flight, so flush() and close() could not be trusted.
    minLength: 1,
  });
  // A failing disk must not take the app down; report once on stderr, without any log content.
  let reported = false;
  stream.on('error', (error: unknown) => {
    if (reported) return;
    reported = true;
    const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : 'unknown';
    process.stderr.write(`card-payments-desk: cannot write the log file in ${options.dir} (${code})\n`);
  });

  const logger = pino(
    {
      level: options.level ?? 'info',
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: [...REDACT_PATHS], censor: REDACTED },
      // logMethod has already serialized errors; pino's own serializer would take the result for a new error.
      serializers: { err: (value: unknown) => (value instanceof Error ? redact(value) : value) },
      formatters: {
        bindings: (bindings) => redactRecord(bindings),
      },
      hooks: {
        // Before pino sees the call: errors anywhere in the object serialized and scrubbed, bytes never dumped.
        logMethod(args, method) {
          Reflect.apply(method, this, redactLogArguments(args));
        },
        // After: the finished line once more, for what bypasses logMethod (a child's bindings, a message prefix).
        streamWrite: redactLine,
      },
    },
    stream,
  );

  const flush = (): Promise<void> =>
    new Promise((resolve, reject) => {
      stream.flush((error) => {
        if (error) reject(error);
        else resolve();
      });
    });

  return {
    logger,
    flush,
    close: async () => {
      if (stream.destroyed) return;
      await flush();
      await new Promise<void>((resolve) => {
        stream.once('close', () => resolve());
        stream.end();
      });
    },
  };
}
