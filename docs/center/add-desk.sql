-- Card Payments Desk: the center credential of one desk (docs/it/center-database.md, "A credential per desk").
--
-- Run it as a PostgreSQL superuser (it reads center.roles and writes center.desk_logins, which a role with only
-- CREATEROLE may not), connected to the center's database, once per desk, after docs/center/setup.sql and
-- --migrate-center:
--
--   psql -d card_desk -v ON_ERROR_STOP=1 -v desk_role=card_desk_d0042 -f add-desk.sql
--   psql -d card_desk -c '\password card_desk_d0042'
--
-- then, on that desk only: "user": "card_desk_d0042" in its center setting and the password as its centerPassword
-- secret (--provision-secret --secret-name=centerPassword). The role can do what the app role can, and no more: it is a
-- member of it. At its first start the desk binds its id to this role: no other credential may register that desk, and
-- this one registers no other. To bind it now (the id a desk shows in --check-center), add -v desk_id=<its id>.
--
-- Revoking one desk touches no other: ALTER ROLE card_desk_d0042 NOLOGIN; then end what it has open:
--   SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'card_desk_d0042';
-- (never give its name to another desk: the binding follows the name). Once every desk has its own, end the shared
-- credential: ALTER ROLE card_desk_app NOLOGIN; and its connections likewise.

\set ON_ERROR_STOP on

\if :{?desk_role}
\else
  \echo 'add-desk.sql: name the desk''s role: -v desk_role=card_desk_d0042'
  SELECT 1 / 0 AS desk_role_is_required;
\endif

SELECT role_name AS app_role FROM center.roles WHERE kind = 'app' \gset

-- The desk's login: never a superuser, never able to make roles or bypass row security; the app role's privileges.
SELECT format('CREATE ROLE %I LOGIN', :'desk_role') WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = :'desk_role') \gexec
ALTER ROLE :"desk_role" LOGIN INHERIT NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS;
GRANT :"app_role" TO :"desk_role";

\if :{?desk_id}
  INSERT INTO center.desk_logins (login_role, desk_id) VALUES (:'desk_role', :'desk_id')
    ON CONFLICT (login_role) DO UPDATE SET desk_id = EXCLUDED.desk_id, bound_at = now();
\endif

\echo 'Card Payments Desk: the desk role is ready. Next: set its password (\\password), then provision it on its desk (docs/it/center-database.md).'
