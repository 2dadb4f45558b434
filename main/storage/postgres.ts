/**
 * The center backend: every desk's stores on one shared PostgreSQL, through one pg Pool per desk (TLS as IT set it, the
 * password from the secret store), each store in its own schema. The app's role only reads and writes; the schema owner
 * migrates (--migrate-center).
 */
import { Kysely, type PostgresPool, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import { ensureCenterIdentity } from './center-identity';
import { CenterPostgresDialect } from './driver';
import { fromPostgresError, StorageError, type CenterTarget } from './errors';
import { centerSchemaState, migrateCenterStore, readCenterRoles, type CenterMigrationReport } from './migrations';
import { ChangeListener, type ChangeListenerOptions } from './changes';
import { checkDefinition, runTransaction, type Storage, type StoreDatabase, type StoreDefinition } from './store';

export type CenterTlsMode = 'disable' | 'require' | 'verify-full';

/** How to reach the center: from the `center` setting (main/center) or a test's database. */
export interface CenterConnectionOptions extends CenterTarget {
  /** Asked for each new connection (the secret store in the app); undefined: none is stored (refused in words). */
  password: () => Promise<string | undefined>;
  tls: { mode: CenterTlsMode; caCertificatePem?: string | undefined };
  /**
   * The pool's size (default 1: a desk runs one statement at a time on the center; with the LISTEN connection, at most 2
   * per desk: docs/IT.md sizes max_connections from it).
   */
  maxConnections?: number | undefined;
  /** Waiting for a connection (opening one, or a free one of the pool); default 5 s. */
  connectTimeoutMs?: number | undefined;
  /** Longest a statement may run on the server before it is cancelled; default 30 s. */
  statementTimeoutMs?: number | undefined;
  /** Shown in pg_stat_activity: which desk holds a connection ("card-payments-desk 3f1c…"). */
  applicationName?: string | undefined;
  /**
   * Where the LISTEN connection goes when it is not `host`/`port` (those are a pooler in transaction mode, which cannot
   * keep a LISTEN): the PostgreSQL server itself.
   */
  listen?: { host: string; port: number } | undefined;
  /** An idle pooled connection failed (the server restarted…): already mapped; the pool drops that connection. */
  onIdleError?: ((error: unknown) => void) | undefined;
}

export const DEFAULT_MAX_CONNECTIONS = 1;
export const DEFAULT_CONNECT_TIMEOUT_MS = 5000;
export const DEFAULT_STATEMENT_TIMEOUT_MS = 30_000;
/** An idle desk closes its connections after this long (hundreds of desks share max_connections). */
const IDLE_TIMEOUT_MS = 30_000;

const where = (target: CenterTarget): string => `${target.host}:${target.port}`;

/** int8 (counts, sums of cents) as a number, exact or refused; timestamptz as an ISO string, as the SQLite files hold it. */
const INT8_OID = 20;
const TIMESTAMPTZ_OID = 1184;
const typeParsers: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (format === undefined || format === 'text') {
      if (oid === INT8_OID) {
        return (value: string) => {
          const number = Number(value);
          if (!Number.isSafeInteger(number))
            throw new RangeError(`A bigint from the center (${value}) is larger than the app can count exactly.`);
          return number;
        };
      }
      if (oid === TIMESTAMPTZ_OID) {
        const parseDate = pg.types.getTypeParser(TIMESTAMPTZ_OID, 'text') as (value: string) => Date;
        return (value: string) => parseDate(value).toISOString();
      }
    }
    return pg.types.getTypeParser(oid, format ?? 'text') as (value: string) => unknown;
  }) as pg.CustomTypesConfig['getTypeParser'],
};

function sslOptions(tls: CenterConnectionOptions['tls']): pg.PoolConfig['ssl'] {
  switch (tls.mode) {
    case 'disable':
      return false;
    // Encrypted, the server's certificate not checked (libpq's sslmode=require): IT's choice on a trusted network.
    case 'require':
      return { rejectUnauthorized: false };
    // The certificate must chain to the given CA (or Node's public CAs) and name the host (libpq's verify-full).
    case 'verify-full':
      return { rejectUnauthorized: true, ...(tls.caCertificatePem === undefined ? {} : { ca: tls.caCertificatePem }) };
  }
}

