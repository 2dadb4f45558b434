/**
 * The audit trail as the center writes it (PostgreSQL only; the embedded file keeps its own chain, main/audit/chain.ts).
 *
 * A desk never writes a row of audit.audit itself: it calls audit.append with the row's content, and the center gives the
 * row its time, its desk (from the session's login, center.current_desk()), its place in that desk's chain (under a lock
 * on the desk's head, so that two appends of one desk take turns) and its hash: an HMAC-SHA-256 of the previous row's
 * hash and the row's canonical text, keyed with a random key made here that only the owner role reads
 * (audit_key.chain_key). Rows written before (by the desks themselves, hashed with plain SHA-256 as chain.ts does) stay
 * as they are, `keyed` false; a desk's first keyed row follows its last plain one, so that its hash covers all of them.
 * audit.heads keeps each desk's last row as the center wrote it, so that a row removed from the end shows.
 *
 * audit.move_in_rows takes a desk's embedded chain (main/audit/move-in.ts) into the calling desk's own chain, only while
 * that chain holds nothing the center wrote and only row by row after the center's last one, each row verified with
 * plain SHA-256. audit.verify_chain, for the auditor role only, walks every chain: the plain part as chain.ts does, the
 * keyed part with the key, and each chain's end against its head.
 *
 * What it does not hold against: the owner role and superusers, who can read the key, switch the append-only trigger
 * off (ALTER TABLE … DISABLE TRIGGER, session_replication_role) and replace these functions. The auditor's check is as
 * good as the functions the owner left in place.
 */
import { sql, type Kysely } from 'kysely';

/** The schema of the chain key: no role but its owner has any privilege on it (not USAGE: the auditor's default is taken back). */
export const KEY_SCHEMA = 'audit_key';

/** The SQLSTATE of a refusal of audit.move_in_rows: a chain of the desk's files that the center's chain cannot take. */
export const MOVE_IN_REFUSED = 'AU001';

/** The function signatures the app role may call (StoreDefinition.postgres.functions). */
export const APPEND_SIGNATURE = 'append(text, timestamptz, text, text, text, text, text, text)';
export const MOVE_IN_SIGNATURE = 'move_in_rows(text, jsonb)';

/** What audit.actor_session records: the actor's session at the writing desk when the center wrote the row. */
export type ActorSession = 'open' | 'locked' | 'none';

const quoted = (identifier: string): string => `"${identifier.replaceAll('"', '""')}"`;

/**
 * The row texts and hashes, shared by append, move_in_rows and verify_chain. No role but the owner may call them, and
 * they run under the search_path of the SECURITY DEFINER function that calls them (they have no SET clause of their own
 * so that PostgreSQL inlines them, which the walk of a long chain needs). plain_hash hashes chain.ts's JSON.stringify of
 * a row (the desk's id first unless it was hashed before desks had ids), its time to the millisecond as the desks wrote
 * it; keyed_hash the same array with every column the center writes, its times to the microsecond (a changed
 * microsecond shows), keyed with the center's key.
 */
