// A center as the last release before per-desk logins (7a40737) leaves it, for test/main/center/upgrade.test.ts: made by
// that release's own code, never by hand, and dumped to test/fixtures/center-7a40737.sql. Run by hand (not by npm test),
// from the repository's root, with that commit checked out in a worktree of its own:
//
//   git worktree add /tmp/old-center 7a40737 && ln -s "$PWD/node_modules" /tmp/old-center/node_modules
//   node --import tsx scripts/center-fixture.mjs /tmp/old-center
//   git worktree remove --force /tmp/old-center
//
// What it does, all with the old worktree's code:
//  1. starts a throwaway PostgreSQL (its test/support/postgres.ts: initdb in a temporary folder, as `postgres` when run
//     as root, a free port), makes an empty database `card_desk`, runs its docs/center/setup.sql with psql as IT does
//     (the default role names) and its `--migrate-center` (main/cli/center.ts, PGUSER the owner role, a managed file);
//  2. opens two desks of that version as the app did: each a full main stack (createMainStack) with a data folder of
//     its own, on the center as the one shared app role, attached to that version's simulator running in this process,
//     every call through the door as the renderer makes it (its test/support/screen.ts). Desk A creates the first admin,
//     who creates an agent and a supervisor; at desk B the admin creates another admin, agent and supervisor and
//     disables an account. The agents take payments (USD and MXN, one declined), a supervisor refunds part of one, an
//     agent asks a refund that stays pending, another is approved (and refunded) at desk B, a receipt goes to the
//     training outbox, a wrong password is counted; the desks are then stopped, as IT stops every desk before an
//     upgrade, with two operators' sessions left on the center (one of them locked), as a desk that crashed or lost its
//     network leaves them (a clean stop signs out: the stacks' closeSession is skipped at their stop, nothing else).
//     The audit rows are the ones the stacks wrote on the way;
//  3. dumps the app's schemas (every schema of the owner but setup.sql's `center`, which a center of any version makes
//     itself) and the extensions a store made in them with `pg_dump --no-owner --no-privileges`; adds the old center's
//     grants to the app and auditor roles as one DO block that grants them to the restoring database's roles by kind
//     (center.roles), since the dump leaves them out and an upgrade must start from them; checks the text holds no card
//     number (only brand and last 4), no psql meta-command, none of the run's passwords or service secret; then writes
//     it with a header saying how.
//
// The output is plain SQL for psql, restored as the owner role into a database set up by the current setup.sql. Ids,
// times and hashes differ at each run; what the test asserts does not depend on them.
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..');
const COMMIT = '7a40737';
const OUT = path.join(ROOT, 'test', 'fixtures', `center-${COMMIT}.sql`);
const DATABASE = 'card_desk';
const ROLES = { owner: 'card_desk_owner', app: 'card_desk_app', auditor: 'card_desk_auditor' };

/** The test cards the desks typed (the simulator's: main/sandbox/cards.ts). None may be in the dump. */
const CARDS = { visa: '4242424242424242', mastercard: '5555555555554444', declined: '4000000000000002' };
const YEAR = new Date().getUTCFullYear() + 2;

const ADA = { id: 'ada', password: 'a long password 42' };
const ANA = { id: 'ana', password: 'agent password 1234' };
const SAM = { id: 'sam', password: 'supervisor pass 1234' };
const BEN = { id: 'ben', password: 'admin password 5678' };
const BEA = { id: 'bea', password: 'agent password 5678' };
const SUE = { id: 'sue', password: 'supervisor pass 5678' };
const OLE = { id: 'ole', password: 'agent password 9012' };

const oldDir = path.resolve(process.argv[2] ?? '/tmp/old-center');

