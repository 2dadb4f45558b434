/**
 * The operator directory's door on the center: SECURITY DEFINER functions that apply the rules main applies on the
 * embedded file (lockout, manager override's pause, one session per operator, admin-only changes, the last admin kept),
 * so that a desk's login, which reads no password hash or session key and writes no account row, cannot promote anyone,
 * copy a hash or take a session. Who is calling (the desk) comes from the login (center.current_desk()); an operator acts
 * through a session opened only with a password proven to the center (a sign-in ticket); no argument names the actor.
 *
 * A password is proven in two statements, so that no caller can take its failure back: begin_attempt counts the attempt
 * as a failure and keeps the key it was given, committed before anything is compared; sign_in or verify_override then
 * compares that attempt's key, and only a right one clears the count. A rollback of the comparison leaves the count as it
 * was committed, and a comparison inside the transaction that counted (ROLLBACK, a raised error, a savepoint) is refused.
 */
import { DEFAULT_COST, MIN_COST, STORED_LIMITS } from './password';

/** The signatures the desks' logins may call (StoreDefinition.postgres.functions). */
export const OPERATOR_FUNCTIONS = [
  'password_params(text)',
  'begin_attempt(text, text, text, text)',
  'sign_in(text, text)',
  'verify_override(text, text)',
  'rehash(text, text, text)',
  'open_session(text, text, boolean, text)',
  'session_open(text, text)',
  'seen_session(text, text)',
  'mark_session(text, boolean, text)',
  'close_session(text, text)',
  'close_desk_sessions(text)',
  'create_first_admin(text, text, text, text)',
  'create_operator(text, text, text, text, text, text)',
  'set_role(text, text, text, text)',
  'set_disabled(text, text, boolean, text)',
  'reset_password(text, text, text, text)',
  'move_in_operator(text, text, text, integer, text, bigint, text, text)',
] as const;

/** Lockout numbers as main has them (lockout.ts): the functions are made with these values. */
export interface LockoutNumbers {
  maxFailed: number;
  lockoutMs: number;
  overrideMax: number;
  overridePauseMs: number;
}

/** How long a proven password may open a session or sign one manager override (the center's clock). */
export const TICKET_MS = 2 * 60_000;
/** How long a counted attempt waits for its comparison (the desk asks at once). */
export const ATTEMPT_MS = 60_000;
/** The attempts one desk may have waiting at once: older ones are dropped (still counted). */
export const MAX_DESK_ATTEMPTS = 16;
/** Ids that do not exist whose failures the center keeps (the oldest forgotten first, as a desk's memory does). */
export const MAX_UNKNOWN_IDS = 1000;
/** How long a function waits for a row another transaction holds before it gives up (an error, never a freeze). */
export const LOCK_WAIT_MS = 5_000;

/**
 * The SQL of migration 0005 (run again as it is by later ones that change a function): the tables only the functions
 * read, and the functions. Every name is schema-qualified; every function runs with an empty search path.
 */
