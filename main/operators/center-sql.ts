/**
 * The operator directory's door on the center: SECURITY DEFINER functions that apply the rules main applies on the
 * embedded file (lockout, manager override's pause, one session per operator, admin-only changes, the last admin kept),
 * so that a desk's login, which reads no password hash or session key and writes no account row, cannot promote anyone,
 * copy a hash or take a session. Who is calling (the desk) comes from the login (center.current_desk()); an operator acts
 * through a session opened only with a password proven to the center (a sign-in ticket); no argument names the actor.
 */

/** The signatures the desks' logins may call (StoreDefinition.postgres.functions). */
export const OPERATOR_FUNCTIONS = [
  'password_params(text, text)',
  'sign_in(text, text, text)',
  'verify_override(text, text, text)',
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

/**
 * The SQL of migration 0005 (run again as it is by later ones that change a function): the tables only the functions
 * read, and the functions. Every name is schema-qualified; every function runs with an empty search path.
 */
export function operatorFunctionsSql(n: LockoutNumbers): string {
  const definer = `SECURITY DEFINER SET search_path = pg_catalog, pg_temp`;
  return `
CREATE TABLE IF NOT EXISTS operators.center_secret (
  one boolean PRIMARY KEY DEFAULT true CHECK (one),
  secret bytea NOT NULL
);
INSERT INTO operators.center_secret (secret)
  SELECT decode(replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', ''), 'hex')
  ON CONFLICT DO NOTHING;

-- A password proven to the center, for one use: a session's opening (sign_in) or one manager override's decision.
CREATE TABLE IF NOT EXISTS operators.tickets (
  ticket_key text PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('sign_in', 'override')),
  operator_id text NOT NULL,
  desk_id text NOT NULL,
  expires_at bigint NOT NULL
);

-- Failures against ids that do not exist, counted for the whole center as an account's are: the answers tell nothing.
CREATE TABLE IF NOT EXISTS operators.unknown_ids (
  id_key text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('sign_in', 'override')),
  failures integer NOT NULL,
  locked_until bigint,
  touched_at bigint NOT NULL,
  PRIMARY KEY (id_key, kind)
);

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

CREATE OR REPLACE FUNCTION operators.now_ms() RETURNS bigint
  LANGUAGE sql STABLE ${definer}
  AS $fn$ SELECT CAST(floor(extract(epoch FROM now()) * 1000) AS bigint) $fn$;

CREATE OR REPLACE FUNCTION operators.key_of(p text) RETURNS text
  LANGUAGE sql IMMUTABLE ${definer}
  AS $fn$ SELECT encode(sha256(convert_to(p, 'UTF8')), 'hex') $fn$;

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

CREATE OR REPLACE FUNCTION operators.issue_ticket(p_kind text, p_operator_id text, p_desk text) RETURNS text
  LANGUAGE plpgsql VOLATILE ${definer}
  AS $fn$
DECLARE
  ticket text := replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', '');
BEGIN
  DELETE FROM operators.tickets WHERE expires_at <= operators.now_ms();
  INSERT INTO operators.tickets (ticket_key, kind, operator_id, desk_id, expires_at)
    VALUES (operators.key_of(ticket), p_kind, p_operator_id, p_desk, operators.now_ms() + ${TICKET_MS});
  RETURN ticket;
END
$fn$;

CREATE OR REPLACE FUNCTION operators.valid_id(p_id text) RETURNS boolean
  LANGUAGE sql IMMUTABLE ${definer}
  AS $fn$ SELECT p_id IS NOT NULL AND p_id ~ '^[a-z0-9._-]{2,32}$' $fn$;

-- Free text the center keeps: never a card number (13 to 19 digits, however spaced), never control characters.
CREATE OR REPLACE FUNCTION operators.valid_name(p text) RETURNS boolean
  LANGUAGE sql IMMUTABLE ${definer}
  AS $fn$
  SELECT p IS NOT NULL AND length(btrim(p)) BETWEEN 1 AND 80 AND p !~ '[[:cntrl:]]'
     AND regexp_replace(p, '[^0-9]', '', 'g') !~ '[0-9]{13}'
$fn$;

CREATE OR REPLACE FUNCTION operators.valid_hash(p text) RETURNS boolean
  LANGUAGE sql IMMUTABLE ${definer}
  AS $fn$ SELECT p IS NOT NULL AND p ~ '^\\$scrypt\\$ln=[0-9]{1,2},r=[0-9]{1,2},p=[0-9]{1,2}\\$[A-Za-z0-9+/]+={0,2}\\$[A-Za-z0-9+/]+={0,2}$' $fn$;

-- What a desk needs to derive the key of a password: the stored hash's cost and salt, never its key. An id that does not
-- exist gets a salt of its own (the same at every call) and the asking desk's cost: the answer tells nothing.
CREATE OR REPLACE FUNCTION operators.password_params(p_id text, p_cost text) RETURNS text
  LANGUAGE plpgsql VOLATILE ${definer}
  AS $fn$
DECLARE
  stored text;
BEGIN
  IF p_cost IS NULL OR p_cost !~ '^ln=[0-9]{1,2},r=[0-9]{1,2},p=[0-9]{1,2}$' THEN
    RAISE EXCEPTION 'operators: the cost is not valid' USING ERRCODE = '22023';
  END IF;
  SELECT o.password_hash INTO stored FROM operators.operators o WHERE o.id = lower(btrim(p_id));
  IF stored IS NOT NULL THEN
    RETURN '$scrypt$' || split_part(stored, '$', 3) || '$' || split_part(stored, '$', 4) || '$' ||
      length(decode(split_part(stored, '$', 5), 'base64'));
  END IF;
  RETURN '$scrypt$' || p_cost || '$' || encode(substring(sha256(operators.secret() ||
    convert_to(lower(btrim(coalesce(p_id, ''))), 'UTF8')) FROM 1 FOR 16), 'base64') || '$32';
END
$fn$;

CREATE OR REPLACE FUNCTION operators.key_matches(p_stored text, p_key text) RETURNS boolean
  LANGUAGE sql IMMUTABLE ${definer}
  AS $fn$ SELECT p_key IS NOT NULL AND split_part(p_stored, '$', 5) = p_key $fn$;

-- One more failure for an id that does not exist; answers how long it is now held (null: not held).
CREATE OR REPLACE FUNCTION operators.unknown_failure(p_id text, p_kind text, p_max integer, p_hold_ms bigint)
  RETURNS bigint
  LANGUAGE plpgsql VOLATILE ${definer}
  AS $fn$
DECLARE
  now_ms bigint := operators.now_ms();
  k text := operators.key_of(lower(btrim(coalesce(p_id, ''))));
  row_found operators.unknown_ids%ROWTYPE;
BEGIN
  DELETE FROM operators.unknown_ids WHERE touched_at < now_ms - 2 * ${n.lockoutMs};
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
  RETURN CASE WHEN row_found.locked_until > now_ms THEN row_found.locked_until - now_ms END;
END
$fn$;

CREATE OR REPLACE FUNCTION operators.unknown_held(p_id text, p_kind text) RETURNS bigint
  LANGUAGE sql STABLE ${definer}
  AS $fn$
  SELECT u.locked_until - operators.now_ms() FROM operators.unknown_ids u
   WHERE u.id_key = operators.key_of(lower(btrim(coalesce(p_id, '')))) AND u.kind = p_kind
     AND u.locked_until > operators.now_ms()
$fn$;

-- A sign-in: lockout after ${n.maxFailed} failures for ${n.lockoutMs} ms (the center's clock), a disabled account told only
-- to whoever knows its password; on success a ticket that opens one session at the calling desk.
CREATE OR REPLACE FUNCTION operators.sign_in(p_id text, p_key text, p_desk_id text)
  RETURNS TABLE (outcome text, wait_ms bigint, display_name text, role text, disabled integer, ticket text)
  LANGUAGE plpgsql VOLATILE ${definer}
  AS $fn$
DECLARE
  desk text := operators.calling_desk(p_desk_id);
  v_id text := lower(btrim(coalesce(p_id, '')));
  now_ms bigint := operators.now_ms();
  o operators.operators%ROWTYPE;
  held bigint;
  failures integer;
BEGIN
  SELECT * INTO o FROM operators.operators x WHERE x.id = v_id FOR UPDATE;
  IF NOT FOUND THEN
    held := operators.unknown_held(v_id, 'sign_in');
    IF held IS NULL THEN held := operators.unknown_failure(v_id, 'sign_in', ${n.maxFailed}, ${n.lockoutMs}); END IF;
    RETURN QUERY SELECT CASE WHEN held IS NULL THEN 'invalid_credentials' ELSE 'locked' END, held,
      NULL::text, NULL::text, NULL::integer, NULL::text;
    RETURN;
  END IF;
  IF o.locked_until IS NOT NULL AND o.locked_until > now_ms THEN
    RETURN QUERY SELECT 'locked'::text, o.locked_until - now_ms, NULL::text, NULL::text, NULL::integer, NULL::text;
    RETURN;
  END IF;
  IF NOT operators.key_matches(o.password_hash, p_key) THEN
    failures := CASE WHEN o.locked_until IS NOT NULL THEN 0 ELSE o.failed_attempts END + 1;
    UPDATE operators.operators x SET failed_attempts = failures,
      locked_until = CASE WHEN failures >= ${n.maxFailed} THEN now_ms + ${n.lockoutMs} END
     WHERE x.id = o.id;
    RETURN QUERY SELECT CASE WHEN failures >= ${n.maxFailed} THEN 'locked' ELSE 'invalid_credentials' END,
      CASE WHEN failures >= ${n.maxFailed} THEN ${n.lockoutMs}::bigint END, NULL::text, NULL::text, NULL::integer, NULL::text;
    RETURN;
  END IF;
  IF o.disabled = 1 THEN
    RETURN QUERY SELECT 'disabled'::text, NULL::bigint, NULL::text, NULL::text, NULL::integer, NULL::text;
    RETURN;
  END IF;
  UPDATE operators.operators x SET failed_attempts = 0, locked_until = NULL WHERE x.id = o.id;
  RETURN QUERY SELECT 'ok'::text, NULL::bigint, o.display_name, o.role, o.disabled,
    operators.issue_ticket('sign_in', o.id, desk);
END
$fn$;

-- A manager override's signature: paused after ${n.overrideMax} wrong passwords in a row for ${n.overridePauseMs} ms, apart
-- from the sign-in's count; on success a ticket for one decision at the calling desk.
CREATE OR REPLACE FUNCTION operators.verify_override(p_id text, p_key text, p_desk_id text)
  RETURNS TABLE (outcome text, wait_ms bigint, display_name text, role text, disabled integer, ticket text)
  LANGUAGE plpgsql VOLATILE ${definer}
  AS $fn$
DECLARE
  desk text := operators.calling_desk(p_desk_id);
  v_id text := lower(btrim(coalesce(p_id, '')));
  now_ms bigint := operators.now_ms();
  o operators.operators%ROWTYPE;
  held bigint;
  failures integer;
BEGIN
  SELECT * INTO o FROM operators.operators x WHERE x.id = v_id FOR UPDATE;
  IF NOT FOUND THEN
    held := operators.unknown_held(v_id, 'override');
    IF held IS NULL THEN
      PERFORM operators.unknown_failure(v_id, 'override', ${n.overrideMax}, ${n.overridePauseMs});
    END IF;
    RETURN QUERY SELECT CASE WHEN held IS NULL THEN 'invalid_credentials' ELSE 'override_paused' END, held,
      NULL::text, NULL::text, NULL::integer, NULL::text;
    RETURN;
  END IF;
  IF o.override_paused_until IS NOT NULL AND o.override_paused_until > now_ms THEN
    RETURN QUERY SELECT 'override_paused'::text, o.override_paused_until - now_ms, NULL::text, NULL::text,
      NULL::integer, NULL::text;
    RETURN;
  END IF;
  IF o.locked_until IS NOT NULL AND o.locked_until > now_ms THEN
    RETURN QUERY SELECT 'locked'::text, o.locked_until - now_ms, NULL::text, NULL::text, NULL::integer, NULL::text;
    RETURN;
  END IF;
  IF NOT operators.key_matches(o.password_hash, p_key) THEN
    failures := CASE WHEN o.override_paused_until IS NOT NULL THEN 0 ELSE o.override_failures END + 1;
    UPDATE operators.operators x
       SET override_failures = CASE WHEN failures >= ${n.overrideMax} THEN 0 ELSE failures END,
           override_paused_until = CASE WHEN failures >= ${n.overrideMax} THEN now_ms + ${n.overridePauseMs} END
     WHERE x.id = o.id;
    RETURN QUERY SELECT 'invalid_credentials'::text, NULL::bigint, NULL::text, NULL::text, NULL::integer, NULL::text;
    RETURN;
  END IF;
  IF o.disabled = 1 THEN
    RETURN QUERY SELECT 'disabled'::text, NULL::bigint, NULL::text, NULL::text, NULL::integer, NULL::text;
    RETURN;
  END IF;
  UPDATE operators.operators x SET override_failures = 0, override_paused_until = NULL WHERE x.id = o.id;
  RETURN QUERY SELECT 'ok'::text, NULL::bigint, o.display_name, o.role, o.disabled,
    operators.issue_ticket('override', o.id, desk);
END
$fn$;

-- An older, weaker hash raised by a desk that just derived the old key: only while the password is still that one.
CREATE OR REPLACE FUNCTION operators.rehash(p_id text, p_old_key text, p_new_hash text) RETURNS boolean
  LANGUAGE plpgsql VOLATILE ${definer}
  AS $fn$
BEGIN
  IF NOT operators.valid_hash(p_new_hash) THEN
    RAISE EXCEPTION 'operators: not a password hash' USING ERRCODE = '22023';
  END IF;
  UPDATE operators.operators x SET password_hash = p_new_hash
   WHERE x.id = lower(btrim(p_id)) AND operators.key_matches(x.password_hash, p_old_key);
  RETURN FOUND;
END
$fn$;

-- A session opened with a sign-in's ticket. Refused ('held') while the operator's session is open at another desk,
-- unless p_take_over: that one then ends ('ended'). A row of the calling desk is one it left behind: replaced.
CREATE OR REPLACE FUNCTION operators.open_session(p_ticket text, p_session_id text, p_take_over boolean, p_desk_id text)
  RETURNS TABLE (outcome text, held_desk text, held_since bigint)
  LANGUAGE plpgsql VOLATILE ${definer}
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
  IF who IS NULL THEN
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
  LANGUAGE plpgsql VOLATILE ${definer}
  AS $fn$
BEGIN
  UPDATE operators.sessions x SET last_seen_at = operators.now_ms()
   WHERE x.session_id = operators.key_of(p_session_id) AND x.desk_id = operators.calling_desk(p_desk_id);
  RETURN FOUND;
END
$fn$;

CREATE OR REPLACE FUNCTION operators.mark_session(p_session_id text, p_locked boolean, p_desk_id text) RETURNS boolean
  LANGUAGE plpgsql VOLATILE ${definer}
  AS $fn$
BEGIN
  UPDATE operators.sessions x SET locked = CASE WHEN p_locked THEN 1 ELSE 0 END, last_seen_at = operators.now_ms()
   WHERE x.session_id = operators.key_of(p_session_id) AND x.desk_id = operators.calling_desk(p_desk_id);
  RETURN FOUND;
END
$fn$;

CREATE OR REPLACE FUNCTION operators.close_session(p_session_id text, p_desk_id text) RETURNS void
  LANGUAGE sql VOLATILE ${definer}
  AS $fn$
  DELETE FROM operators.sessions x
   WHERE x.session_id = operators.key_of(p_session_id) AND x.desk_id = operators.calling_desk(p_desk_id)
$fn$;

CREATE OR REPLACE FUNCTION operators.close_desk_sessions(p_desk_id text) RETURNS integer
  LANGUAGE plpgsql VOLATILE ${definer}
  AS $fn$
DECLARE
  closed integer;
BEGIN
  DELETE FROM operators.sessions x WHERE x.desk_id = operators.calling_desk(p_desk_id);
  GET DIAGNOSTICS closed = ROW_COUNT;
  RETURN closed;
END
$fn$;

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
  IF p_role NOT IN ('agent', 'supervisor', 'admin') THEN
    RAISE EXCEPTION 'operators: % is not a role', p_role USING ERRCODE = '22023';
  END IF;
  IF NOT operators.valid_hash(p_hash) THEN
    RAISE EXCEPTION 'operators: not a password hash' USING ERRCODE = '22023';
  END IF;
  INSERT INTO operators.operators (id, display_name, role, disabled, password_hash, failed_attempts, locked_until,
    override_failures, override_paused_until, created_at, updated_at, desk_id, created_by)
    VALUES (p_id, btrim(p_display_name), p_role, 0, p_hash, 0, NULL, 0, NULL, now_ms, now_ms, p_desk, p_created_by);
END
$fn$;

-- The first operator, an admin: only while there is none (the table is locked against a second desk doing the same).
CREATE OR REPLACE FUNCTION operators.create_first_admin(p_id text, p_display_name text, p_hash text, p_desk_id text)
  RETURNS text
  LANGUAGE plpgsql VOLATILE ${definer}
  AS $fn$
DECLARE
  desk text := operators.calling_desk(p_desk_id);
BEGIN
  LOCK TABLE operators.operators IN SHARE ROW EXCLUSIVE MODE;
  IF EXISTS (SELECT FROM operators.operators) THEN RETURN 'setup_done'; END IF;
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
  LANGUAGE plpgsql VOLATILE ${definer}
  AS $fn$
DECLARE
  desk text := operators.calling_desk(p_desk_id);
  actor text := operators.acting_admin(p_session_id, p_desk_id);
BEGIN
  IF actor IS NULL THEN RETURN 'forbidden'; END IF;
  IF EXISTS (SELECT FROM operators.operators x WHERE x.id = p_id) THEN RETURN 'already_exists'; END IF;
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
  LANGUAGE plpgsql VOLATILE ${definer}
  AS $fn$
DECLARE
  actor text := operators.acting_admin(p_session_id, p_desk_id);
  target operators.operators%ROWTYPE;
BEGIN
  IF actor IS NULL THEN RETURN 'forbidden'; END IF;
  IF p_role NOT IN ('agent', 'supervisor', 'admin') THEN
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
  LANGUAGE plpgsql VOLATILE ${definer}
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

-- A new password set by an admin; every lockout of the account is cleared (the sign-in's and override's pause).
CREATE OR REPLACE FUNCTION operators.reset_password(p_session_id text, p_id text, p_hash text, p_desk_id text)
  RETURNS text
  LANGUAGE plpgsql VOLATILE ${definer}
  AS $fn$
DECLARE
  actor text := operators.acting_admin(p_session_id, p_desk_id);
BEGIN
  IF actor IS NULL THEN RETURN 'forbidden'; END IF;
  IF NOT operators.valid_hash(p_hash) THEN
    RAISE EXCEPTION 'operators: not a password hash' USING ERRCODE = '22023';
  END IF;
  UPDATE operators.operators x SET password_hash = p_hash, failed_attempts = 0, locked_until = NULL,
    override_failures = 0, override_paused_until = NULL, updated_at = operators.now_ms()
   WHERE x.id = lower(btrim(p_id));
  RETURN CASE WHEN FOUND THEN 'ok' ELSE 'not_found' END;
END
$fn$;

-- An account of a desk's embedded file moved into the center (--move-in-center): into an empty center as it is (that
-- desk's accounts become the center's, as its first admin's would); into a center that has accounts, disabled, for one
-- of its admins to enable: no desk's file adds an enabled account, an admin above all, to a center that has its own.
-- A name the center has is never replaced ('conflict'); the very same account moved again is 'same'.
CREATE OR REPLACE FUNCTION operators.move_in_operator(p_id text, p_display_name text, p_role text, p_disabled integer,
  p_hash text, p_created_at bigint, p_created_by text, p_desk_id text) RETURNS text
  LANGUAGE plpgsql VOLATILE ${definer}
  AS $fn$
DECLARE
  desk text := operators.calling_desk(p_desk_id);
  there operators.operators%ROWTYPE;
  populated boolean;
BEGIN
  LOCK TABLE operators.operators IN SHARE ROW EXCLUSIVE MODE;
  SELECT * INTO there FROM operators.operators x WHERE x.id = p_id;
  IF FOUND THEN
    RETURN CASE WHEN there.password_hash = p_hash AND there.created_at = p_created_at THEN 'same' ELSE 'conflict' END;
  END IF;
  -- Accounts this same move-in wrote (this transaction's rows: their xmin is its id) do not make the center populated.
  populated := EXISTS (SELECT FROM operators.operators o
    WHERE o.xmin::text <> (pg_current_xact_id()::text::bigint % 4294967296)::text);
  PERFORM operators.insert_operator(p_id, p_display_name, p_role, p_hash, desk, p_created_by);
  UPDATE operators.operators x SET created_at = p_created_at,
    disabled = CASE WHEN populated OR p_disabled = 1 THEN 1 ELSE 0 END
   WHERE x.id = p_id;
  RETURN CASE WHEN populated AND p_disabled = 0 THEN 'disabled' ELSE 'moved' END;
END
$fn$;
`;
}
