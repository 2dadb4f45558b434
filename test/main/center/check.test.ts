// --check-center against a real PostgreSQL: ready when the roles, schema and grants are as the app needs; each problem
// named on its own line otherwise (center down, a store not migrated, a missing or an extra grant, the wrong user).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CenterSettings, checkCenter, formatCenterCheck, runCenterCheck } from '../../../main/center';
import { OPERATORS_STORE } from '../../../main/operators/store';
import { migrateCenter } from '../../../main/storage';
import { createCenter, type TestCenter } from '../../support/center';
import { testPostgres } from '../../support/pg';
import { notesStore } from '../storage/support/notes-store';

let center: TestCenter;

beforeAll(async () => {
  center = await createCenter(await testPostgres(), { stores: [notesStore, OPERATORS_STORE] });
}, 120_000);

afterAll(async () => {
  await center.drop();
});

describe('--check-center', () => {
  it('a center set up and migrated, the desk on its own credential, the shared one ended: every line ok, the verdict ready', async () => {
    const desk = await center.addDesk();
    const ownCredential = { ...desk, tls: { mode: 'require' } } as const;
    const transition = await checkCenter(ownCredential, [notesStore]);
    expect(transition.ok).toBe(true);
    expect(transition.lines.filter((line) => line.status !== 'ok')).toEqual([
      { status: 'warning', check: 'shared credential', detail: expect.stringMatching(/can still sign in/) as unknown },
    ]);
    await center.query(`ALTER ROLE ${center.roles.app.name} NOLOGIN`);
    let report;
    try {
      report = await checkCenter(ownCredential, [notesStore]);
    } finally {
      await center.query(`ALTER ROLE ${center.roles.app.name} LOGIN`);
    }
    expect(report.lines.filter((line) => line.status !== 'ok')).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.lines.find((line) => line.check === 'user')?.detail).toContain(
      `its own login role "${desk.role.name}"`,
    );
    expect(report.lines.find((line) => line.check === 'desk')?.detail).toMatch(/bound to no desk yet/);
    const deskId = '9c9c9c9c-0000-4000-8000-00000000009c';
    await center.query('INSERT INTO center.desk_logins (login_role, desk_id) VALUES ($1, $2)', [
      desk.role.name,
      deskId,
    ]);
    const bound = await checkCenter(ownCredential, [notesStore]);
    expect(bound.lines.find((line) => line.check === 'desk')?.detail).toBe(
      `"${desk.role.name}" is the login of desk ${deskId}`,
    );
    const text = formatCenterCheck(report);
    expect(text).toMatch(/ok {5} {2}connection .*signed in to PostgreSQL \d+/);
    expect(text).toMatch(/tls .*encrypted \(sslmode require\)/);
    expect(text).toMatch(/store notes_test .*at schema 2/);
    expect(text).toMatch(/grants notes_test\.notes .*SELECT, INSERT, UPDATE/);
    expect(text).toMatch(/is ready for this desk\.\n$/);
    expect(text).not.toContain(desk.role.password);
  });

  it('the shared app role as the desk’s credential is a warning, said as such: the desk works meanwhile', async () => {
    const report = await checkCenter({ ...center.app, tls: { mode: 'require' } }, [notesStore]);
    expect(report.ok).toBe(true);
    expect(report.lines.find((line) => line.check === 'user')).toMatchObject({
      status: 'warning',
      detail: expect.stringMatching(/shared app role .*docs\/center\/add-desk\.sql/) as unknown,
    });
    expect(formatCenterCheck(report)).toMatch(/WARNING {2}user /);
  });

  it('TLS off is a problem, said as such', async () => {
    const report = await checkCenter(center.app, [notesStore]);
    expect(report.ok).toBe(false);
    expect(report.lines.find((line) => line.check === 'tls')).toMatchObject({
      status: 'problem',
      detail: expect.stringMatching(/in clear/) as unknown,
    });
  });

  it('a missing grant and an extra one are each named', async () => {
    await center.query(`REVOKE UPDATE ON notes_test.notes FROM ${center.roles.app.name}`);
    await center.query(`GRANT DELETE ON notes_test.notes TO ${center.roles.app.name}`);
    try {
      const report = await checkCenter({ ...center.app, tls: { mode: 'require' } }, [notesStore]);
      expect(report.ok).toBe(false);
      expect(report.lines.find((line) => line.check === 'grants notes_test.notes')).toMatchObject({
        status: 'problem',
        detail: expect.stringMatching(
          /lacks UPDATE; may also DELETE, which it must not: IT must run --migrate-center/,
        ) as unknown,
      });
    } finally {
      await center.query(`GRANT UPDATE ON notes_test.notes TO ${center.roles.app.name}`);
      await center.query(`REVOKE DELETE ON notes_test.notes FROM ${center.roles.app.name}`);
    }
  });

  it('a write granted on some columns, TRUNCATE, and EXECUTE on a function of the owner the store does not list are each named; --migrate-center takes them away', async () => {
    const tls = { mode: 'require' } as const;
    const app = center.roles.app.name;
    expect((await checkCenter({ ...center.app, tls }, [OPERATORS_STORE])).lines).toContainEqual({
      status: 'ok',
      check: 'functions operators',
      detail: "none of the owner's callable but those listed",
    });
    await center.query(`GRANT UPDATE (role) ON operators.operators TO ${app}`);
    await center.query(`GRANT INSERT (operator_id) ON operators.sessions TO ${app}`);
    await center.query(`GRANT TRUNCATE ON operators.tickets TO ${app}`);
    await center.query(`GRANT EXECUTE ON FUNCTION operators.issue_ticket(text, text, text) TO ${app}`);
    await center.query(`GRANT EXECUTE ON FUNCTION operators.secret() TO PUBLIC`);
    const wrong = await checkCenter({ ...center.app, tls }, [OPERATORS_STORE]);
    expect(wrong.ok).toBe(false);
    const line = (check: string) => wrong.lines.find((found) => found.check === check);
    expect(line('grants operators.operators')).toMatchObject({
      status: 'problem',
      detail: expect.stringMatching(/^may also UPDATE \(of some columns\), which it must not/) as unknown,
    });
    expect(line('grants operators.sessions')?.detail).toMatch(
      /^may also INSERT \(of some columns\), which it must not/,
    );
    expect(line('grants operators.tickets')?.detail).toMatch(/^may also TRUNCATE, which it must not/);
    expect(line('functions operators')).toEqual({
      status: 'problem',
      check: 'functions operators',
      detail:
        "may also call operators.issue_ticket(text, text, text), operators.secret(), which run as the schema's owner and are not a desk's to call: IT must run --migrate-center, which takes them away",
    });

    await migrateCenter(center.owner, [OPERATORS_STORE]);
    const fixed = await checkCenter({ ...center.app, tls }, [OPERATORS_STORE]);
    expect(fixed.lines.filter((found) => found.status === 'problem')).toEqual([]);
    expect(
      await center.query(
        `SELECT has_function_privilege($1, 'operators.issue_ticket(text, text, text)', 'EXECUTE') AS ticket,
                has_function_privilege($1, 'operators.secret()', 'EXECUTE') AS secret,
                has_column_privilege($1, 'operators.operators', 'role', 'UPDATE') AS role`,
        [app],
      ),
    ).toEqual([{ ticket: false, secret: false, role: false }]);
  });

  it("the auditor's grants: every table read, no secret column; a table-level SELECT on operators (which reads password_hash) is a problem, and --migrate-center puts it right", async () => {
    const tls = { mode: 'require' } as const;
    const ready = await checkCenter({ ...center.app, tls }, [notesStore, OPERATORS_STORE]);
    expect(ready.lines.filter((line) => line.status === 'problem')).toEqual([]);
    expect(ready.lines.find((line) => line.check === 'auditor notes_test')).toEqual({
      status: 'ok',
      check: 'auditor notes_test',
      detail: 'reads every table, writes none',
    });
    expect(ready.lines.find((line) => line.check === 'auditor operators')).toEqual({
      status: 'ok',
      check: 'auditor operators',
      detail:
        'reads every table, writes none; not operators.password_hash, sessions.session_id, tickets.ticket_key, attempts.attempt_key, attempts.key_mac, center_secret.secret',
    });

    await center.query(`GRANT SELECT ON operators.operators TO ${center.roles.auditor.name}`);
    await center.query(`GRANT INSERT ON notes_test.notes TO ${center.roles.auditor.name}`);
    const wrong = await checkCenter({ ...center.app, tls }, [notesStore, OPERATORS_STORE]);
    expect(wrong.ok).toBe(false);
    expect(wrong.lines.find((line) => line.check === 'auditor operators')).toMatchObject({
      status: 'problem',
      detail: expect.stringMatching(
        /reads operators\.operators\.password_hash, a secret \(it has SELECT on the whole table\): IT must run --migrate-center/,
      ) as unknown,
    });
    expect(wrong.lines.find((line) => line.check === 'auditor notes_test')).toMatchObject({
      status: 'problem',
      detail: expect.stringMatching(/may write to notes_test\.notes/) as unknown,
    });
    expect(formatCenterCheck(wrong)).toMatch(/PROBLEM {2}auditor operators /);

    // A column-level grant on the secret alone is caught too; an unreadable column is named.
    await center.query(`REVOKE ALL ON operators.operators FROM ${center.roles.auditor.name}`);
    await center.query(`GRANT SELECT (id, password_hash) ON operators.operators TO ${center.roles.auditor.name}`);
    const columns = await checkCenter({ ...center.app, tls }, [OPERATORS_STORE]);
    expect(columns.lines.find((line) => line.check === 'auditor operators')?.detail).toMatch(
      /reads operators\.operators\.password_hash, a secret; cannot read operators\.operators\.display_name, /,
    );

    await migrateCenter(center.owner, [notesStore, OPERATORS_STORE]);
    expect((await checkCenter({ ...center.app, tls }, [notesStore, OPERATORS_STORE])).ok).toBe(true);
  });

  it('a store the center was not migrated for, and signing in as the owner, are problems', async () => {
    const report = await checkCenter({ ...center.owner, tls: { mode: 'require' } }, [
      notesStore,
      { ...notesStore, name: 'notes_missing' },
    ]);
    expect(report.ok).toBe(false);
    expect(report.lines.find((line) => line.check === 'user')?.detail).toMatch(/not a member of the app role/);
    expect(report.lines.find((line) => line.check === 'store notes_missing')?.detail).toMatch(
      /at schema 0, this app needs 2: IT must run --migrate-center/,
    );
  });

  it('the center unreachable: one problem line saying so, the StorageError code kept', async () => {
    const report = await checkCenter({ ...center.app, port: 1, connectTimeoutMs: 2000 }, [notesStore]);
    expect(report).toMatchObject({ ok: false, errorCode: 'center_unavailable' });
    expect(formatCenterCheck(report)).toMatch(
      /PROBLEM {2}connection {2}The center's database \(127\.0\.0\.1:1\) cannot be reached/,
    );
  });
});

