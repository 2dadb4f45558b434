// A real PostgreSQL server for the tests, the e2e suite and the benches: Debian's server binaries, a throwaway cluster in
// a temporary folder, a free port on 127.0.0.1, passwords checked (scram-sha-256) and TLS on with a CA of its own.
// initdb refuses to run as root: as root (CI) the server runs as the `postgres` user. No mock database anywhere.
// Framework-free: Vitest's globalSetup (test/support/postgres.global.ts), Playwright and a bench script all start it here.
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { appendFile, chmod, chown, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

/** What a test process needs to reach the server (plain data: Vitest's `provide` and environment variables carry it). */
export interface PostgresInfo {
  host: string;
  port: number;
  /** The cluster's superuser (`postgres`) and its password. */
  user: string;
  password: string;
  /** postgres://postgres:…@127.0.0.1:<port>/postgres */
  url: string;
  /** "15.14" */
  version: string;
  /** The folder of initdb, pg_ctl, postgres and psql. */
  bin: string;
  /** The CA that signed the server's certificate (PEM), for tls "verify-full". */
  caCertificatePem: string;
}

export interface PostgresServer extends PostgresInfo {
  /** The cluster's folder (data, log, socket, certificates). */
  dir: string;
  /** Stops the server and starts it again on the same port and data (a center restarting under the desks). */
  restart(): Promise<void>;
  /** Stops it without a restart, e.g. to see a desk refused while the center is down; start() brings it back. */
  stopServer(): Promise<void>;
  startServer(): Promise<void>;
  /** Stops the server and removes its folder. */
  stop(): Promise<void>;
}

export interface StartPostgresOptions {
  /** max_connections (default 200: the center bench runs a hundred desks of two connections). */
  maxConnections?: number;
  /**
   * Stop and remove the server when this process exits without stop() (default true). False when another process owns
   * its lifetime (Vitest's globalSetup stops the server a worker started: stopPostgresAt).
   */
  stopOnProcessExit?: boolean;
}

/** The environment variable a parent process (Playwright's globalSetup, a bench) hands the server to its workers in. */
export const POSTGRES_ENV = 'CPD_TEST_POSTGRES';

const SUPERUSER = 'postgres';
const SERVER_FILES = ['initdb', 'pg_ctl', 'postgres'];

function hasServer(dir: string): boolean {
  return SERVER_FILES.every((file) => existsSync(path.join(dir, file)));
}

/**
 * Where PostgreSQL's server binaries are: $POSTGRES_BIN, `pg_config --bindir`, Debian's /usr/lib/postgresql/<major>/bin
 * (the highest major), then the PATH.
 */
export function findPostgresBin(): string {
  const fromEnv = process.env['POSTGRES_BIN'];
  if (fromEnv !== undefined && fromEnv !== '') {
    if (hasServer(fromEnv)) return fromEnv;
    throw new Error(`POSTGRES_BIN=${fromEnv} does not hold PostgreSQL's server programs (${SERVER_FILES.join(', ')}).`);
  }
  const candidates: string[] = [];
  try {
    candidates.push(
      execFileSync('pg_config', ['--bindir'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim(),
    );
  } catch {
    // no pg_config (or the libpq one of a client-only install): the versioned folders are next
  }
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const majors = readdirSync(debian)
      .filter((name) => /^\d+(\.\d+)?$/.test(name))
      .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a));
    candidates.push(...majors.map((major) => path.join(debian, major, 'bin')));
  }
  candidates.push(...(process.env['PATH'] ?? '').split(path.delimiter).filter((dir) => dir !== ''));
  const found = candidates.find(hasServer);
  if (found !== undefined) return found;
  throw new Error(
    "PostgreSQL's server programs (initdb, pg_ctl, postgres) were not found. Install Debian's postgresql package " +
      '(apt-get install -y postgresql; .ci/run does it on CI) or set POSTGRES_BIN to the folder that holds them.',
  );
}

/** As root, every server program runs as `postgres` (initdb refuses root); otherwise as the current user. */
interface RunAs {
  uid: number;
  gid: number;
  wrap(command: string, args: readonly string[]): [string, string[]];
}

