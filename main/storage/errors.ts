/** What the storage layer throws: the center's failures in words (StorageError), and the typed conflicts a store reacts to. */
import { UserError } from '../errors';

export type StorageErrorCode =
  /** The center's PostgreSQL cannot be reached, or the connection was lost (down, restarting, network, no free connection). */
  | 'center_unavailable'
  /** The connection's TLS failed: the server's certificate is not trusted or not for that host, or the server has no TLS. */
  | 'center_tls_failed'
  /** The center refused this desk's sign-in (wrong password, unknown user, pg_hba.conf), or no password is stored. */
  | 'center_login_refused'
  /** The center is reachable but not set up for this app: the database is missing, or a store's schema is behind. */
  | 'center_not_ready'
  /** The app's database role lacks a privilege it needs (IT's grants). */
  | 'center_permission_denied'
  /** A store's file or the center's schema was written by a newer version of the app. */
  | 'store_from_newer_app'
  /** A store's migrations failed: nothing of the failed migration was applied. */
  | 'store_migration_failed'
  /** The desk's data folder is held by another (IT's move-in of its records, or another copy of the app on it). */
  | 'data_folder_in_use';

/** Its message says what happened and who acts (the agent waits, IT fixes); it crosses the IPC door as it is. */
export class StorageError extends UserError<StorageErrorCode> {
  override readonly name = 'StorageError';

  constructor(code: StorageErrorCode, message: string, params?: Readonly<Record<string, string | number>>) {
    super(code, message, params === undefined ? {} : { params });
  }
}

/**
 * A row broke a unique constraint (SQLite SQLITE_CONSTRAINT_UNIQUE / _PRIMARYKEY, PostgreSQL 23505). Not a UserError:
 * the store that wrote the row decides what it means ("already approved by …") and throws its own.
 */
export class UniqueViolationError extends Error {
  override readonly name = 'UniqueViolationError';

  /** Backend-specific: SQLite says "table.column", PostgreSQL the constraint's name ("desks_pkey"). */
  constructor(
    readonly constraint: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(`A unique constraint was violated${constraint === undefined ? '' : ` (${constraint})`}.`, options);
  }
}

/**
 * Two transactions collided and this one was rolled back (PostgreSQL serialization failure 40001 or deadlock 40P01;
 * SQLite busy past its timeout). Nothing of it was written; running it again is safe.
 */
export class TransactionConflictError extends Error {
  override readonly name = 'TransactionConflictError';

  constructor(options?: { cause?: unknown }) {
    super('The transaction collided with another one and was rolled back; nothing of it was written.', options);
  }
}

export function isUniqueViolation(error: unknown): error is UniqueViolationError {
  return error instanceof UniqueViolationError;
}

export function isTransactionConflict(error: unknown): error is TransactionConflictError {
  return error instanceof TransactionConflictError;
}

function property(error: unknown, key: string): unknown {
  return typeof error === 'object' && error !== null && key in error
    ? (error as Record<string, unknown>)[key]
    : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** better-sqlite3's SqliteError codes: unique and primary key violations, and a lock held past busy_timeout. */
export function fromSqliteError(error: unknown): unknown {
  const code = text(property(error, 'code'));
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    const message = text(property(error, 'message')) ?? '';
    const constraint = /constraint failed: (.+)$/.exec(message)?.[1];
    return new UniqueViolationError(constraint, { cause: error });
  }
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_SNAPSHOT') return new TransactionConflictError({ cause: error });
  return error;
}

/** Where the center is, for the sentences: never the password. */
export interface CenterTarget {
  host: string;
  port: number;
  database: string;
  user: string;
}

/** Node's socket errors, and the messages pg gives a connection that ended or timed out (they carry no code). */
const UNREACHABLE: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'it refused the connection (is PostgreSQL running and listening on that host and port?)',
  ENOTFOUND: 'its host name could not be resolved',
  EAI_AGAIN: 'its host name could not be resolved (the name server did not answer)',
  ETIMEDOUT: 'it did not answer in time',
  EHOSTUNREACH: 'the network cannot reach that host',
  ENETUNREACH: 'the network cannot reach that host',
  ECONNRESET: 'the connection was cut',
  EPIPE: 'the connection was cut',
  ECONNABORTED: 'the connection was cut',
};
const LOST_CONNECTION =
  /Connection terminated|connection error and is not queryable|Client was closed and is not queryable|terminating connection/i;