/**
 * pg leaves the socket of a connection that failed during sign-in open (no password stored: the server's backend waits
 * for one until authentication_timeout, holding the database). This client closes it when its connect fails.
 */
class CenterClient extends pg.Client {
  override connect(): Promise<pg.Client>;
  override connect(callback: ((err: Error) => void) | ((err: null, c: pg.Client) => void)): void;
  override connect(callback?: ((err: Error) => void) | ((err: null, c: pg.Client) => void)): Promise<pg.Client> | void {
    const connecting = super.connect().then(
      () => this,
      (error: unknown) => {
        this.end().catch(() => undefined);
        throw error;
      },
    );
    if (callback === undefined) return connecting;
    connecting.then(
      (client) => (callback as (err: null, c: pg.Client) => void)(null, client),
      (error: unknown) => (callback as (err: Error) => void)(error as Error),
    );
  }
}

/** How each connection to the center is made (the pool's, and the LISTEN connection's). */
function clientConfig(options: CenterConnectionOptions): pg.ClientConfig {
  const target: CenterTarget = {
    host: options.host,
    port: options.port,
    database: options.database,
    user: options.user,
  };
  return {
    host: options.host,
    port: options.port,
    database: options.database,
    user: options.user,
    password: async () => {
      const password = await options.password();
      if (password === undefined || password === '') {
        throw new StorageError(
          'center_login_refused',
          `No password for the center's database is stored on this computer for this user. IT must provision it: --provision-secret --secret-name=centerPassword (docs/IT.md).`,
          { center: where(target) },
        );
      }
      return password;
    },
    ssl: sslOptions(options.tls),
    connectionTimeoutMillis: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    statement_timeout: options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS,
    application_name: options.applicationName ?? 'card-payments-desk',
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    types: typeParsers,
  };
}

/** A pg Pool for the center; its errors (also an idle connection's) never go unhandled. */
export function centerPool(options: CenterConnectionOptions): pg.Pool {
  const target: CenterTarget = {
    host: options.host,
    port: options.port,
    database: options.database,
    user: options.user,
  };
  const pool = new pg.Pool({
    ...clientConfig(options),
    Client: CenterClient,
    max: options.maxConnections ?? DEFAULT_MAX_CONNECTIONS,
    idleTimeoutMillis: IDLE_TIMEOUT_MS,
  });
  const report = (error: unknown): void => options.onIdleError?.(fromPostgresError(error, target));
  pool.on('error', report);
  // A connection lost while checked out between two statements (pg-pool listens only while it is idle): said, never an
  // uncaught 'error' event; the next statement on it fails as center_unavailable and the pool drops it.
  pool.on('connect', (client) => client.on('error', report));
  return pool;
}

/** The suffix of application_name that names a desk's LISTEN connection in pg_stat_activity. */
export const LISTEN_APPLICATION_SUFFIX = ' (listen)';
/** The LISTEN connection's heartbeat, or any statement on it, waits no longer than this for its answer. */
const LISTEN_QUERY_TIMEOUT_MS = 10_000;

/**
 * The desk's one LISTEN connection (main/storage/changes.ts): made like the pool's, outside the pool (a pooled connection
 * would stop listening when given back), named "<application name> (listen)".
 */
export function centerChangeListener(
  options: CenterConnectionOptions,
  listen: Omit<ChangeListenerOptions, 'connect'>,
): ChangeListener {
  const config = clientConfig(options);
  return new ChangeListener({
    ...listen,
    connect: async () => {
      const client = new CenterClient({
        ...config,
        ...(options.listen === undefined ? {} : { host: options.listen.host, port: options.listen.port }),
        application_name: `${options.applicationName ?? 'card-payments-desk'}${LISTEN_APPLICATION_SUFFIX}`,
        query_timeout: LISTEN_QUERY_TIMEOUT_MS,
      });
      // Until the listener takes it over: a failure while connecting is the connect's rejection, never an uncaught event.
      client.on('error', () => undefined);
      await client.connect();
      return client;
    },
  });
}

/**
 * Whether an error leaves its connection unusable: anything but the server's own answer to a statement (a socket closed,
 * a timeout), or an answer that ends the session (FATAL, PANIC; admin shutdown, crash, connection exceptions).
 */