function helpersSql(crypto: string): string {
  const iso = (unit: 'MS' | 'US'): string =>
    `pg_catalog.to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.${unit}"Z"')`;
  const json = (value: string): string => `audit.json_text(${value})`;
  const plainColumns = ['(r).actor', '(r).action', '(r).outcome', '(r).resource', '(r).request_id', '(r).details'];
  return `
CREATE FUNCTION audit.json_text(t text) RETURNS text
  LANGUAGE sql STABLE
  AS $fn$ SELECT coalesce(pg_catalog.to_json(t)::text, 'null') $fn$;

CREATE FUNCTION audit.iso_ms(t timestamptz) RETURNS text
  LANGUAGE sql STABLE
  AS $fn$ SELECT ${iso('MS')} $fn$;

CREATE FUNCTION audit.iso_us(t timestamptz) RETURNS text
  LANGUAGE sql STABLE
  AS $fn$ SELECT ${iso('US')} $fn$;

CREATE FUNCTION audit.plain_hash(r audit.audit, with_desk boolean) RETURNS text
  LANGUAGE sql STABLE
  AS $fn$ SELECT pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to((r).prev_hash || '['
    || CASE WHEN with_desk THEN ${json('(r).desk_id')} || ',' ELSE '' END
    || (r).seq::text || ',' || ${json('audit.iso_ms((r).at)')} || ','
    || ${plainColumns.map(json).join(" || ',' || ")} || ']', 'UTF8')), 'hex') $fn$;

CREATE FUNCTION audit.keyed_hash(r audit.audit, k bytea) RETURNS text
  LANGUAGE sql STABLE
  AS $fn$ SELECT pg_catalog.encode(${crypto}.hmac(pg_catalog.convert_to((r).prev_hash || '['
    || ${json('(r).desk_id')} || ',' || (r).seq::text || ',' || ${json('audit.iso_us((r).at)')} || ','
    || ${json('audit.iso_us((r).desk_at)')} || ',' || ${plainColumns.map(json).join(" || ',' || ")} || ','
    || ${json('(r).actor_session')} || ']', 'UTF8'), k, 'sha256'), 'hex') $fn$;

-- The desk a call writes for: the login's own (an argument naming another is refused); the shared app role names it.
CREATE FUNCTION audit.caller_desk(p_desk_id text) RETURNS text
  LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp
  AS $fn$
DECLARE
  bound text := center.current_desk();
BEGIN
  IF center.shared_session() THEN
    IF p_desk_id IS NULL OR p_desk_id = '' THEN
      RAISE EXCEPTION 'audit: the shared app role names the desk it writes for' USING ERRCODE = '22023';
    END IF;
    RETURN p_desk_id;
  END IF;
  IF bound IS NULL THEN
    RAISE EXCEPTION 'audit: the login % is bound to no desk', session_user USING ERRCODE = '42501';
  END IF;
  IF p_desk_id IS NOT NULL AND p_desk_id <> bound THEN
    RAISE EXCEPTION 'audit: the login % writes for desk %, not for desk %', session_user, bound, p_desk_id
      USING ERRCODE = '42501';
  END IF;
  RETURN bound;
END
$fn$;

-- The desk's head, locked until the caller's transaction ends (made at the desk's first row, after the hash before
-- any row: chain.ts's GENESIS, 64 zeros).
CREATE FUNCTION audit.lock_head(p_desk_id text) RETURNS audit.heads
  LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp
  AS $fn$
DECLARE
  head audit.heads;
BEGIN
  INSERT INTO audit.heads AS h (desk_id, seq, hash) VALUES (p_desk_id, 0, repeat('0', 64)) ON CONFLICT DO NOTHING;
  SELECT * INTO STRICT head FROM audit.heads h WHERE h.desk_id = p_desk_id FOR UPDATE;
  RETURN head;
END
$fn$;

REVOKE ALL ON FUNCTION audit.json_text(text), audit.iso_ms(timestamptz), audit.iso_us(timestamptz),
  audit.plain_hash(audit.audit, boolean), audit.keyed_hash(audit.audit, bytea), audit.caller_desk(text),
  audit.lock_head(text) FROM PUBLIC;
`;
}

/**
 * audit.append: the content as the desk gives it, the rest as the center decides. actor_session says whether the actor
 * had a session at this desk when the center wrote the row (open, locked, or none: system and anonymous never do), read
 * from operators.sessions when that table exists (NULL otherwise): what that table, whose rows only the center's
 * sign-in writes (main/operators/center-sql.ts), says at that moment; not who was at the keyboard.
 */