const CONNECT_TIMEOUT = /timeout exceeded when trying to connect|connection timeout/i;

/** Node's TLS verification errors (tls.connect), and pg's own when the server speaks no TLS. */
const TLS_CODES = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_SSL_WRONG_VERSION_NUMBER',
  'EPROTO',
]);

const where = (target: CenterTarget): string => `${target.host}:${target.port}`;

/** The refusal, with the driver's error kept as its cause (never shown: the message is in words). */
function caused(error: StorageError, cause: unknown): StorageError {
  error.cause = cause;
  return error;
}

function unavailable(target: CenterTarget, reason: string, cause: unknown): StorageError {
  return caused(
    new StorageError(
      'center_unavailable',
      `The center's database (${where(target)}) cannot be reached: ${reason}. Try again in a moment; if it goes on, tell IT.`,
      { center: where(target) },
    ),
    cause,
  );
}

/**
 * A pg or socket error as the storage layer's own: the center unreachable, TLS refused, the sign-in refused, the database
 * missing or a privilege missing in words (StorageError), a unique violation or a serialization conflict typed; anything
 * else unchanged (a bug in a query is not the center's fault).
 */
export function fromPostgresError(error: unknown, target: CenterTarget): unknown {
  if (
    error instanceof StorageError ||
    error instanceof UniqueViolationError ||
    error instanceof TransactionConflictError
  )
    return error;
  const sqlState = text(property(error, 'code'));
  const message = text(property(error, 'message')) ?? '';
  switch (sqlState) {
    case '23505':
      return new UniqueViolationError(text(property(error, 'constraint')), { cause: error });
    case '40001':
    case '40P01':
      return new TransactionConflictError({ cause: error });
    case '28P01':
    case '28000': {
      return caused(
        new StorageError(
          'center_login_refused',
          `The center's database (${where(target)}) refused this desk's sign-in as "${target.user}": ${message}. ` +
            'IT must check the user in the center setting, the centerPassword secret on this desk (--provision-secret --secret-name=centerPassword) and pg_hba.conf.',
          { center: where(target) },
        ),
        error,
      );
    }
    case '3D000': {
      return caused(
        new StorageError(
          'center_not_ready',
          `The center's database server (${where(target)}) has no database "${target.database}". IT must create it and run docs/center/setup.sql (docs/IT.md).`,
          { center: where(target) },
        ),
        error,
      );
    }
    case '42501': {
      return caused(
        new StorageError(
          'center_permission_denied',
          `The center's database refused this desk a privilege it needs (${message}). IT must run --migrate-center, which grants the app role what it needs, and check the role with --check-center.`,
          { center: where(target) },
        ),
        error,
      );
    }
    case '53300':
      return unavailable(target, 'it has no free connection left (max_connections)', error);
    case '57014':
      return unavailable(target, 'it did not answer in time (the statement was cancelled)', error);
    case '57P01':
    case '57P02':
    case '57P03':
      return unavailable(target, 'it is shutting down or restarting', error);
    default:
      break;
  }
  if (sqlState !== undefined && sqlState.startsWith('08')) return unavailable(target, 'the connection failed', error);
  if (sqlState !== undefined && UNREACHABLE[sqlState] !== undefined)
    return unavailable(target, UNREACHABLE[sqlState], error);
  if (sqlState !== undefined && TLS_CODES.has(sqlState)) {
    const tls = new StorageError(
      'center_tls_failed',
      `The center's database (${where(target)}) could not be reached securely: ${message}. ` +
        "IT must check the center setting's sslmode and sslrootcert (the CA's PEM file) against the server's certificate.",
      { center: where(target) },
    );
    tls.cause = error;
    return tls;
  }
  if (/does not support SSL connections/i.test(message)) {
    const tls = new StorageError(
      'center_tls_failed',
      `The center's database (${where(target)}) does not accept TLS connections, and the center setting asks for TLS. IT must turn on ssl in PostgreSQL.`,
      { center: where(target) },
    );
    tls.cause = error;
    return tls;
  }
  if (CONNECT_TIMEOUT.test(message)) return unavailable(target, 'it did not answer in time', error);
  if (LOST_CONNECTION.test(message)) return unavailable(target, 'the connection was lost', error);
  return error;
}