async function main() {
  const { stdout: head } = await run('git', ['-C', oldDir, 'rev-parse', 'HEAD']);
  if (!head.trim().startsWith(COMMIT))
    throw new Error(`${oldDir} is at ${head.trim()}, not ${COMMIT}: git worktree add ${oldDir} ${COMMIT}`);
  const commit = head.trim();
  /** A module of the old code. */
  const old = (file) => import(pathToFileURL(path.join(oldDir, file)).href);
  const { startPostgres } = await old('test/support/postgres.ts');
  const { runSetupSql } = await old('test/support/center.ts');
  const { asTheScreen } = await old('test/support/screen.ts');
  const { createMainStack } = await old('main/app/index.ts');
  const { simulatorConfig } = await old('main/payments/index.ts');
  const { startSimulator } = await old('main/sandbox/index.ts');
  const { centerStorage } = await old('main/storage/index.ts');

  const server = await startPostgres();
  const folders = [];
  const stacks = [];
  let sim;
  try {
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${DATABASE}`);
    await admin.end();
    const dbUrl = server.url.replace(/\/postgres$/, `/${DATABASE}`);
    const superuser = async (text, values = []) => {
      const client = new pg.Client({ connectionString: dbUrl });
      await client.connect();
      try {
        return (await client.query(text, values)).rows;
      } finally {
        await client.end();
      }
    };

    // 1. IT's set-up and --migrate-center, as that version's docs say.
    await runSetupSql(server, DATABASE, ROLES);
    const passwords = { owner: randomBytes(12).toString('base64url'), app: randomBytes(12).toString('base64url') };
    for (const kind of ['owner', 'app'])
      await superuser(`ALTER ROLE ${ROLES[kind]} PASSWORD ${pg.escapeLiteral(passwords[kind])}`);
    const work = mkdtempSync(path.join(tmpdir(), 'cpd-fixture-'));
    folders.push(work);
    const managed = path.join(work, 'managed.json');
    const center = { host: server.host, port: server.port, database: DATABASE, user: ROLES.app, sslmode: 'require' };
    writeFileSync(managed, JSON.stringify({ settings: { center } }));
    const migrated = await run(
      process.execPath,
      ['--import', 'tsx', 'main/cli/center.ts', '--migrate-center', `--managed=${managed}`],
      { cwd: oldDir, env: { ...process.env, PGUSER: ROLES.owner, PGPASSWORD: passwords.owner } },
    );
    process.stdout.write(migrated.stdout);

    // 2. Two desks of that version on the center, as the shared app role.
    sim = await startSimulator({ processingDelayMs: 0, refundDelayMs: 0 });
    const serviceSecret = sim.clientSecret;
    const connection = {
      host: server.host,
      port: server.port,
      database: DATABASE,
      user: ROLES.app,
      password: () => Promise.resolve(passwords.app),
      tls: { mode: 'require' },
    };
    const sender = { url: 'app://app/index.html', isMainFrame: true, webContentsId: 1 };
    const openDesk = async (name) => {
      const dataDir = mkdtempSync(path.join(tmpdir(), `cpd-fixture-desk-${name}-`));
      folders.push(dataDir);
      const stack = await createMainStack({
        dataDir,
        version: COMMIT,
        fetch,
        isTrustedSender: () => true,
        service: { environment: 'training', simulator: { processingDelayMs: 0, refundDelayMs: 0 } },
        connect: () =>
          Promise.resolve({
            config: simulatorConfig(sim),
            secrets: { read: () => Promise.resolve(sim.clientSecret) },
            training: { controlUrl: sim.controlUrl },
            close: () => Promise.resolve(),
          }),
        storage: centerStorage(connection),
      });
      stacks.push(stack);
      const call = (channel, input) => asTheScreen((c, i) => stack.dispatch(c, sender, i), channel, input);
      const ok = async (channel, input) => {
        const result = await call(channel, input);
        if (!result.ok) throw new Error(`desk ${name} ${channel}: ${result.error.code} ${result.error.message}`);
        return result.value;
      };
      const desk = {
        name,
        stack,
        call,
        ok,
        signedIn: false,
        /** Whoever is signed in signs out first, as on the screen. */
        async signIn(who) {
          if (desk.signedIn) await ok('session:signOut', {});
          await ok('session:signIn', who);
          desk.signedIn = true;
        },
        async signOut() {
          await ok('session:signOut', {});
          desk.signedIn = false;
        },
        async pay(reservationId, amountCents, currency, number = CARDS.visa) {
          const method = await ok('payments:tokenize', {
            operationId: randomUUID(),
            card: { number, expMonth: 12, expYear: YEAR, cvv: '123' },
            reservationId,
          });
          const payment = await ok('payments:pay', {
            operationId: randomUUID(),
            methodId: method.id,
            amountCents,
            currency,
            reservationId,
          });
          for (let i = 0; i < 100; i++) {
            const seen = await ok('payments:get', { paymentId: payment.id });
            if (['succeeded', 'failed', 'canceled'].includes(seen.status)) return seen;
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
          throw new Error(`payment ${payment.id} at desk ${name} did not end`);
        },
      };
      return desk;
    };
    const operator = (who, displayName, role) => ({ id: who.id, displayName, role, password: who.password });

    const a = await openDesk('A');
    await a.ok('session:createFirstAdmin', { id: ADA.id, displayName: 'Ada Lovelace', password: ADA.password });
    a.signedIn = true;
    await a.ok('operators:create', operator(ANA, 'Ana Pérez', 'agent'));
    await a.ok('operators:create', operator(SAM, 'Sam Ortiz', 'supervisor'));
    await a.signOut();

    const b = await openDesk('B');
    await b.signIn(ADA);
    await b.ok('operators:create', operator(BEN, 'Benito Juárez', 'admin'));
    await b.ok('operators:create', operator(BEA, 'Bea Núñez', 'agent'));
    await b.ok('operators:create', operator(SUE, 'Sue "la jefa" Zoë', 'supervisor'));
    await b.ok('operators:create', operator(OLE, 'Ole Olsen', 'agent'));
    await b.ok('operators:update', { id: OLE.id, disabled: true });
    await b.signOut();

    // Zoë Anderson (USD) at desk A; Sarah Nguyen (USD) and Sofía Núñez (MXN) at desk B (main/reservations/demo.ts).
    await a.signIn(ANA);
    const zoe = await a.pay('CUN-6B3D8F', 20_000, 'usd');
    await a.ok('messaging:sendReceipt', {
      paymentId: zoe.id,
      channel: 'email',
      destination: 'zoe.anderson@example.com',
    });
    const refused = await b.call('session:signIn', { id: BEA.id, password: 'not her password 1' });
    if (refused.ok) throw new Error('a wrong password was accepted');
    await b.signIn(BEA);
    const sarah = await b.pay('CUN-5Z2A8B', 7_000, 'usd', CARDS.mastercard);
    const declined = await b.pay('CUN-7F3K2A', 150_000, 'mxn', CARDS.declined);
    if (declined.status !== 'failed') throw new Error(`the declined card's payment is ${declined.status}`);
    const sofia = await b.pay('CUN-7F3K2A', 100_000, 'mxn');

    // A supervisor's refund at desk A; a request left pending there; one asked and approved at desk B.
    await a.signIn(SAM);
    await a.ok('refunds:create', {
      operationId: randomUUID(),
      paymentId: zoe.id,
      amountCents: 5_000,
      reason: 'duplicate',
    });
    await a.signIn(ANA);
    await a.ok('refunds:request', {
      requestId: randomUUID(),
      paymentId: zoe.id,
      amountCents: 4_000,
      reason: 'requested_by_customer',
      note: 'Late check-in; asks for one night back.',
    });
    const asked = await b.ok('refunds:request', {
      requestId: randomUUID(),
      paymentId: sarah.id,
      amountCents: 2_000,
      reason: 'cancellation',
      note: 'Cancelled by phone.',
    });
    await b.signIn(SUE);
    await b.ok('refunds:approve', { requestId: asked.id });
    await b.ok('reports:endOfDay', {
      date: new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date()),
    });
    await b.ok('session:lock', {});
    for (const payment of [zoe, sarah, sofia]) {
      const seen = await a.ok('payments:get', { paymentId: payment.id });
      process.stdout.write(
        `payment ${payment.id}: ${seen.status} ${seen.amountCents} ${seen.currency}, refunds ${seen.refunds.map((r) => `${r.amountCents} ${r.status}`).join(', ') || 'none'}\n`,
      );
    }

    // Every desk stopped, as before IT upgrades the center; but not signed out: ana's session stays open at A, sue's
    // locked at B, as a desk that crashed or lost power (or its network, SessionGuard.signOut) leaves them on the center.
    for (const stack of stacks.splice(0)) {
      stack.directory.closeSession = () => Promise.resolve();
      await stack.close();
    }
    await sim.close();
    sim = undefined;

    // 3. The dump of the app's schemas.
    const schemas = (
      await superuser(
        `SELECT n.nspname AS name FROM pg_namespace n JOIN pg_roles r ON r.oid = n.nspowner
          WHERE r.rolname = $1 AND n.nspname <> 'center' ORDER BY 1`,
        [ROLES.owner],
      )
    ).map((row) => row.name);
    const centerTables = (
      await superuser(`SELECT tablename FROM pg_tables WHERE schemaname = 'center' ORDER BY 1`)
    ).map((row) => row.tablename);
    if (centerTables.join() !== 'roles')
      throw new Error(`center holds ${centerTables.join(', ')}: not only setup.sql's roles`);
    const counts = [];
    for (const schema of schemas) {
      for (const { tablename } of await superuser('SELECT tablename FROM pg_tables WHERE schemaname = $1 ORDER BY 1', [
        schema,
      ])) {
        const [row] = await superuser(
          `SELECT count(*)::int AS n FROM ${pg.escapeIdentifier(schema)}.${pg.escapeIdentifier(tablename)}`,
        );
        counts.push(`${schema}.${tablename} ${row.n}`);
      }
    }
    // The extensions a store's migration made in its schema (reservations: unaccent, pg_trgm), which -n leaves out.
    const extensions = (
      await superuser(
        `SELECT e.extname AS name FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
          WHERE n.nspname = ANY ($1) ORDER BY 1`,
        [schemas],
      )
    ).map((row) => row.name);
    const dumpArgs = [
      '--no-owner',
      '--no-privileges',
      ...schemas.flatMap((schema) => ['-n', schema]),
      ...extensions.flatMap((extension) => ['-e', extension]),
    ];
    const { stdout: dumped } = await run(path.join(server.bin, 'pg_dump'), [...dumpArgs, '-d', dbUrl], {
      maxBuffer: 64 * 1024 * 1024,
    });
    // pg_dump (15.14 on) fences its output with \restrict … \unrestrict …, which an older psql does not know; the text
    // is checked below to hold no meta-command instead.
    const dumpedBody = dumped
      .split('\n')
      .filter((line) => !/^\\(un)?restrict /.test(line))
      .join('\n');
    const body = `${dumpedBody.replace(/\n+$/, '')}\n\n${await oldGrants(superuser, schemas)}`;
    const problems = [];
    for (const [name, number] of Object.entries(CARDS))
      if (body.includes(number)) problems.push(`the ${name} card number`);
    // Any other card number: 13 to 19 digits passing Luhn, alone or grouped by spaces or dashes, not inside a hash, an id
    // or a decimal fraction.
    for (const match of body.matchAll(/(?<![0-9A-Za-z.])[2-6]\d{3}(?:[ -]?\d){9,15}(?![0-9A-Za-z.])/g)) {
      const digits = match[0].replace(/[ -]/g, '');
      if (digits.length >= 13 && digits.length <= 19 && luhn(digits)) problems.push(`a card-like number ${match[0]}`);
    }
    for (const [name, secret] of [
      ['the owner password', passwords.owner],
      ['the app password', passwords.app],
      ['the postgres password', server.password],
      ['the service client secret', serviceSecret],
    ])
      if (secret !== '' && body.includes(secret)) problems.push(name);
    // COPY's data ends at a line `\.`; any other line starting with a backslash would be a psql meta-command.
    if (/^\\(?!\.$)/m.test(body)) problems.push('a psql meta-command');
    if (/PRIVATE KEY/.test(body)) problems.push('a private key');
    if (problems.length > 0) {
      const rejected = path.join(tmpdir(), `center-${COMMIT}.rejected.sql`);
      writeFileSync(rejected, body);
      throw new Error(`The dump holds ${problems.join('; ')}: not written (it is in ${rejected} to look at).`);
    }

    const header = [
      `-- A center as the Card Payments Desk of commit ${commit}`,
      '-- left it: its docs/center/setup.sql (default role names), its --migrate-center, then two desks of that version on',
      '-- the one shared app role, every call through the door against its in-process simulator: operators (admins,',
      '-- agents, supervisors, one disabled, one wrong password), payments (USD, MXN, one declined), a refund, a pending',
      '-- and an approved (refunded) refund request, a receipt in the training outbox, two sessions left on the center (one',
      '-- locked: the desks stopped as a crash leaves them) and the audit rows the stacks wrote. Card data: brand and last',
      "-- 4 only. Passwords: scrypt hashes (the app's default cost) of the test operators in scripts/center-fixture.mjs.",
      '--',
      `-- Made by: node --import tsx scripts/center-fixture.mjs <worktree of ${COMMIT}>   (see the script's header)`,
      `-- on ${new Date().toISOString().slice(0, 10)} with PostgreSQL ${server.version}:`,
      `--   pg_dump ${dumpArgs.join(' ')}`,
      '-- (the \\restrict fence lines removed; the text holds no psql meta-command), then a DO block that grants the old',
      "-- center's privileges again to this database's roles (they are not in the dump). Restore with psql as the owner role",
      '-- into a database set up by docs/center/setup.sql; test/main/center/upgrade.test.ts does, then migrates it.',
      '--',
      '-- Rows per table when dumped:',
      ...counts.map((line) => `--   ${line}`),
      '',
    ].join('\n');
    writeFileSync(OUT, `${header}\n${body}`);
    process.stdout.write(
      `${counts.join('\n')}\nwritten: ${path.relative(ROOT, OUT)} (${Buffer.byteLength(body)} bytes)\n`,
    );
  } finally {
    for (const stack of stacks) await stack.close().catch(() => undefined);
    if (sim !== undefined) await sim.close().catch(() => undefined);
    await server.stop();
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * The old center's privileges, as its --migrate-center left them to the app and auditor roles (and PUBLIC): pg_dump
 * --no-privileges leaves them out, and they would name this run's roles. Written as one DO block that grants them again
 * to the roles of the database it is restored into, by kind (center.roles, made by setup.sql): an upgrade starts from the
 * old grants (the app role's INSERT on the audit trail, its UPDATE on the accounts…), which --migrate-center must take back.
 */
async function oldGrants(superuser, schemas) {
  const rows = await superuser(
    `WITH kinds AS (
       SELECT r.oid, c.kind FROM center.roles c JOIN pg_roles r ON r.rolname = c.role_name WHERE c.kind IN ('app', 'auditor')
       UNION ALL SELECT 0, 'public'),
     grants AS (
       SELECT 1 AS sort, format('SCHEMA %I', n.nspname) AS object, NULL::text AS columns, acl.grantee, acl.privilege_type
         FROM pg_namespace n, aclexplode(n.nspacl) acl WHERE n.nspname = ANY ($1)
       UNION ALL
       SELECT 2, format('%s %I.%I', CASE c.relkind WHEN 'S' THEN 'SEQUENCE' ELSE 'TABLE' END, n.nspname, c.relname),
              NULL, acl.grantee, acl.privilege_type
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace, aclexplode(c.relacl) acl
        WHERE n.nspname = ANY ($1)
       UNION ALL
       SELECT 3, format('TABLE %I.%I', n.nspname, c.relname), string_agg(format('%I', a.attname), ', ' ORDER BY a.attnum),
              acl.grantee, acl.privilege_type
         FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace,
              aclexplode(a.attacl) acl
        WHERE n.nspname = ANY ($1) GROUP BY n.nspname, c.relname, acl.grantee, acl.privilege_type
       UNION ALL
       SELECT 4, format('FUNCTION %I.%I(%s)', n.nspname, p.proname, pg_get_function_identity_arguments(p.oid)), NULL,
              acl.grantee, acl.privilege_type
         FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace, aclexplode(p.proacl) acl
        WHERE n.nspname = ANY ($1) AND NOT EXISTS (SELECT FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e'))
     SELECT g.sort, g.object, g.columns, k.kind, string_agg(g.privilege_type, ', ' ORDER BY g.privilege_type) AS privileges
       FROM grants g JOIN kinds k ON k.oid = g.grantee
      GROUP BY g.sort, g.object, g.columns, k.kind ORDER BY g.sort, g.object, g.columns, k.kind`,
    [schemas],
  );
  const statements = rows.map(({ object, columns, kind, privileges }) => {
    const what =
      columns === null
        ? privileges
        : privileges
            .split(', ')
            .map((p) => `${p} (${columns})`)
            .join(', ');
    const grant = `GRANT ${what} ON ${object} TO`;
    if (/['%]/.test(grant)) throw new Error(`cannot write the grant ${grant}`);
    return kind === 'public' ? `  EXECUTE '${grant} PUBLIC';` : `  EXECUTE format('${grant} %I', ${kind});`;
  });
  return [
    '--',
    "-- The old center's privileges (not pg_dump's: written by scripts/center-fixture.mjs from the old center's ACLs),",
    "-- granted again to this database's app and auditor roles by kind (center.roles, made by docs/center/setup.sql).",
    '--',
    '',
    'DO $grants$',
    'DECLARE',
    "  app text := (SELECT role_name FROM center.roles WHERE kind = 'app');",
    "  auditor text := (SELECT role_name FROM center.roles WHERE kind = 'auditor');",
    'BEGIN',
    ...statements,
    'END',
    '$grants$;',
    '',
  ].join('\n');
}

function luhn(digits) {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

await main();