const appendSql = (): string => `
CREATE FUNCTION audit.append(p_desk_id text, p_desk_at timestamptz, p_actor text, p_action text, p_outcome text,
    p_resource text, p_request_id text, p_details text)
  RETURNS audit.audit
  LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
  AS $fn$
DECLARE
  desk text := audit.caller_desk(p_desk_id);
  secret bytea;
  head audit.heads;
  r audit.audit;
BEGIN
  IF p_desk_at IS NULL OR p_actor IS NULL OR p_action IS NULL OR p_details IS NULL THEN
    RAISE EXCEPTION 'audit.append: a row has its time at the desk, an actor, an action and details' USING ERRCODE = '22023';
  END IF;
  IF p_outcome IS NULL OR p_outcome NOT IN ('ok', 'refused', 'failed') THEN
    RAISE EXCEPTION 'audit.append: % is not an outcome', p_outcome USING ERRCODE = '22023';
  END IF;
  PERFORM p_details::json;
  SELECT k.key INTO secret FROM audit_key.chain_key k;
  IF secret IS NULL THEN
    RAISE EXCEPTION 'audit.append: the center has no chain key (audit_key.chain_key): IT must run --migrate-center'
      USING ERRCODE = '55000';
  END IF;
  head := audit.lock_head(desk);
  IF EXISTS (SELECT FROM audit.audit a WHERE a.desk_id = desk AND a.seq > head.seq) THEN
    RAISE EXCEPTION 'audit.append: desk %''s chain holds rows after row %, which the center did not write: the auditor''s check names them', desk, head.seq
      USING ERRCODE = '55000';
  END IF;
  r.desk_id := desk;
  r.seq := head.seq + 1;
  r.at := date_trunc('milliseconds', clock_timestamp());
  r.desk_at := p_desk_at;
  r.actor := p_actor;
  r.action := p_action;
  r.outcome := p_outcome;
  r.resource := p_resource;
  r.request_id := p_request_id;
  r.details := p_details;
  r.prev_hash := head.hash;
  r.keyed := true;
  IF to_regclass('operators.sessions') IS NOT NULL THEN
    SELECT CASE WHEN s.locked = 0 THEN 'open' ELSE 'locked' END INTO r.actor_session
      FROM operators.sessions s WHERE s.operator_id = p_actor AND s.desk_id = desk;
    r.actor_session := coalesce(r.actor_session, 'none');
  END IF;
  r.hash := audit.keyed_hash(r, secret);
  INSERT INTO audit.audit AS a (desk_id, seq, at, actor, action, outcome, resource, request_id, details, prev_hash, hash,
      keyed, desk_at, actor_session)
    VALUES (r.desk_id, r.seq, r.at, r.actor, r.action, r.outcome, r.resource, r.request_id, r.details, r.prev_hash,
      r.hash, r.keyed, r.desk_at, r.actor_session)
    RETURNING * INTO STRICT r;
  UPDATE audit.heads h SET seq = r.seq, hash = r.hash WHERE h.desk_id = desk;
  RETURN r;
END
$fn$;
`;

/**
 * audit.move_in_rows: rows of the calling desk's chain from its own files (a JSON array of {seq, at, actor, action,
 * outcome, resource, request_id, details, prev_hash, hash}, in order), each written after the center's last row of the
 * chain only if it links to it and its plain SHA-256 holds (with the desk's id, or without it while the chain is still
 * made of rows of before desk ids); a row the center already has, the same, is passed over. Refused whole (SQLSTATE
 * AU001) once the center has written a row of the chain: a desk's files never go after the center's rows. Answers how
 * many rows it wrote.
 */