async function runAs(): Promise<RunAs | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  let uid: number;
  let gid: number;
  try {
    uid = Number((await run('id', ['-u', SUPERUSER])).stdout.trim());
    gid = Number((await run('id', ['-g', SUPERUSER])).stdout.trim());
  } catch {
    throw new Error(
      `The tests run as root, and PostgreSQL's initdb refuses root: they need the "${SUPERUSER}" user (Debian's postgresql package creates it).`,
    );
  }
  // The cluster's folder is made in the temporary folder: the postgres user must be able to walk down to it.
  for (let dir = tmpdir(); ; dir = path.dirname(dir)) {
    if ((statSync(dir).mode & 0o001) === 0) {
      throw new Error(
        `The tests run as root and PostgreSQL runs as "${SUPERUSER}", who cannot enter ${dir} (on the way to the temporary folder ${tmpdir()}). ` +
          'Set TMPDIR to a folder every user can enter (/tmp).',
      );
    }
    if (path.dirname(dir) === dir) break;
  }
  const runuser = ['/usr/sbin/runuser', '/sbin/runuser', '/usr/bin/runuser'].find((file) => existsSync(file));
  const quote = (word: string): string => `'${word.replaceAll("'", "'\\''")}'`;
  return {
    uid,
    gid,
    wrap: (command, args) =>
      runuser !== undefined
        ? [runuser, ['-u', SUPERUSER, '--', command, ...args]]
        : ['su', [SUPERUSER, '-s', '/bin/sh', '-c', [command, ...args].map(quote).join(' ')]],
  };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** A CA and a server certificate for localhost / 127.0.0.1, made with openssl (installed with PostgreSQL on Debian). */
async function makeCertificates(dir: string): Promise<void> {
  const file = (name: string): string => path.join(dir, name);
  const openssl = async (...args: string[]): Promise<void> => {
    try {
      await run('openssl', args);
    } catch (error) {
      throw new Error(`openssl could not make the test server's certificate: ${(error as Error).message}`, {
        cause: error,
      });
    }
  };
  await openssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '2',
    '-subj',
    '/CN=Card Payments Desk test CA',
    '-keyout',
    file('ca.key'),
    '-out',
    file('ca.crt'),
  );
  await writeFile(
    file('server.ext'),
    'subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n',
  );
  await openssl(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-subj',
    '/CN=localhost',
    '-keyout',
    file('server.key'),
    '-out',
    file('server.csr'),
  );
  await openssl(
    'x509',
    '-req',
    '-in',
    file('server.csr'),
    '-CA',
    file('ca.crt'),
    '-CAkey',
    file('ca.key'),
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    file('server.ext'),
    '-out',
    file('server.crt'),
  );
  await chmod(file('server.key'), 0o600);
}

/**
 * Starts a PostgreSQL server of its own: initdb in a new temporary folder, TLS on (not required), password sign-in over
 * TCP, fsync off (the data is thrown away). Throws with the reason (and the server's log) when it cannot.
 */