describe('runCenterCheck (what --check-center prints and exits with)', () => {
  it('no center setting: says the desk keeps its own files and where IT sets it; exit 2', async () => {
    const result = await runCenterCheck({
      center: undefined,
      managedPath: '/etc/card-payments-desk/managed-settings.json',
      password: () => Promise.resolve(undefined),
    });
    expect(result.exitCode).toBe(2);
    expect(result.output).toMatch(/no center setting.*\/etc\/card-payments-desk\/managed-settings\.json/);
  });

  it('the setting and the stored password: ready, exit 0; no password stored: exit 1, saying how to provision it', async () => {
    const setting = CenterSettings.parse({
      host: center.server.host,
      port: center.server.port,
      database: center.database.name,
      user: center.roles.app.name,
      sslmode: 'require',
    });
    const ready = await runCenterCheck({
      center: setting,
      managedPath: 'm.json',
      password: () => Promise.resolve(center.roles.app.password),
      stores: [notesStore],
    });
    expect(ready).toEqual({ exitCode: 0, output: expect.stringMatching(/is ready for this desk/) as unknown });
    const none = await runCenterCheck({
      center: setting,
      managedPath: 'm.json',
      password: () => Promise.resolve(undefined),
      stores: [notesStore],
    });
    expect(none.exitCode).toBe(1);
    expect(none.output).toMatch(/--provision-secret --secret-name=centerPassword/);
  });
});