const moveInSql = (): string => `
CREATE FUNCTION audit.move_in_rows(p_desk_id text, p_rows jsonb)
  RETURNS integer
  LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
  AS $fn$
DECLARE
  desk text := audit.caller_desk(p_desk_id);
  head audit.heads;
  given jsonb;
  there audit.audit;
  r audit.audit;
  keyed_from bigint;
  undesked boolean;
  moved integer := 0;
BEGIN
  IF p_rows IS NULL OR jsonb_typeof(p_rows) <> 'array' THEN
    RAISE EXCEPTION 'audit.move_in_rows: the rows are a JSON array' USING ERRCODE = '22023';
  END IF;
  head := audit.lock_head(desk);
  SELECT a.seq INTO keyed_from FROM audit.audit a WHERE a.desk_id = desk AND a.keyed ORDER BY a.seq LIMIT 1;
  IF keyed_from IS NOT NULL THEN
    RAISE EXCEPTION 'the center writes desk %''s audit chain from row % on: rows of its own files cannot go after it', desk, keyed_from
      USING ERRCODE = '${MOVE_IN_REFUSED}';
  END IF;
  -- Whether the chain so far is made of rows of before desk ids (hashed without their desk).
  IF head.seq = 0 THEN
    undesked := true;
  ELSE
    SELECT * INTO there FROM audit.audit a WHERE a.desk_id = desk AND a.seq = head.seq;
    undesked := FOUND AND audit.plain_hash(there, false) = there.hash;
  END IF;
  FOR given IN SELECT value FROM jsonb_array_elements(p_rows) LOOP
    r := NULL;
    r.desk_id := desk;
    r.seq := (given->>'seq')::bigint;
    r.at := (given->>'at')::timestamptz;
    r.actor := given->>'actor';
    r.action := given->>'action';
    r.outcome := given->>'outcome';
    r.resource := given->>'resource';
    r.request_id := given->>'request_id';
    r.details := given->>'details';
    r.prev_hash := given->>'prev_hash';
    r.hash := given->>'hash';
    r.keyed := false;
    IF r.seq IS NULL OR r.at IS NULL OR r.actor IS NULL OR r.action IS NULL OR r.outcome IS NULL OR r.details IS NULL
        OR r.prev_hash IS NULL OR r.hash IS NULL THEN
      RAISE EXCEPTION 'audit.move_in_rows: a row lacks a column it must have' USING ERRCODE = '22023';
    END IF;
    IF r.seq <= head.seq THEN
      SELECT * INTO there FROM audit.audit a WHERE a.desk_id = desk AND a.seq = r.seq;
      IF FOUND AND there.hash = r.hash AND there.prev_hash = r.prev_hash THEN
        CONTINUE;
      END IF;
      RAISE EXCEPTION 'the center already has a different row % of desk %''s audit chain', r.seq, desk
        USING ERRCODE = '${MOVE_IN_REFUSED}';
    END IF;
    IF r.seq <> head.seq + 1 THEN
      RAISE EXCEPTION 'row % of desk %''s audit chain does not follow the center''s last row of it (%)', r.seq, desk, head.seq
        USING ERRCODE = '${MOVE_IN_REFUSED}';
    END IF;
    IF r.prev_hash <> head.hash THEN
      RAISE EXCEPTION 'row % of desk %''s audit chain does not link to row %', r.seq, desk, head.seq
        USING ERRCODE = '${MOVE_IN_REFUSED}';
    END IF;
    IF audit.plain_hash(r, true) = r.hash THEN
      undesked := false;
    ELSIF NOT (undesked AND audit.plain_hash(r, false) = r.hash) THEN
      RAISE EXCEPTION 'row % of desk %''s audit chain does not verify: it was changed after it was written', r.seq, desk
        USING ERRCODE = '${MOVE_IN_REFUSED}';
    END IF;
    INSERT INTO audit.audit AS a (desk_id, seq, at, actor, action, outcome, resource, request_id, details, prev_hash, hash, keyed)
      VALUES (r.desk_id, r.seq, r.at, r.actor, r.action, r.outcome, r.resource, r.request_id, r.details, r.prev_hash,
        r.hash, false);
    head.seq := r.seq;
    head.hash := r.hash;
    moved := moved + 1;
  END LOOP;
  UPDATE audit.heads h SET seq = head.seq, hash = head.hash WHERE h.desk_id = desk;
  RETURN moved;
END
$fn$;
`;

/**
 * audit.verify_chain: every desk's chain walked from its first row, one snapshot: its numbers, its links, each row's
 * hash (plain SHA-256 before the desk's first keyed row, as chain.ts walks it; the key's HMAC from it on; a plain row
 * after it is not the center's), and its end against audit.heads. Answers one row: ok with the rows and desks checked,
 * or the first broken row (its desk, its number, why) with the rows checked up to it. The words are chain.ts's and
 * trail.ts's.
 */
