/**
 * Who a session on the center is: the desk its login role is bound to (center.desk_logins), for every store's row rules.
 * Made by --migrate-center before any store (each store's rules call it), in the `center` schema setup.sql made; made
 * again as it is at every run, so that a center set up by an earlier version gets it.
 */
import { sql, type Kysely } from 'kysely';
import type { CenterRoles } from './migrations';

/**
 * A desk's login role and the desk id it is bound to: written by desks.register_desk (a desk's first start with its
 * own credential) or by IT (docs/center/add-desk.sql); one desk per login, one login per desk. current_desk() answers
 * the session's desk, shared_session() whether the session is the shared app role (every desk's credential before each
 * had its own: its rows are not told apart). Both take the login from session_user, never the current role (a desk's
 * login may SET ROLE to the app role it is a member of).
 */
const IDENTITY_SQL = `
CREATE TABLE IF NOT EXISTS center.desk_logins (
  login_role text PRIMARY KEY,
  desk_id text NOT NULL UNIQUE,
  bound_at timestamptz NOT NULL DEFAULT now()
);
REVOKE ALL ON center.desk_logins FROM PUBLIC;

CREATE OR REPLACE FUNCTION center.shared_session() RETURNS boolean
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
  AS $fn$ SELECT EXISTS (SELECT FROM center.roles WHERE kind = 'app' AND role_name = session_user::text) $fn$;

CREATE OR REPLACE FUNCTION center.current_desk() RETURNS text
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
  AS $fn$ SELECT desk_id FROM center.desk_logins WHERE login_role = session_user::text $fn$;

REVOKE ALL ON FUNCTION center.shared_session(), center.current_desk() FROM PUBLIC;
`;

/** Makes (or makes again) the center's identity of sessions, and lets the app and auditor roles use it. */
export async function ensureCenterIdentity(db: Kysely<unknown>, roles: CenterRoles): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql.raw(IDENTITY_SQL).execute(trx);
    const app = sql.id(roles.app);
    await sql`GRANT EXECUTE ON FUNCTION center.shared_session(), center.current_desk() TO ${app}`.execute(trx);
    await sql`GRANT SELECT ON center.desk_logins TO ${sql.id(roles.auditor)}`.execute(trx);
  });
}

/**
 * The row rule of a table whose rows name the desk that wrote them (`column`): every desk reads them (supervisors act on
 * the whole center); a row is added only with the adding session's own desk (or by the shared credential, which is not
 * told apart); no row's desk is ever changed. The table's owner (--migrate-center) is not held by it.
 */
export function deskStampedTable(schema: string, table: string, column = 'desk_id'): string {
  const target = `${schema}.${table}`;
  const trigger = `${table}_${column}_kept`;
  return `${deskRowRules(target, column, 'true')}
CREATE OR REPLACE FUNCTION ${schema}.${trigger}() RETURNS trigger
  LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $fn$
BEGIN
  IF NEW.${column} IS DISTINCT FROM OLD.${column} THEN
    RAISE EXCEPTION 'the desk of a row of ${target} is never changed' USING ERRCODE = '42501';
  END IF;
  RETURN NEW;
END
$fn$;
REVOKE ALL ON FUNCTION ${schema}.${trigger}() FROM PUBLIC;
DROP TRIGGER IF EXISTS ${trigger} ON ${target};
CREATE TRIGGER ${trigger} BEFORE UPDATE OF ${column} ON ${target} FOR EACH ROW EXECUTE FUNCTION ${schema}.${trigger}();
`;
}

/**
 * The row rule of a table whose row names the desk holding something now (a payment's lease, `column`): every desk reads
 * them; a row is added, and changed, only to name the writing session's own desk, and only while it is that desk's or
 * `free` (an SQL condition on the row: a lease that ran out): taking one over names the taker.
 */
export function deskHeldTable(schema: string, table: string, free: string, column = 'desk_id'): string {
  return deskRowRules(`${schema}.${table}`, column, OWN(column), `${OWN(column)} OR (${free})`);
}

const OWN = (column: string): string =>
  `${column} = (SELECT center.current_desk()) OR (SELECT center.shared_session())`;

/** Reads for all, additions by their own desk, changes of the rows `changeable` selects that keep `changeCheck` true. */
function deskRowRules(target: string, column: string, changeCheck: string, changeable = 'true'): string {
  return `
ALTER TABLE ${target} ENABLE ROW LEVEL SECURITY;
DROP POLICY IF EXISTS every_desk_reads ON ${target};
CREATE POLICY every_desk_reads ON ${target} FOR SELECT USING (true);
DROP POLICY IF EXISTS own_desk_adds ON ${target};
CREATE POLICY own_desk_adds ON ${target} FOR INSERT WITH CHECK (${OWN(column)});
DROP POLICY IF EXISTS rows_change ON ${target};
CREATE POLICY rows_change ON ${target} FOR UPDATE USING (${changeable}) WITH CHECK (${changeCheck});
DROP POLICY IF EXISTS rows_go ON ${target};
CREATE POLICY rows_go ON ${target} FOR DELETE USING (true);`;
}