export async function startPostgres(options: StartPostgresOptions = {}): Promise<PostgresServer> {
  const bin = findPostgresBin();
  const as = await runAs();
  const dir = await mkdtemp(path.join(tmpdir(), 'cpd-pg-'));
  const data = path.join(dir, 'data');
  const log = path.join(dir, 'server.log');
  const password = randomBytes(18).toString('base64url');
  const exec = async (program: string, args: readonly string[]): Promise<string> => {
    const [command, argv] =
      as === undefined ? [path.join(bin, program), [...args]] : as.wrap(path.join(bin, program), args);
    try {
      return (await run(command, argv, { cwd: dir })).stdout;
    } catch (error) {
      const e = error as { stderr?: string; message: string };
      const serverLog = existsSync(log) ? readFileSync(log, 'utf8').split('\n').slice(-15).join('\n') : '';
      throw new Error(
        `${program} failed: ${(e.stderr ?? '').trim() || e.message}${serverLog === '' ? '' : `\nserver log:\n${serverLog}`}`,
        { cause: error },
      );
    }
  };

  let cleanupOnExit: (() => void) | undefined;
  try {
    await makeCertificates(dir);
    await writeFile(path.join(dir, 'pwfile'), `${password}\n`, { mode: 0o600 });
    if (as !== undefined) {
      await chmod(dir, 0o700);
      for (const name of ['', 'pwfile', 'server.key', 'server.crt', 'ca.crt'])
        await chown(path.join(dir, name), as.uid, as.gid);
    }
    await exec('initdb', [
      '-D',
      data,
      '-U',
      SUPERUSER,
      `--pwfile=${path.join(dir, 'pwfile')}`,
      '--auth-host=scram-sha-256',
      '--auth-local=trust',
      '-E',
      'UTF8',
      '--locale=C',
      '--no-sync',
      '--no-instructions',
    ]);
    await rm(path.join(dir, 'pwfile'));

    const conf = (port: number): string =>
      [
        '',
        '# test/support/postgres.ts',
        `port = ${port}`,
        "listen_addresses = '127.0.0.1'",
        `unix_socket_directories = '${dir}'`,
        `max_connections = ${options.maxConnections ?? 200}`,
        'ssl = on',
        `ssl_cert_file = '${path.join(dir, 'server.crt')}'`,
        `ssl_key_file = '${path.join(dir, 'server.key')}'`,
        'fsync = off',
        'synchronous_commit = off',
        'full_page_writes = off',
        "password_encryption = 'scram-sha-256'",
        '',
      ].join('\n');
    const ctl = (...args: string[]): Promise<string> => exec('pg_ctl', ['-D', data, ...args]);
    const startServer = (): Promise<string> => ctl('-l', log, '-w', '-t', '60', 'start');
    const stopServer = (): Promise<string> => ctl('-m', 'fast', '-w', '-t', '60', 'stop');

    let port = 0;
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      const base = await readFile(path.join(data, 'postgresql.conf'), 'utf8');
      await writeFile(path.join(data, 'postgresql.conf'), base.split('\n# test/support/postgres.ts')[0] ?? base);
      await appendFile(path.join(data, 'postgresql.conf'), conf(port));
      try {
        await startServer();
        break;
      } catch (error) {
        // Another process took the port between the probe and the start: another one.
        if (attempt >= 5 || !/could not bind|Address already in use/i.test((error as Error).message)) throw error;
      }
    }
    // A test process that dies without stop() must not leave a server behind.
    cleanupOnExit = (): void => {
      try {
        const [command, argv] =
          as === undefined
            ? [path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop']]
            : as.wrap(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop']);
        execFileSync(command, argv, { stdio: 'ignore' });
      } catch {
        // already stopped
      }
      try {
        execFileSync('rm', ['-rf', dir], { stdio: 'ignore' });
      } catch {
        // best effort
      }
    };
    if (options.stopOnProcessExit ?? true) process.once('exit', cleanupOnExit);

    const url = `postgres://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const version =
      (await client.query<{ server_version: string }>('SHOW server_version')).rows[0]?.server_version ?? 'unknown';
    await client.end();
    const caCertificatePem = await readFile(path.join(dir, 'ca.crt'), 'utf8');

    let stopped: Promise<void> | undefined;
    return {
      host: '127.0.0.1',
      port,
      user: SUPERUSER,
      password,
      url,
      version,
      bin,
      caCertificatePem,
      dir,
      restart: async () => {
        await ctl('-l', log, '-m', 'fast', '-w', '-t', '60', 'restart');
      },
      stopServer: async () => {
        await stopServer();
      },
      startServer: async () => {
        await startServer();
      },
      stop: () =>
        (stopped ??= (async () => {
          if (cleanupOnExit !== undefined) process.removeListener('exit', cleanupOnExit);
          await ctl('-m', 'immediate', '-w', 'stop').catch(() => undefined);
          await rm(dir, { recursive: true, force: true });
        })()),
    };
  } catch (error) {
    if (cleanupOnExit !== undefined) {
      process.removeListener('exit', cleanupOnExit);
      cleanupOnExit();
    } else {
      await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    }
    throw error;
  }
}

/**
 * Stops a server started by startPostgres in another process (its `dir`) and removes its folder: Vitest's globalSetup
 * tears down the server a worker started. Nothing happens when the folder is gone already.
 */
export async function stopPostgresAt(dir: string): Promise<void> {
  const data = path.join(dir, 'data');
  if (existsSync(path.join(data, 'postmaster.pid'))) {
    const as = await runAs();
    const pgCtl = path.join(findPostgresBin(), 'pg_ctl');
    const args = ['-D', data, '-m', 'immediate', '-w', 'stop'];
    const [command, argv] = as === undefined ? [pgCtl, args] : as.wrap(pgCtl, args);
    await run(command, argv).catch(() => undefined);
  }
  await rm(dir, { recursive: true, force: true });
}

/** The server's details for a child process (Playwright's workers, a bench's desks): JSON in POSTGRES_ENV. */
export function postgresEnv(info: PostgresInfo): Record<string, string> {
  const { host, port, user, password, url, version, bin, caCertificatePem } = info;
  return {
    [POSTGRES_ENV]: JSON.stringify({
      host,
      port,
      user,
      password,
      url,
      version,
      bin,
      caCertificatePem,
    } satisfies PostgresInfo),
  };
}

/** The server a parent process started (postgresEnv); fails with its reason when it could not start one. */
export function postgresFromEnv(): PostgresInfo {
  const value = process.env[POSTGRES_ENV];
  if (value === undefined || value === '') {
    throw new Error(
      `No test PostgreSQL: ${POSTGRES_ENV} is not set (start one with startPostgres() in the parent process).`,
    );
  }
  const parsed = JSON.parse(value) as PostgresInfo | { error: string };
  if ('error' in parsed) throw new Error(`The test PostgreSQL could not be started: ${parsed.error}`);
  return parsed;
}

/** A database of its own for a test file (or a test): created empty; drop() removes it. */
export interface TestDatabase {
  name: string;
  /** The superuser's URL to it. */
  url: string;
  drop(): Promise<void>;
}

export async function createDatabase(server: PostgresInfo, prefix = 't'): Promise<TestDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
  } finally {
    await admin.end();
  }
  return {
    name,
    url: server.url.replace(/\/postgres$/, `/${name}`),
    drop: async () => {
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
