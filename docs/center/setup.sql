-- Card Payments Desk: the center's PostgreSQL database, its roles and what each may do (docs/IT.md, section 8).
--
-- Run it as a PostgreSQL superuser, connected to the center's own database, created empty beforehand:
--
--   createdb card_desk
--   psql -d card_desk -v ON_ERROR_STOP=1 -f setup.sql
--
-- Other role names than the defaults:
--
--   psql -d card_desk -v ON_ERROR_STOP=1 -v owner_role=cpd_owner -v app_role=cpd_app -v auditor_role=cpd_auditor -f setup.sql
--
-- It can be run again (after changing a role name, say): what is already as it says stays as it is.
--
-- The three roles, made without a password (set each with psql's \password, never in a file):
--   owner_role    owns the schemas and tables. Only "Card Payments Desk --migrate-center" signs in as it, to create or
--                 update the stores' tables when a new version of the app needs it.
--   app_role      what every desk signs in as (the "user" of the center setting; its password is the desks'
--                 centerPassword secret). It reads and writes rows, table by table, as each store of the app declares;
--                 it cannot create, alter or drop anything, nor change the audit trail's rows.
--   auditor_role  reads every table, writes nothing, and never reads a secret column (operators.password_hash, a
--                 session's id, a desk's nonce). It cannot sign in itself: grant it to the people who audit
--                 (CREATE ROLE alice LOGIN; GRANT card_desk_auditor TO alice;).
--
-- The tables themselves, and the app and auditor roles' privileges on each, come from the app: --migrate-center (run as
-- owner_role) creates or updates each store's schema, grants app_role exactly what that store declares, no more
-- (main/storage: StoreDefinition.postgres.grants), and grants auditor_role SELECT on each table, column by column where a
-- table has secret columns (StoreDefinition.postgres.secretColumns; a table-level SELECT would include them). This
-- script makes the roles, the database's privileges and the center.roles table --migrate-center and --check-center read
-- the role names from.

\set ON_ERROR_STOP on

\if :{?owner_role}
\else
  \set owner_role card_desk_owner
\endif
\if :{?app_role}
\else
  \set app_role card_desk_app
\endif
\if :{?auditor_role}
\else
  \set auditor_role card_desk_auditor
\endif

-- 1. The roles: none is a superuser or may create databases, roles or replication connections, or bypass row security.
SELECT format('CREATE ROLE %I LOGIN', :'owner_role') WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = :'owner_role') \gexec
SELECT format('CREATE ROLE %I LOGIN', :'app_role') WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = :'app_role') \gexec
SELECT format('CREATE ROLE %I NOLOGIN', :'auditor_role') WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = :'auditor_role') \gexec
ALTER ROLE :"owner_role" LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS;
ALTER ROLE :"app_role" LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS;
ALTER ROLE :"auditor_role" NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS;

-- 2. The database: only these roles connect; only the owner creates schemas in it (one per store of the app).
REVOKE ALL ON DATABASE :"DBNAME" FROM PUBLIC;
GRANT CONNECT, CREATE ON DATABASE :"DBNAME" TO :"owner_role";
GRANT CONNECT ON DATABASE :"DBNAME" TO :"app_role", :"auditor_role";
REVOKE CREATE ON SCHEMA public FROM PUBLIC;

-- 3. Who is who, for --migrate-center (whom to grant) and --check-center (what to check).
CREATE SCHEMA IF NOT EXISTS center AUTHORIZATION :"owner_role";
ALTER SCHEMA center OWNER TO :"owner_role";
CREATE TABLE IF NOT EXISTS center.roles (
  kind text PRIMARY KEY CHECK (kind IN ('owner', 'app', 'auditor')),
  role_name text NOT NULL
);
ALTER TABLE center.roles OWNER TO :"owner_role";
INSERT INTO center.roles (kind, role_name) VALUES ('owner', :'owner_role'), ('app', :'app_role'), ('auditor', :'auditor_role')
  ON CONFLICT (kind) DO UPDATE SET role_name = EXCLUDED.role_name;
REVOKE ALL ON SCHEMA center FROM PUBLIC;
GRANT USAGE ON SCHEMA center TO :"app_role", :"auditor_role";
REVOKE ALL ON center.roles FROM PUBLIC;
GRANT SELECT ON center.roles TO :"app_role", :"auditor_role";

-- 4. What the owner makes from now on: functions (the audit trail's append-only trigger) are not callable by everyone.
--    Tables get no default privileges: --migrate-center sets the app role's and the auditor's table by table (an earlier
--    version of this script gave the auditor SELECT on every new table, password hashes included; that is taken back).
ALTER DEFAULT PRIVILEGES FOR ROLE :"owner_role" GRANT USAGE ON SCHEMAS TO :"auditor_role";
ALTER DEFAULT PRIVILEGES FOR ROLE :"owner_role" REVOKE SELECT ON TABLES FROM :"auditor_role";
ALTER DEFAULT PRIVILEGES FOR ROLE :"owner_role" REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC;

\echo 'Card Payments Desk: roles and database set up. Next: set the passwords (\\password), then run the app with --migrate-center as the owner role (docs/IT.md).'