function endsConnection(error: unknown): boolean {
  if (!(error instanceof pg.DatabaseError)) return true;
  return error.severity === 'FATAL' || error.severity === 'PANIC' || /^(57P|08)/.test(error.code ?? '');
}

/**
 * Lends the pool's connections to Kysely. A connection whose statement failed in a way that ends it is destroyed when
 * Kysely gives it back: the server's error answer comes before the socket's close, and given back as it was, it would
 * wait in the pool for the next statement, which would then fail too.
 */
async function lend(pool: pg.Pool): Promise<PostgresPoolClient> {
  const client = await pool.connect();
  let broken = false;
  const query = ((...args: unknown[]) => {
    const answer = (client.query as (...a: unknown[]) => unknown)(...args);
    // A cursor (streamed rows) comes back as it is; a statement's promise is watched for an error that ends the connection.
    if (!(answer instanceof Promise)) return answer;
    return answer.catch((error: unknown) => {
      if (endsConnection(error)) broken = true;
      throw error;
    });
  }) as PostgresPoolClient['query'];
  return { query, release: () => client.release(broken || undefined) };
}

/** One Kysely per store over the shared pool: destroying it must not end the pool the other stores use. */
function sharedPool(pool: pg.Pool): PostgresPool {
  return { connect: () => lend(pool), end: () => Promise.resolve(), options: pool.options };
}

/** A Kysely over a pool of the center (its errors mapped); destroying it leaves the pool open. */
export function centerKysely(pool: pg.Pool, target: CenterTarget): Kysely<unknown> {
  return new Kysely<unknown>({ dialect: new CenterPostgresDialect({ pool: sharedPool(pool) }, target) });
}

/** The center as the desk uses it (the app's role): stores opened at their schema, never migrated here. */
export function centerStorage(options: CenterConnectionOptions): Storage & { pool: pg.Pool } {
  const target: CenterTarget = {
    host: options.host,
    port: options.port,
    database: options.database,
    user: options.user,
  };
  const pool = centerPool(options);
  let ended: Promise<void> | undefined;
  return {
    backend: 'postgres',
    description: `the center at ${where(target)}/${target.database}`,
    pool,
    async open<DB>(definition: StoreDefinition): Promise<StoreDatabase<DB>> {
      checkDefinition(definition);
      const base = centerKysely(pool, target);
      const state = await centerSchemaState(base, definition);
      if (state.missing.length > 0) {
        throw new StorageError(
          'center_not_ready',
          `The center's database (${where(target)}/${target.database}) is not ready for this version of the app: its ${definition.label} is at schema ${state.applied} ` +
            `and this app needs ${state.known}. IT must run --migrate-center (docs/IT.md).`,
          { center: where(target) },
        );
      }
      const db = base.withSchema(definition.name) as unknown as Kysely<DB>;
      return {
        backend: 'postgres',
        definition,
        db,
        schemaVersion: state.applied,
        transaction: (fn, transactionOptions) => runTransaction(db, 'postgres', fn, transactionOptions),
        close: () => Promise.resolve(),
      };
    },
    listen: (listen) => centerChangeListener(options, listen),
    close: () => (ended ??= pool.end()),
  };
}

/**
 * --migrate-center: as the schema owner, the center's identity of sessions made (center-identity.ts), every store's
 * schema brought up to this app's migrations and the app role's grants set (center.roles, written by docs/center/setup.sql, names the roles). One store after the other; a failed
 * store stops the run (what it did is rolled back; the stores before it stay migrated).
 */
export async function migrateCenter(
  options: CenterConnectionOptions,
  definitions: readonly StoreDefinition[],
): Promise<CenterMigrationReport[]> {
  const target: CenterTarget = {
    host: options.host,
    port: options.port,
    database: options.database,
    user: options.user,
  };
  for (const definition of definitions) checkDefinition(definition);
  const pool = centerPool({ ...options, maxConnections: 1 });
  const db = centerKysely(pool, target);
  try {
    const roles = await readCenterRoles(db, `${where(target)}/${target.database}`);
    await ensureCenterIdentity(db, roles);
    const reports: CenterMigrationReport[] = [];
    for (const definition of definitions)
      reports.push(await migrateCenterStore(db, definition, roles, `${where(target)}/${target.database}`));
    return reports;
  } finally {
    await pool.end();
  }
}