const verifySql = (): string => `
CREATE FUNCTION audit.verify_chain()
  RETURNS TABLE (ok boolean, rows_checked bigint, desks bigint, broken_desk text, broken_seq bigint, reason text)
  LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
  AS $fn$
DECLARE
  secret bytea;
  chain record;
  r audit.audit;
  expected bigint;
  prev text;
  undesked boolean;
  keyed_from bigint;
  last_seq bigint;
  head audit.heads;
  counted bigint := 0;
  chains bigint;
  at_desk text;
  at_seq bigint;
  why text;
BEGIN
  SELECT k.key INTO secret FROM audit_key.chain_key k;
  IF secret IS NULL THEN
    RAISE EXCEPTION 'audit.verify_chain: the center has no chain key (audit_key.chain_key)' USING ERRCODE = '55000';
  END IF;
  SELECT count(*) INTO chains FROM (
    SELECT a.desk_id FROM audit.audit a UNION SELECT h.desk_id FROM audit.heads h WHERE h.seq > 0) d;
  <<desks>>
  FOR chain IN SELECT d.desk_id FROM (
      SELECT a.desk_id FROM audit.audit a UNION SELECT h.desk_id FROM audit.heads h WHERE h.seq > 0) d
      ORDER BY d.desk_id LOOP
    expected := 1;
    prev := repeat('0', 64);
    undesked := true;
    keyed_from := NULL;
    FOR r IN SELECT * FROM audit.audit a WHERE a.desk_id = chain.desk_id ORDER BY a.seq LOOP
      counted := counted + 1;
      at_desk := chain.desk_id;
      IF r.seq <> expected THEN
        at_seq := expected;
        why := format('row %s is missing (the next one is %s)', expected, r.seq);
        EXIT desks;
      END IF;
      at_seq := r.seq;
      IF r.prev_hash <> prev THEN
        why := format('row %s does not link to row %s', r.seq, r.seq - 1);
        EXIT desks;
      END IF;
      IF r.keyed THEN
        keyed_from := coalesce(keyed_from, r.seq);
        IF audit.keyed_hash(r, secret) <> r.hash THEN
          why := format('row %s was changed after it was written', r.seq);
          EXIT desks;
        END IF;
      ELSIF keyed_from IS NOT NULL THEN
        why := format('row %s was not written by the center (it writes this chain from row %s on)', r.seq, keyed_from);
        EXIT desks;
      ELSIF r.desk_id = '' THEN
        IF audit.plain_hash(r, false) <> r.hash THEN
          why := format('row %s was changed after it was written', r.seq);
          EXIT desks;
        END IF;
      ELSIF audit.plain_hash(r, true) = r.hash THEN
        undesked := false;
      ELSIF NOT (undesked AND audit.plain_hash(r, false) = r.hash) THEN
        why := format('row %s was changed after it was written', r.seq);
        EXIT desks;
      END IF;
      prev := r.hash;
      expected := expected + 1;
    END LOOP;
    last_seq := expected - 1;
    at_desk := chain.desk_id;
    head := NULL;
    SELECT * INTO head FROM audit.heads h WHERE h.desk_id = chain.desk_id;
    IF last_seq < coalesce(head.seq, 0) THEN
      at_seq := last_seq + 1;
      why := format('rows %s to %s were removed from the end', last_seq + 1, head.seq);
      EXIT desks;
    ELSIF last_seq > coalesce(head.seq, 0) THEN
      at_seq := coalesce(head.seq, 0) + 1;
      why := format('rows %s to %s were not written by the center', coalesce(head.seq, 0) + 1, last_seq);
      EXIT desks;
    ELSIF last_seq > 0 AND prev <> head.hash THEN
      at_seq := last_seq;
      why := format('row %s is not the one that was written last', last_seq);
      EXIT desks;
    END IF;
  END LOOP;
  IF why IS NULL THEN
    RETURN QUERY SELECT true, counted, chains, NULL::text, NULL::bigint, NULL::text;
  ELSE
    RETURN QUERY SELECT false, counted, chains, at_desk, at_seq, why;
  END IF;
END
$fn$;
`;

/**
 * A result the trail records once for the whole center (payment.result, refund.result: the system's row, written by
 * whichever desk following the payment comes first) is taken only as the journal has it: the payment or refund,
 * with that status (a refund of that payment), when the journal has it. So a desk cannot forestall another desk's result
 * with a false one.
 * A row moved in from a desk's files is that desk's word (not keyed), and where the center has no journal (a center of
 * the audit store alone) nothing is compared.
 */
export const RESULTS_AS_JOURNALED_SQL = `
CREATE OR REPLACE FUNCTION audit.result_as_journaled() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
  AS $fn$
DECLARE
  details jsonb;
  journaled text;
BEGIN
  -- Only a result's details are read as jsonb (which refuses an escaped NUL that json, the column's check, keeps).
  IF NEW.action NOT IN ('payment.result', 'refund.result') OR NOT NEW.keyed OR to_regclass('journal.payments') IS NULL THEN
    RETURN NEW;
  END IF;
  details := NEW.details::jsonb;
  IF NEW.actor <> 'system' OR jsonb_typeof(details->'status') IS DISTINCT FROM 'string' THEN
    RAISE EXCEPTION 'audit: a result is the system''s, with its status' USING ERRCODE = '22023';
  END IF;
  -- A payment or refund the journal does not have yet (its answer still kept at a desk) is taken as it comes: a row kept
  -- on the desk never waits for ever behind it.
  IF NEW.action = 'payment.result' THEN
    EXECUTE 'SELECT p.status FROM journal.payments p WHERE p.id = $1' INTO journaled USING NEW.resource;
  ELSE
    EXECUTE 'SELECT r.status FROM journal.refunds r WHERE r.id = $1 AND r.payment_id = $2'
      INTO journaled USING NEW.resource, details->>'paymentId';
  END IF;
  IF journaled IS NOT NULL AND journaled <> details->>'status' THEN
    RAISE EXCEPTION 'audit: the result of % is not the one the journal has', NEW.resource USING ERRCODE = '22023';
  END IF;
  RETURN NEW;
END
$fn$;
REVOKE ALL ON FUNCTION audit.result_as_journaled() FROM PUBLIC;
DROP TRIGGER IF EXISTS audit_result_as_journaled ON audit.audit;
CREATE TRIGGER audit_result_as_journaled BEFORE INSERT ON audit.audit FOR EACH ROW
  EXECUTE FUNCTION audit.result_as_journaled();
`;