export function operatorFunctionsSql(n: LockoutNumbers): string {
  const definer = `SECURITY DEFINER SET search_path = pg_catalog, pg_temp`;
  // A function that locks a row gives up after LOCK_WAIT_MS: a transaction a desk holds open delays, never freezes.
  const locking = `${definer} SET lock_timeout = '${LOCK_WAIT_MS}ms'`;
  const defaultCost = `ln=${DEFAULT_COST.log2N},r=${DEFAULT_COST.r},p=${DEFAULT_COST.p}`;
  const bounds = STORED_LIMITS;
  return String.raw`
CREATE TABLE IF NOT EXISTS operators.center_secret (
  one boolean PRIMARY KEY DEFAULT true CHECK (one),
  secret bytea NOT NULL
);
INSERT INTO operators.center_secret (secret)
  SELECT decode(replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', ''), 'hex')
  ON CONFLICT DO NOTHING;

-- A password proven to the center, for one use: a session's opening (sign_in) or one manager override's decision. A
-- sign-in's ticket also lets its desk raise that account's hash once (rehash).
CREATE TABLE IF NOT EXISTS operators.tickets (
  ticket_key text PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('sign_in', 'override')),
  operator_id text NOT NULL,
  desk_id text NOT NULL,
  expires_at bigint NOT NULL,
  may_rehash boolean NOT NULL DEFAULT false
);
CREATE INDEX IF NOT EXISTS tickets_expires_at ON operators.tickets (expires_at);

-- A password's key given for an id at a desk, counted as a failure when it was given (its own committed statement),
-- compared once asked (sign_in, verify_override). The key is kept as the center's HMAC of it, never as given.
CREATE TABLE IF NOT EXISTS operators.attempts (
  attempt_key text PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('sign_in', 'override')),
  operator_id text NOT NULL,
  known boolean NOT NULL,
  desk_id text NOT NULL,
  key_mac bytea,
  -- counted: the failure was counted (and may be cleared by the right key); locked / override_paused: refused unread.
  admitted text NOT NULL CHECK (admitted IN ('counted', 'locked', 'override_paused')),
  held_until bigint,
  -- The lock or pause this attempt's own count set: the right key clears it, as the right password ends a count.
  set_until bigint,
  -- The transaction that counted it: the comparison is refused in that same transaction.
  xact xid8 NOT NULL,
  made_at bigint NOT NULL,
  expires_at bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS attempts_expires_at ON operators.attempts (expires_at);
CREATE INDEX IF NOT EXISTS attempts_desk ON operators.attempts (desk_id, made_at);

-- Failures against ids that do not exist, counted for the whole center as an account's are: the answers tell nothing.
-- Keyed by the center's HMAC of the id; a count untouched for the lock window is forgotten, and at most
-- ${MAX_UNKNOWN_IDS} ids are kept (the oldest go first).
CREATE TABLE IF NOT EXISTS operators.unknown_ids (
  id_key text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('sign_in', 'override')),
  failures integer NOT NULL,
  locked_until bigint,
  touched_at bigint NOT NULL,
  PRIMARY KEY (id_key, kind)
);
CREATE INDEX IF NOT EXISTS unknown_ids_touched_at ON operators.unknown_ids (touched_at);

-- How the center's directory was set up, once: its first admin, a desk's move-in, or accounts it had before these
-- functions. in_use: a password has been proven since (the first admin's setup is in use at once). One row at most,
-- whatever the isolation of the transaction that tries a second.
CREATE TABLE IF NOT EXISTS operators.setup (
  one boolean PRIMARY KEY DEFAULT true CHECK (one),
  how text NOT NULL CHECK (how IN ('first_admin', 'move_in', 'migrated')),
  desk_id text,
  made_at bigint NOT NULL,
  in_use boolean NOT NULL
);
INSERT INTO operators.setup (how, desk_id, made_at, in_use)
  SELECT 'migrated', NULL, CAST(floor(extract(epoch FROM now()) * 1000) AS bigint), true
   WHERE EXISTS (SELECT FROM operators.operators)
  ON CONFLICT DO NOTHING;

-- The accounts a desk moved in (move_in_operator), by desk: what that desk's move-in may call its own.
CREATE TABLE IF NOT EXISTS operators.moved_in (
  operator_id text PRIMARY KEY,
  desk_id text NOT NULL,
  moved_at bigint NOT NULL
);

-- The directory emptied by its owner (TRUNCATE, or its last account deleted: no desk's login can do either): its setup
-- and its moved-in accounts are forgotten with it, so that it can be set up again.
CREATE OR REPLACE FUNCTION operators.directory_emptied() RETURNS trigger
  LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
  AS $fn$
BEGIN
  IF NOT EXISTS (SELECT FROM operators.operators) THEN
    DELETE FROM operators.setup;
  END IF;
  DELETE FROM operators.moved_in m WHERE NOT EXISTS (SELECT FROM operators.operators o WHERE o.id = m.operator_id);
  RETURN NULL;
END
$fn$;
REVOKE ALL ON FUNCTION operators.directory_emptied() FROM PUBLIC;
DROP TRIGGER IF EXISTS directory_emptied ON operators.operators;
CREATE TRIGGER directory_emptied AFTER DELETE OR TRUNCATE ON operators.operators
  FOR EACH STATEMENT EXECUTE FUNCTION operators.directory_emptied();

-- The center's own secret (made at the first call when the table was emptied).
CREATE OR REPLACE FUNCTION operators.secret() RETURNS bytea
  LANGUAGE plpgsql VOLATILE ${definer}
  AS $fn$
DECLARE
  found_secret bytea;
BEGIN
  SELECT c.secret INTO found_secret FROM operators.center_secret c;
  IF found_secret IS NULL THEN
    INSERT INTO operators.center_secret (secret)
      SELECT decode(replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', ''), 'hex')
      ON CONFLICT DO NOTHING;
    SELECT c.secret INTO found_secret FROM operators.center_secret c;
  END IF;
  RETURN found_secret;
END
$fn$;

-- HMAC-SHA256 (RFC 2104) of a message under the center's secret.
CREATE OR REPLACE FUNCTION operators.mac(p_message bytea) RETURNS bytea
  LANGUAGE plpgsql VOLATILE ${definer}
  AS $fn$
DECLARE
  k bytea := operators.secret();
  inner_key bytea;
  outer_key bytea;
BEGIN
  IF length(k) > 64 THEN k := sha256(k); END IF;
  k := k || decode(repeat('00', 64 - length(k)), 'hex');
  inner_key := k;
  outer_key := k;
  FOR i IN 0 .. 63 LOOP
    inner_key := set_byte(inner_key, i, get_byte(k, i) # 54);
    outer_key := set_byte(outer_key, i, get_byte(k, i) # 92);
  END LOOP;
  RETURN sha256(outer_key || sha256(inner_key || coalesce(p_message, ''::bytea)));
END
$fn$;

CREATE OR REPLACE FUNCTION operators.now_ms() RETURNS bigint
  LANGUAGE sql STABLE ${definer}
  AS $fn$ SELECT CAST(floor(extract(epoch FROM now()) * 1000) AS bigint) $fn$;

-- A random token's key (tickets, attempts, sessions): its SHA-256, hex.
CREATE OR REPLACE FUNCTION operators.key_of(p text) RETURNS text
  LANGUAGE sql IMMUTABLE ${definer}
  AS $fn$ SELECT encode(sha256(convert_to(p, 'UTF8')), 'hex') $fn$;

CREATE OR REPLACE FUNCTION operators.new_token() RETURNS text
  LANGUAGE sql VOLATILE ${definer}
  AS $fn$ SELECT replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', '') $fn$;

-- The calling desk: its login's (an argument naming another desk is refused), or under the shared credential the
-- argument (not told apart, as before each desk had its own login).
CREATE OR REPLACE FUNCTION operators.calling_desk(p_desk_id text) RETURNS text
  LANGUAGE plpgsql STABLE ${definer}
  AS $fn$
DECLARE
  own text := center.current_desk();
BEGIN
  IF center.shared_session() THEN
    IF p_desk_id IS NULL OR p_desk_id !~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN
      RAISE EXCEPTION 'operators: % is not a desk id', p_desk_id USING ERRCODE = '22023';
    END IF;
    RETURN p_desk_id;
  END IF;
  IF own IS NULL THEN
    RAISE EXCEPTION 'operators: this login is bound to no desk' USING ERRCODE = '42501';
  END IF;
  IF p_desk_id IS NOT NULL AND p_desk_id <> own THEN
    RAISE EXCEPTION 'operators: this login is desk %, not %', own, p_desk_id USING ERRCODE = '42501';
  END IF;
  RETURN own;
END
$fn$;

-- The operator acting through a session: open, unlocked, at the calling desk, the account enabled. For the other
-- schemas' functions (refund decisions…), never for a desk's login.
CREATE OR REPLACE FUNCTION operators.acting_operator(p_session_id text, p_desk_id text)
  RETURNS TABLE (operator_id text, role text)
  LANGUAGE sql STABLE ${definer}
  AS $fn$
  SELECT o.id, o.role FROM operators.sessions s JOIN operators.operators o ON o.id = s.operator_id
   WHERE s.session_id = operators.key_of(p_session_id) AND s.desk_id = operators.calling_desk(p_desk_id)
     AND s.locked = 0 AND o.disabled = 0
$fn$;

-- One manager override's ticket used up: the approver whose password was proven at the calling desk, once.
CREATE OR REPLACE FUNCTION operators.consume_override(p_ticket text, p_desk_id text)
  RETURNS TABLE (operator_id text, role text)
  LANGUAGE sql VOLATILE ${definer}
  AS $fn$
  WITH used AS (
    DELETE FROM operators.tickets t
     WHERE t.ticket_key = operators.key_of(p_ticket) AND t.kind = 'override'
       AND t.desk_id = operators.calling_desk(p_desk_id) AND t.expires_at > operators.now_ms()
    RETURNING t.operator_id
  )
  SELECT o.id, o.role FROM used JOIN operators.operators o ON o.id = used.operator_id WHERE o.disabled = 0
$fn$;

-- Run-out tickets go; rows another transaction holds are left for a later call (nothing here waits for a desk).
CREATE OR REPLACE FUNCTION operators.issue_ticket(p_kind text, p_operator_id text, p_desk text) RETURNS text
  LANGUAGE plpgsql VOLATILE ${definer}
  AS $fn$
DECLARE
  ticket text := operators.new_token();
BEGIN
  DELETE FROM operators.tickets t WHERE t.ticket_key IN (SELECT x.ticket_key FROM operators.tickets x
    WHERE x.expires_at <= operators.now_ms() FOR UPDATE SKIP LOCKED);
  INSERT INTO operators.tickets (ticket_key, kind, operator_id, desk_id, expires_at, may_rehash)
    VALUES (operators.key_of(ticket), p_kind, p_operator_id, p_desk, operators.now_ms() + ${TICKET_MS},
      p_kind = 'sign_in');
  RETURN ticket;
END
$fn$;

-- Free text the center keeps: never a card number (13 or more digits, however spaced or written: full-width and other
-- compatibility digits read as the digits they are), never control or text-direction characters.
CREATE OR REPLACE FUNCTION operators.clean_text(p text) RETURNS boolean
  LANGUAGE sql IMMUTABLE ${definer}
  AS $fn$
  SELECT p IS NOT NULL
     AND p !~ '[[:cntrl:]\x01-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]'
     AND regexp_replace(CASE WHEN current_setting('server_encoding') = 'UTF8' THEN normalize(p, NFKC) ELSE p END,
       '[^0-9]', '', 'g') !~ '[0-9]{13}'
$fn$;

CREATE OR REPLACE FUNCTION operators.valid_id(p_id text) RETURNS boolean
  LANGUAGE sql IMMUTABLE ${definer}
  AS $fn$ SELECT p_id IS NOT NULL AND p_id ~ '^[a-z0-9._-]{2,32}$' AND operators.clean_text(p_id) $fn$;

CREATE OR REPLACE FUNCTION operators.valid_name(p text) RETURNS boolean
  LANGUAGE sql IMMUTABLE ${definer}
  AS $fn$ SELECT p IS NOT NULL AND length(btrim(p)) BETWEEN 1 AND 80 AND operators.clean_text(p) $fn$;

-- Base64 as main writes it (padded, at least one group), decoded; anything else null.
CREATE OR REPLACE FUNCTION operators.b64(p text) RETURNS bytea
  LANGUAGE sql IMMUTABLE ${definer}
  AS $fn$
  SELECT CASE WHEN p ~ '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{4}|[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)$'
    THEN decode(p, 'base64') END
$fn$;

-- A stored hash's numbers: {log2 N, r, p, salt bytes, key bytes}; null when it is not of the shape main writes.
CREATE OR REPLACE FUNCTION operators.hash_numbers(p text) RETURNS integer[]
  LANGUAGE plpgsql IMMUTABLE ${definer}
  AS $fn$
DECLARE
  m text[] := regexp_match(p,
    '^\$scrypt\$ln=([0-9]{1,2}),r=([0-9]{1,2}),p=([0-9]{1,2})\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$');
  salt bytea;
  k bytea;
BEGIN
  IF m IS NULL THEN RETURN NULL; END IF;
  salt := operators.b64(m[4]);
  k := operators.b64(m[5]);
  IF salt IS NULL OR k IS NULL THEN RETURN NULL; END IF;
  RETURN ARRAY[m[1]::integer, m[2]::integer, m[3]::integer, length(salt), length(k)];
END
$fn$;

-- A hash within the bounds main reads (password.ts STORED_LIMITS): no stored hash makes a desk's derivation take minutes.
CREATE OR REPLACE FUNCTION operators.valid_hash(p text) RETURNS boolean
  LANGUAGE sql IMMUTABLE ${definer}
  AS $fn$
  SELECT coalesce(h[1] BETWEEN ${bounds.log2N[0]} AND ${bounds.log2N[1]} AND h[2] BETWEEN ${bounds.r[0]} AND ${bounds.r[1]}
     AND h[3] BETWEEN ${bounds.p[0]} AND ${bounds.p[1]} AND h[4] BETWEEN ${bounds.salt[0]} AND ${bounds.salt[1]}
     AND h[5] BETWEEN ${bounds.key[0]} AND ${bounds.key[1]}, false)
    FROM (SELECT operators.hash_numbers(p) AS h) x
$fn$;

-- A hash made now (a new account, a reset, a raise): also not below the weakest cost main makes (MIN_COST).
CREATE OR REPLACE FUNCTION operators.new_hash(p text) RETURNS boolean
  LANGUAGE sql IMMUTABLE ${definer}
  AS $fn$
  SELECT operators.valid_hash(p) AND h[1] >= ${MIN_COST.log2N} AND h[2] >= ${MIN_COST.r} AND h[3] >= ${MIN_COST.p}
    FROM (SELECT operators.hash_numbers(p) AS h) x
$fn$;

-- What the center keeps of a key a desk derived: its HMAC, only for a key of a length a hash has.
CREATE OR REPLACE FUNCTION operators.key_mac(p_key bytea) RETURNS bytea
  LANGUAGE sql VOLATILE ${definer}
  AS $fn$
  SELECT CASE WHEN p_key IS NOT NULL AND length(p_key) BETWEEN ${bounds.key[0]} AND ${bounds.key[1]}
    THEN operators.mac(convert_to('key:', 'UTF8') || p_key) END
$fn$;

-- Whether a kept key is the stored hash's: never for a hash that is not of the shape and bounds main writes, nor for no key.
CREATE OR REPLACE FUNCTION operators.key_matches(p_stored text, p_key_mac bytea) RETURNS boolean
  LANGUAGE sql VOLATILE ${definer}
  AS $fn$
  SELECT p_key_mac IS NOT NULL AND operators.valid_hash(p_stored)
     AND p_key_mac = operators.key_mac(operators.b64(split_part(p_stored, '$', 5)))
$fn$;

-- The cost an id that does not exist is answered with: the one most of the center's hashes have.
CREATE OR REPLACE FUNCTION operators.center_cost() RETURNS text
  LANGUAGE sql STABLE ${definer}
  AS $fn$
  SELECT coalesce((SELECT split_part(o.password_hash, '$', 3) FROM operators.operators o
    WHERE operators.valid_hash(o.password_hash) GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1), '${defaultCost}')
$fn$;

-- What a desk needs to derive the key of a password: the stored hash's cost and salt, never its key. An id that does not
-- exist (or whose hash is not one main reads) gets the center's usual cost and a salt of its own, the center's HMAC of
-- the id (the same at every call): the answer tells nothing.
CREATE OR REPLACE FUNCTION operators.password_params(p_id text) RETURNS text
  LANGUAGE plpgsql VOLATILE ${definer}
  AS $fn$
DECLARE
  v_id text := lower(btrim(coalesce(p_id, '')));
  stored text;
BEGIN
  SELECT o.password_hash INTO stored FROM operators.operators o WHERE o.id = v_id;
  IF operators.valid_hash(stored) THEN
    RETURN '$scrypt$' || split_part(stored, '$', 3) || '$' || split_part(stored, '$', 4) || '$' ||
      length(operators.b64(split_part(stored, '$', 5)));
  END IF;
  RETURN '$scrypt$' || operators.center_cost() || '$' ||
    encode(substring(operators.mac(convert_to('salt:' || v_id, 'UTF8')) FROM 1 FOR 16), 'base64') || '$32';
END
$fn$;

CREATE OR REPLACE FUNCTION operators.unknown_key(p_id text) RETURNS text
  LANGUAGE sql VOLATILE ${definer}
  AS $fn$ SELECT encode(operators.mac(convert_to('id:' || lower(btrim(coalesce(p_id, ''))), 'UTF8')), 'hex') $fn$;

-- Until when an id that does not exist is held (sign-in locked, override paused); null: not held.
CREATE OR REPLACE FUNCTION operators.unknown_held(p_id text, p_kind text) RETURNS bigint
  LANGUAGE plpgsql VOLATILE ${definer}
  AS $fn$
DECLARE
  -- Made once (an HMAC), then looked up by the primary key.
  k text := operators.unknown_key(p_id);
  found_until bigint;
BEGIN
  SELECT u.locked_until INTO found_until FROM operators.unknown_ids u
   WHERE u.id_key = k AND u.kind = p_kind AND u.locked_until > operators.now_ms();
  RETURN found_until;
END
$fn$;

-- One more failure for an id that does not exist; answers until when it is now held (null: not held). Counts untouched
-- for the lock window go, then the oldest beyond ${MAX_UNKNOWN_IDS}; rows another transaction holds are left for later.
CREATE OR REPLACE FUNCTION operators.unknown_failure(p_id text, p_kind text, p_max integer, p_hold_ms bigint)
  RETURNS bigint
  LANGUAGE plpgsql VOLATILE ${locking}
  AS $fn$
DECLARE
  now_ms bigint := operators.now_ms();
  k text := operators.unknown_key(p_id);
  row_found operators.unknown_ids%ROWTYPE;
  kept integer;
BEGIN
  DELETE FROM operators.unknown_ids u WHERE (u.id_key, u.kind) IN (SELECT x.id_key, x.kind FROM operators.unknown_ids x
    WHERE x.touched_at < now_ms - ${n.lockoutMs} FOR UPDATE SKIP LOCKED);
  INSERT INTO operators.unknown_ids AS u (id_key, kind, failures, locked_until, touched_at)
    VALUES (k, p_kind, 1, CASE WHEN 1 >= p_max THEN now_ms + p_hold_ms END, now_ms)
    ON CONFLICT (id_key, kind) DO UPDATE SET
      failures = CASE WHEN u.locked_until IS NOT NULL AND u.locked_until > now_ms THEN u.failures
                      WHEN u.locked_until IS NOT NULL THEN 1 ELSE u.failures + 1 END,
      locked_until = CASE WHEN u.locked_until IS NOT NULL AND u.locked_until > now_ms THEN u.locked_until
                          WHEN (CASE WHEN u.locked_until IS NOT NULL THEN 1 ELSE u.failures + 1 END) >= p_max
                            THEN now_ms + p_hold_ms END,
      touched_at = now_ms
    RETURNING * INTO row_found;
  SELECT count(*) INTO kept FROM (SELECT FROM operators.unknown_ids LIMIT ${MAX_UNKNOWN_IDS + 1}) c;
  IF kept > ${MAX_UNKNOWN_IDS} THEN
    DELETE FROM operators.unknown_ids u WHERE (u.id_key, u.kind) IN (SELECT x.id_key, x.kind FROM operators.unknown_ids x
      WHERE (x.id_key, x.kind) <> (k, p_kind) ORDER BY x.touched_at LIMIT kept - ${MAX_UNKNOWN_IDS}
      FOR UPDATE SKIP LOCKED);
  END IF;
  RETURN CASE WHEN row_found.locked_until > now_ms THEN row_found.locked_until END;
END
$fn$;

-- An attempt to prove a password (p_kind sign_in: a sign-in; override: a manager override's signature), counted now:
-- the sign-in's failures lock the account after ${n.maxFailed} for ${n.lockoutMs} ms, the override's pause it after
-- ${n.overrideMax} in a row for ${n.overridePauseMs} ms (apart from the sign-in's), by the center's clock; a locked or
-- paused id is not counted and its attempt refused unread. An id that does not exist is counted the same (unknown_ids).
-- Answers the attempt's token and nothing of the key: the desk commits this statement, then asks sign_in or
-- verify_override to compare.
CREATE OR REPLACE FUNCTION operators.begin_attempt(p_kind text, p_id text, p_key text, p_desk_id text) RETURNS text
  LANGUAGE plpgsql VOLATILE ${locking}
  AS $fn$
DECLARE
  desk text := operators.calling_desk(p_desk_id);
  v_id text := lower(btrim(coalesce(p_id, '')));
  now_ms bigint := operators.now_ms();
  made bigint := CAST(floor(extract(epoch FROM clock_timestamp()) * 1000) AS bigint);
  token text := operators.new_token();
  o operators.operators%ROWTYPE;
  known boolean;
  admitted text := 'counted';
  held bigint;
  set_until bigint;
  failures integer;
BEGIN
  IF p_kind IS NULL OR p_kind NOT IN ('sign_in', 'override') THEN
    RAISE EXCEPTION 'operators: % is not an attempt', p_kind USING ERRCODE = '22023';
  END IF;
  DELETE FROM operators.attempts a WHERE a.attempt_key IN (SELECT x.attempt_key FROM operators.attempts x
    WHERE x.expires_at <= now_ms FOR UPDATE SKIP LOCKED);
  DELETE FROM operators.attempts a WHERE a.attempt_key IN (SELECT x.attempt_key FROM operators.attempts x
    WHERE x.desk_id = desk ORDER BY x.made_at DESC OFFSET ${MAX_DESK_ATTEMPTS - 1} LIMIT 16 FOR UPDATE SKIP LOCKED);
  SELECT * INTO o FROM operators.operators x WHERE x.id = v_id FOR UPDATE;
  known := FOUND;
  IF known AND p_kind = 'sign_in' THEN
    IF o.locked_until > now_ms THEN
      admitted := 'locked';
      held := o.locked_until;
    ELSE
      failures := CASE WHEN o.locked_until IS NOT NULL THEN 0 ELSE o.failed_attempts END + 1;
      IF failures >= ${n.maxFailed} THEN set_until := now_ms + ${n.lockoutMs}; END IF;
      UPDATE operators.operators x SET failed_attempts = failures, locked_until = set_until WHERE x.id = o.id;
    END IF;
  ELSIF known THEN
    IF o.override_paused_until > now_ms THEN
      admitted := 'override_paused';
      held := o.override_paused_until;
    ELSIF o.locked_until > now_ms THEN
      admitted := 'locked';
      held := o.locked_until;
    ELSE
      failures := CASE WHEN o.override_paused_until IS NOT NULL THEN 0 ELSE o.override_failures END + 1;
      IF failures >= ${n.overrideMax} THEN set_until := now_ms + ${n.overridePauseMs}; END IF;
      UPDATE operators.operators x
         SET override_failures = CASE WHEN set_until IS NOT NULL THEN 0 ELSE failures END,
             override_paused_until = set_until
       WHERE x.id = o.id;
    END IF;
  ELSIF p_kind = 'sign_in' THEN
    held := operators.unknown_held(v_id, 'sign_in');
    IF held IS NOT NULL THEN
      admitted := 'locked';
    ELSE
      set_until := operators.unknown_failure(v_id, 'sign_in', ${n.maxFailed}, ${n.lockoutMs});
    END IF;
  ELSE
    held := operators.unknown_held(v_id, 'override');
    IF held IS NOT NULL THEN
      admitted := 'override_paused';
    ELSE
      held := operators.unknown_held(v_id, 'sign_in');
      IF held IS NOT NULL THEN
        admitted := 'locked';
      ELSE
        set_until := operators.unknown_failure(v_id, 'override', ${n.overrideMax}, ${n.overridePauseMs});
      END IF;
    END IF;
  END IF;
  INSERT INTO operators.attempts (attempt_key, kind, operator_id, known, desk_id, key_mac, admitted, held_until,
    set_until, xact, made_at, expires_at)
    VALUES (operators.key_of(token), p_kind, v_id, known, desk,
      CASE WHEN admitted = 'counted' THEN operators.key_mac(operators.b64(p_key)) END, admitted, held, set_until,
      pg_current_xact_id(), made, now_ms + ${ATTEMPT_MS});
  RETURN token;
END
$fn$;

-- The comparison of a counted attempt, for sign_in and verify_override alike: only an attempt this desk counted in a
-- transaction that has committed (never the caller's own: 'no_attempt'), once. A wrong key changes nothing more (its
-- failure is counted already); the right one clears the count, and the lock or pause its own count set, and is told a
-- disabled account; on success a ticket for one session (sign_in) or one decision (override) at the calling desk.
CREATE OR REPLACE FUNCTION operators.prove(p_kind text, p_attempt text, p_desk_id text)
  RETURNS TABLE (outcome text, wait_ms bigint, display_name text, role text, disabled integer, ticket text)
  LANGUAGE plpgsql VOLATILE ${locking}
  AS $fn$
DECLARE
  desk text := operators.calling_desk(p_desk_id);
  now_ms bigint := operators.now_ms();
  a operators.attempts%ROWTYPE;
  o operators.operators%ROWTYPE;
  known boolean;
BEGIN
  DELETE FROM operators.attempts x
   WHERE x.attempt_key = operators.key_of(coalesce(p_attempt, '')) AND x.kind = p_kind AND x.desk_id = desk
     AND x.expires_at > now_ms
  RETURNING * INTO a;
  IF a.attempt_key IS NULL OR a.xact = pg_current_xact_id() OR pg_xact_status(a.xact) IS DISTINCT FROM 'committed' THEN
    RETURN QUERY SELECT 'no_attempt'::text, NULL::bigint, NULL::text, NULL::text, NULL::integer, NULL::text;
    RETURN;
  END IF;
  IF a.admitted <> 'counted' THEN
    RETURN QUERY SELECT a.admitted, greatest(a.held_until - now_ms, 0), NULL::text, NULL::text, NULL::integer,
      NULL::text;
    RETURN;
  END IF;
  known := a.known;
  IF known THEN
    SELECT * INTO o FROM operators.operators x WHERE x.id = a.operator_id FOR UPDATE;
    known := FOUND;
  END IF;
  IF NOT known OR NOT operators.key_matches(o.password_hash, a.key_mac) THEN
    -- The failure that locks a sign-in is told so, with the lock's whole length; the one that pauses an override is a
    -- wrong password, as on a desk.
    IF p_kind = 'sign_in' AND a.set_until IS NOT NULL THEN
      RETURN QUERY SELECT 'locked'::text, ${n.lockoutMs}::bigint, NULL::text, NULL::text, NULL::integer, NULL::text;
    ELSE
      RETURN QUERY SELECT 'invalid_credentials'::text, NULL::bigint, NULL::text, NULL::text, NULL::integer, NULL::text;
    END IF;
    RETURN;
  END IF;
  -- The right key: refused still while another attempt's count holds the id (a lock or pause this one did not set).
  IF p_kind = 'override' AND o.override_paused_until > now_ms AND o.override_paused_until IS DISTINCT FROM a.set_until
  THEN
    RETURN QUERY SELECT 'override_paused'::text, o.override_paused_until - now_ms, NULL::text, NULL::text,
      NULL::integer, NULL::text;
    RETURN;
  END IF;
  IF o.locked_until > now_ms AND (p_kind = 'override' OR o.locked_until IS DISTINCT FROM a.set_until) THEN
    RETURN QUERY SELECT 'locked'::text, o.locked_until - now_ms, NULL::text, NULL::text, NULL::integer, NULL::text;
    RETURN;
  END IF;
  IF p_kind = 'sign_in' THEN
    UPDATE operators.operators x SET failed_attempts = 0, locked_until = NULL WHERE x.id = o.id;
  ELSE
    UPDATE operators.operators x SET override_failures = 0, override_paused_until = NULL WHERE x.id = o.id;
  END IF;
  IF o.disabled = 1 THEN
    RETURN QUERY SELECT 'disabled'::text, NULL::bigint, NULL::text, NULL::text, NULL::integer, NULL::text;
    RETURN;
  END IF;
  -- A password proven: the center is in use (no desk's move-in adds an enabled account from now on).
  UPDATE operators.setup x SET in_use = true
   WHERE x.one IN (SELECT y.one FROM operators.setup y WHERE NOT y.in_use FOR UPDATE SKIP LOCKED);
  RETURN QUERY SELECT 'ok'::text, NULL::bigint, o.display_name, o.role, o.disabled,
    operators.issue_ticket(p_kind, o.id, desk);
END
$fn$;

-- A sign-in's comparison (begin_attempt 'sign_in' first); a disabled account is told only to whoever knows its
-- password; on success a ticket that opens one session at the calling desk.
CREATE OR REPLACE FUNCTION operators.sign_in(p_attempt text, p_desk_id text)
  RETURNS TABLE (outcome text, wait_ms bigint, display_name text, role text, disabled integer, ticket text)
  LANGUAGE sql VOLATILE ${definer}
  AS $fn$ SELECT * FROM operators.prove('sign_in', p_attempt, p_desk_id) $fn$;

-- A manager override's comparison (begin_attempt 'override' first); on success a ticket for one decision at the
-- calling desk.
CREATE OR REPLACE FUNCTION operators.verify_override(p_attempt text, p_desk_id text)
  RETURNS TABLE (outcome text, wait_ms bigint, display_name text, role text, disabled integer, ticket text)
  LANGUAGE sql VOLATILE ${definer}
  AS $fn$ SELECT * FROM operators.prove('override', p_attempt, p_desk_id) $fn$;

-- An older, weaker hash raised by the desk that just proved the password (its sign-in's ticket, once): only for an
-- enabled, unlocked account, to a hash main makes now, never below the stored one's cost.
CREATE OR REPLACE FUNCTION operators.rehash(p_ticket text, p_new_hash text, p_desk_id text) RETURNS boolean
  LANGUAGE plpgsql VOLATILE ${locking}
  AS $fn$
DECLARE
  desk text := operators.calling_desk(p_desk_id);
  now_ms bigint := operators.now_ms();
  who text;
  o operators.operators%ROWTYPE;
  raised integer[] := operators.hash_numbers(p_new_hash);
  stored integer[];
BEGIN
  IF NOT operators.new_hash(p_new_hash) THEN
    RAISE EXCEPTION 'operators: not a password hash' USING ERRCODE = '22023';
  END IF;
  UPDATE operators.tickets t SET may_rehash = false
   WHERE t.ticket_key = operators.key_of(coalesce(p_ticket, '')) AND t.kind = 'sign_in' AND t.desk_id = desk
     AND t.expires_at > now_ms AND t.may_rehash
  RETURNING t.operator_id INTO who;
  IF who IS NULL THEN RETURN false; END IF;
  SELECT * INTO o FROM operators.operators x WHERE x.id = who FOR UPDATE;
  IF NOT FOUND OR o.disabled = 1 OR o.locked_until > now_ms THEN RETURN false; END IF;
  stored := operators.hash_numbers(o.password_hash);
  IF stored IS NOT NULL AND (raised[1] < stored[1] OR raised[2] < stored[2] OR raised[3] < stored[3]) THEN
    RETURN false;
  END IF;
  UPDATE operators.operators x SET password_hash = p_new_hash WHERE x.id = who;
  RETURN true;
END
$fn$;

-- A session opened with a sign-in's ticket. Refused ('held') while the operator's session is open at another desk,
-- unless p_take_over: that one then ends ('ended'). A row of the calling desk is one it left behind: replaced.
CREATE OR REPLACE FUNCTION operators.open_session(p_ticket text, p_session_id text, p_take_over boolean, p_desk_id text)
  RETURNS TABLE (outcome text, held_desk text, held_since bigint)
  LANGUAGE plpgsql VOLATILE ${locking}
  AS $fn$
DECLARE
  desk text := operators.calling_desk(p_desk_id);
  now_ms bigint := operators.now_ms();
  who text;
  s operators.sessions%ROWTYPE;
BEGIN
  IF p_session_id IS NULL OR length(p_session_id) < 32 THEN
    RAISE EXCEPTION 'operators: a session id is at least 32 characters' USING ERRCODE = '22023';
  END IF;
  DELETE FROM operators.tickets t
   WHERE t.ticket_key = operators.key_of(coalesce(p_ticket, '')) AND t.kind = 'sign_in' AND t.desk_id = desk
     AND t.expires_at > now_ms
  RETURNING t.operator_id INTO who;
  IF who IS NULL OR NOT EXISTS (SELECT FROM operators.operators x WHERE x.id = who AND x.disabled = 0) THEN
    RETURN QUERY SELECT 'no_ticket'::text, NULL::text, NULL::bigint;
    RETURN;
  END IF;
  SELECT * INTO s FROM operators.sessions x WHERE x.operator_id = who FOR UPDATE;
  IF NOT FOUND THEN
    INSERT INTO operators.sessions (operator_id, session_id, desk_id, started_at, last_seen_at, locked)
      VALUES (who, operators.key_of(p_session_id), desk, now_ms, now_ms, 0);
    RETURN QUERY SELECT 'ok'::text, NULL::text, NULL::bigint;
    RETURN;
  END IF;
  IF s.desk_id <> desk AND NOT coalesce(p_take_over, false) THEN
    RETURN QUERY SELECT 'held'::text, s.desk_id, s.started_at;
    RETURN;
  END IF;
  UPDATE operators.sessions x SET session_id = operators.key_of(p_session_id), desk_id = desk, started_at = now_ms,
    last_seen_at = now_ms, locked = 0 WHERE x.operator_id = who;
  RETURN QUERY SELECT CASE WHEN s.desk_id = desk THEN 'ok' ELSE 'ended' END, s.desk_id, s.started_at;
END
$fn$;

CREATE OR REPLACE FUNCTION operators.session_open(p_operator_id text, p_session_id text) RETURNS boolean
  LANGUAGE sql STABLE ${definer}
  AS $fn$
  SELECT EXISTS (SELECT FROM operators.sessions s
    WHERE s.operator_id = lower(btrim(p_operator_id)) AND s.session_id = operators.key_of(p_session_id))
$fn$;

CREATE OR REPLACE FUNCTION operators.seen_session(p_session_id text, p_desk_id text) RETURNS boolean
  LANGUAGE plpgsql VOLATILE ${locking}
  AS $fn$
BEGIN
  UPDATE operators.sessions x SET last_seen_at = operators.now_ms()
   WHERE x.session_id = operators.key_of(p_session_id) AND x.desk_id = operators.calling_desk(p_desk_id);
  RETURN FOUND;
END
$fn$;

CREATE OR REPLACE FUNCTION operators.mark_session(p_session_id text, p_locked boolean, p_desk_id text) RETURNS boolean
  LANGUAGE plpgsql VOLATILE ${locking}
  AS $fn$
BEGIN
  UPDATE operators.sessions x SET locked = CASE WHEN p_locked THEN 1 ELSE 0 END, last_seen_at = operators.now_ms()
   WHERE x.session_id = operators.key_of(p_session_id) AND x.desk_id = operators.calling_desk(p_desk_id);
  RETURN FOUND;
END
$fn$;

CREATE OR REPLACE FUNCTION operators.close_session(p_session_id text, p_desk_id text) RETURNS void
  LANGUAGE sql VOLATILE ${locking}
  AS $fn$
  DELETE FROM operators.sessions x
   WHERE x.session_id = operators.key_of(p_session_id) AND x.desk_id = operators.calling_desk(p_desk_id)
$fn$;

CREATE OR REPLACE FUNCTION operators.close_desk_sessions(p_desk_id text) RETURNS integer
  LANGUAGE plpgsql VOLATILE ${locking}
  AS $fn$
DECLARE
  closed integer;
BEGIN
  DELETE FROM operators.sessions x WHERE x.desk_id = operators.calling_desk(p_desk_id);
  GET DIAGNOSTICS closed = ROW_COUNT;
  RETURN closed;
END
$fn$;

-- An account as main would store it: an id (not the trail's own), a clean name, a role, a hash main reads, and its
-- creator an id too (null: the first admin, or an account from before creators were kept).
CREATE OR REPLACE FUNCTION operators.insert_operator(p_id text, p_display_name text, p_role text, p_hash text,
  p_desk text, p_created_by text) RETURNS void
  LANGUAGE plpgsql VOLATILE ${definer}
  AS $fn$
DECLARE
  now_ms bigint := operators.now_ms();
BEGIN
  IF NOT operators.valid_id(p_id) OR p_id IN ('system', 'anonymous') THEN
    RAISE EXCEPTION 'operators: % is not an operator id', p_id USING ERRCODE = '22023';
  END IF;
  IF NOT operators.valid_name(p_display_name) THEN
    RAISE EXCEPTION 'operators: not a display name' USING ERRCODE = '22023';
  END IF;
  IF p_role IS NULL OR p_role NOT IN ('agent', 'supervisor', 'admin') THEN
    RAISE EXCEPTION 'operators: % is not a role', p_role USING ERRCODE = '22023';
  END IF;
  IF NOT operators.valid_hash(p_hash) THEN
    RAISE EXCEPTION 'operators: not a password hash' USING ERRCODE = '22023';
  END IF;
  IF p_created_by IS NOT NULL AND NOT operators.valid_id(p_created_by) THEN
    RAISE EXCEPTION 'operators: the creator is not an operator id' USING ERRCODE = '22023';
  END IF;
  INSERT INTO operators.operators (id, display_name, role, disabled, password_hash, failed_attempts, locked_until,
    override_failures, override_paused_until, created_at, updated_at, desk_id, created_by)
    VALUES (p_id, btrim(p_display_name), p_role, 0, p_hash, 0, NULL, 0, NULL, now_ms, now_ms, p_desk, p_created_by);
END
$fn$;

-- The first operator, an admin: only while the center's directory was never set up and has no account. The setup row
-- is one at most (its key): a second desk's first admin fails at it, whatever its snapshot. No table is locked.
CREATE OR REPLACE FUNCTION operators.create_first_admin(p_id text, p_display_name text, p_hash text, p_desk_id text)
  RETURNS text
  LANGUAGE plpgsql VOLATILE ${locking}
  AS $fn$
DECLARE
  desk text := operators.calling_desk(p_desk_id);
BEGIN
  IF EXISTS (SELECT FROM operators.setup) OR EXISTS (SELECT FROM operators.operators) THEN RETURN 'setup_done'; END IF;
  IF NOT operators.new_hash(p_hash) THEN
    RAISE EXCEPTION 'operators: not a password hash' USING ERRCODE = '22023';
  END IF;
  INSERT INTO operators.setup (how, desk_id, made_at, in_use) VALUES ('first_admin', desk, operators.now_ms(), true)
    ON CONFLICT DO NOTHING;
  IF NOT FOUND THEN RETURN 'setup_done'; END IF;
  PERFORM operators.insert_operator(p_id, p_display_name, 'admin', p_hash, desk, NULL);
  RETURN 'ok';
END
$fn$;

-- The admin acting through the session (open, unlocked, at the calling desk, enabled, an admin), or null.
CREATE OR REPLACE FUNCTION operators.acting_admin(p_session_id text, p_desk_id text) RETURNS text
  LANGUAGE sql STABLE ${definer}
  AS $fn$
  SELECT a.operator_id FROM operators.acting_operator(p_session_id, p_desk_id) a WHERE a.role = 'admin'
$fn$;

CREATE OR REPLACE FUNCTION operators.create_operator(p_session_id text, p_id text, p_display_name text, p_role text,
  p_hash text, p_desk_id text) RETURNS text
  LANGUAGE plpgsql VOLATILE ${locking}
  AS $fn$
DECLARE
  desk text := operators.calling_desk(p_desk_id);
  actor text := operators.acting_admin(p_session_id, p_desk_id);
BEGIN
  IF actor IS NULL THEN RETURN 'forbidden'; END IF;
  IF EXISTS (SELECT FROM operators.operators x WHERE x.id = p_id) THEN RETURN 'already_exists'; END IF;
  IF NOT operators.new_hash(p_hash) THEN
    RAISE EXCEPTION 'operators: not a password hash' USING ERRCODE = '22023';
  END IF;
  PERFORM operators.insert_operator(p_id, p_display_name, p_role, p_hash, desk, actor);
  RETURN 'ok';
EXCEPTION WHEN unique_violation THEN
  RETURN 'already_exists';
END
$fn$;

-- Whether a change would leave no enabled admin: the enabled admins are locked first, so two desks cannot each take one.
CREATE OR REPLACE FUNCTION operators.last_admin(p_target text) RETURNS boolean
  LANGUAGE plpgsql VOLATILE ${definer}
  AS $fn$
DECLARE
  admins text[];
BEGIN
  SELECT array_agg(x.id) INTO admins FROM (SELECT o.id FROM operators.operators o
    WHERE o.role = 'admin' AND o.disabled = 0 ORDER BY o.id FOR UPDATE) x;
  RETURN p_target = ANY (coalesce(admins, '{}')) AND cardinality(admins) <= 1;
END
$fn$;

CREATE OR REPLACE FUNCTION operators.set_role(p_session_id text, p_id text, p_role text, p_desk_id text) RETURNS text
  LANGUAGE plpgsql VOLATILE ${locking}
  AS $fn$
DECLARE
  actor text := operators.acting_admin(p_session_id, p_desk_id);
  target operators.operators%ROWTYPE;
BEGIN
  IF actor IS NULL THEN RETURN 'forbidden'; END IF;
  IF p_role IS NULL OR p_role NOT IN ('agent', 'supervisor', 'admin') THEN
    RAISE EXCEPTION 'operators: % is not a role', p_role USING ERRCODE = '22023';
  END IF;
  IF p_role <> 'admin' AND operators.last_admin(lower(btrim(p_id))) THEN RETURN 'last_admin'; END IF;
  SELECT * INTO target FROM operators.operators x WHERE x.id = lower(btrim(p_id)) FOR UPDATE;
  IF NOT FOUND THEN RETURN 'not_found'; END IF;
  IF target.role <> p_role THEN
    UPDATE operators.operators x SET role = p_role, updated_at = operators.now_ms() WHERE x.id = target.id;
  END IF;
  RETURN 'ok';
END
$fn$;

CREATE OR REPLACE FUNCTION operators.set_disabled(p_session_id text, p_id text, p_disabled boolean, p_desk_id text)
  RETURNS text
  LANGUAGE plpgsql VOLATILE ${locking}
  AS $fn$
DECLARE
  actor text := operators.acting_admin(p_session_id, p_desk_id);
  target operators.operators%ROWTYPE;
BEGIN
  IF actor IS NULL THEN RETURN 'forbidden'; END IF;
  IF p_disabled IS NULL THEN RAISE EXCEPTION 'operators: disabled is true or false' USING ERRCODE = '22023'; END IF;
  IF p_disabled AND operators.last_admin(lower(btrim(p_id))) THEN RETURN 'last_admin'; END IF;
  SELECT * INTO target FROM operators.operators x WHERE x.id = lower(btrim(p_id)) FOR UPDATE;
  IF NOT FOUND THEN RETURN 'not_found'; END IF;
  IF (target.disabled = 1) <> p_disabled THEN
    UPDATE operators.operators x SET disabled = CASE WHEN p_disabled THEN 1 ELSE 0 END, updated_at = operators.now_ms()
     WHERE x.id = target.id;
  END IF;
  RETURN 'ok';
END
$fn$;

-- A new password set by an admin; every lockout of the account is cleared (the sign-in's and override's pause), and
-- every ticket the old password won goes with it.
CREATE OR REPLACE FUNCTION operators.reset_password(p_session_id text, p_id text, p_hash text, p_desk_id text)
  RETURNS text
  LANGUAGE plpgsql VOLATILE ${locking}
  AS $fn$
DECLARE
  actor text := operators.acting_admin(p_session_id, p_desk_id);
BEGIN
  IF actor IS NULL THEN RETURN 'forbidden'; END IF;
  IF NOT operators.new_hash(p_hash) THEN
    RAISE EXCEPTION 'operators: not a password hash' USING ERRCODE = '22023';
  END IF;
  UPDATE operators.operators x SET password_hash = p_hash, failed_attempts = 0, locked_until = NULL,
    override_failures = 0, override_paused_until = NULL, updated_at = operators.now_ms()
   WHERE x.id = lower(btrim(p_id));
  IF NOT FOUND THEN RETURN 'not_found'; END IF;
  DELETE FROM operators.tickets t WHERE t.operator_id = lower(btrim(p_id));
  RETURN 'ok';
END
$fn$;

-- An account of a desk's embedded file moved into the center (--move-in-center). Into a center this desk's move-in set
-- up (it was empty; no password proven since; every account in it moved in by this desk) as it is: that desk's accounts
-- become the center's, as its first admin's would. Into any other, disabled, for one of its admins to enable: no desk's
-- file adds an enabled account, an admin above all, to a center that has its own. Decided from committed rows (the
-- setup row, the moved-in accounts by desk), never from what the calling transaction touched. A name the center has is
-- never replaced: 'same' when this desk moved it in, 'conflict' otherwise; no hash is compared.
CREATE OR REPLACE FUNCTION operators.move_in_operator(p_id text, p_display_name text, p_role text, p_disabled integer,
  p_hash text, p_created_at bigint, p_created_by text, p_desk_id text) RETURNS text
  LANGUAGE plpgsql VOLATILE ${locking}
  AS $fn$
DECLARE
  desk text := operators.calling_desk(p_desk_id);
  s operators.setup%ROWTYPE;
  populated boolean;
BEGIN
  IF EXISTS (SELECT FROM operators.operators x WHERE x.id = p_id) THEN
    RETURN CASE WHEN EXISTS (SELECT FROM operators.moved_in m WHERE m.operator_id = p_id AND m.desk_id = desk)
      THEN 'same' ELSE 'conflict' END;
  END IF;
  INSERT INTO operators.setup (how, desk_id, made_at, in_use) VALUES ('move_in', desk, operators.now_ms(), false)
    ON CONFLICT DO NOTHING;
  SELECT * INTO s FROM operators.setup x;
  populated := NOT (s.how = 'move_in' AND s.desk_id = desk AND NOT s.in_use)
    OR EXISTS (SELECT FROM operators.operators o
      WHERE NOT EXISTS (SELECT FROM operators.moved_in m WHERE m.operator_id = o.id AND m.desk_id = desk));
  BEGIN
    PERFORM operators.insert_operator(p_id, p_display_name, p_role, p_hash, desk, p_created_by);
  EXCEPTION WHEN unique_violation THEN
    RETURN 'conflict';
  END;
  INSERT INTO operators.moved_in (operator_id, desk_id, moved_at) VALUES (p_id, desk, operators.now_ms());
  UPDATE operators.operators x SET created_at = p_created_at,
    disabled = CASE WHEN populated OR p_disabled = 1 THEN 1 ELSE 0 END
   WHERE x.id = p_id;
  RETURN CASE WHEN populated AND p_disabled = 0 THEN 'disabled' ELSE 'moved' END;
END
$fn$;
`;
}