/** Where pgcrypto is: made in the key's schema, unless IT installed it elsewhere before (then used there). */
async function pgcryptoSchema(db: Kysely<unknown>): Promise<string> {
  await sql`CREATE EXTENSION IF NOT EXISTS pgcrypto WITH SCHEMA ${sql.id(KEY_SCHEMA)}`.execute(db);
  const { rows } = await sql<{ schema: string }>`
    SELECT n.nspname AS schema FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace n ON n.oid = e.extnamespace
     WHERE e.extname = 'pgcrypto'`.execute(db);
  return rows[0]?.schema ?? KEY_SCHEMA;
}

/**
 * The PostgreSQL migration that makes the center the trail's writer: the key (pgcrypto is a trusted extension from
 * PostgreSQL 13 on, so the owner role may install it with its CREATE on the database), the columns of the rows the
 * center writes, the heads (of the rows already there, as they are), the functions, and the auditor's EXECUTE on
 * verify_chain (its role read from center.roles). The app role's grants (SELECT on the table and the heads, EXECUTE on
 * append and move_in_rows, no INSERT) are --migrate-center's, from AUDIT_STORE.
 */
export async function keyedChainMigration(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE SCHEMA ${sql.id(KEY_SCHEMA)}`.execute(db);
  await sql`REVOKE ALL ON SCHEMA ${sql.id(KEY_SCHEMA)} FROM PUBLIC`.execute(db);
  const crypto = quoted(await pgcryptoSchema(db));
  const keys = sql.table(`${KEY_SCHEMA}.chain_key`);
  await sql`CREATE TABLE ${keys} (
    one boolean PRIMARY KEY DEFAULT true CHECK (one),
    key bytea NOT NULL CHECK (length(key) = 32),
    made_at timestamptz NOT NULL DEFAULT now()
  )`.execute(db);
  await sql`REVOKE ALL ON ${keys} FROM PUBLIC`.execute(db);
  await sql`INSERT INTO ${keys} (key) VALUES (${sql.raw(crypto)}.gen_random_bytes(32))`.execute(db);

  // ADD COLUMN fires no trigger: the rows already there get keyed false and no center columns.
  await sql`ALTER TABLE audit.audit
    ADD COLUMN keyed boolean NOT NULL DEFAULT false,
    ADD COLUMN desk_at timestamptz,
    ADD COLUMN actor_session text CHECK (actor_session IN ('open', 'locked', 'none')),
    ADD CONSTRAINT audit_center_columns CHECK (keyed OR (desk_at IS NULL AND actor_session IS NULL))`.execute(db);
  await sql`CREATE TABLE audit.heads (
    desk_id text PRIMARY KEY,
    seq bigint NOT NULL CHECK (seq >= 0),
    hash text NOT NULL
  )`.execute(db);
  await sql`INSERT INTO audit.heads (desk_id, seq, hash)
    SELECT DISTINCT ON (a.desk_id) a.desk_id, a.seq, a.hash FROM audit.audit a ORDER BY a.desk_id, a.seq DESC`.execute(
    db,
  );

  await sql.raw(helpersSql(crypto)).execute(db);
  await sql.raw(appendSql()).execute(db);
  await sql.raw(moveInSql()).execute(db);
  await sql.raw(verifySql()).execute(db);
  await sql`REVOKE ALL ON FUNCTION audit.append(text, timestamptz, text, text, text, text, text, text),
    audit.move_in_rows(text, jsonb), audit.verify_chain() FROM PUBLIC`.execute(db);
  // The auditor verifies; the owner's default privileges gave it USAGE on the key's schema, which it does not need.
  await sql
    .raw(
      `DO $do$
    DECLARE
      auditor text := (SELECT r.role_name FROM center.roles r WHERE r.kind = 'auditor');
    BEGIN
      EXECUTE format('GRANT EXECUTE ON FUNCTION audit.verify_chain() TO %I', auditor);
      EXECUTE format('REVOKE ALL ON SCHEMA ${KEY_SCHEMA} FROM %I', auditor);
    END
  $do$`,
    )
    .execute(db);
}
