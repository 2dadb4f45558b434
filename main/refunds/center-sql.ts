/**
 * The refund requests' door on the center: SECURITY DEFINER functions that apply main's rules to every write of a
 * request, so that a desk's login, which reads the requests and writes no row, cannot approve one in a supervisor's
 * name. Who asks and who decides is the operator acting through a session open at the calling desk
 * (operators.acting_operator), or for a manager override the approver whose password the center proved
 * (operators.consume_override); the desk comes from the login (operators.calling_desk); the time from the center's
 * clock. No argument names the actor, the desk or the time.
 *
 * What the center cannot see stays in main: the payment as the service holds it (what is left to refund, the amount
 * confirmed) and the refund caps of the settings (per refund and per day, per role), which each desk reads from its own
 * settings file.
 */
import { RefundRequestOrigin } from '../../shared/desk';
import { CURRENCIES, MAX_CENTS, REFUND_REASONS } from '../../shared/payments';

/** The signatures the desks' logins may call (StoreDefinition.postgres.functions). */
export const REFUND_REQUEST_FUNCTIONS = [
  'add_request(text, text, text, bigint, text, text, text, text)',
  'add_system_request(text, text, bigint, text, text, text, text, text, text, text)',
  'decide(text, text, text, text, text)',
  'decide_override(text, text, text, text)',
  'settle(text, text, text, text)',
  'move_in_request(jsonb, text)',
] as const;

/** The longest note or decision note (RefundNote), and the longest failure kept (a refusal's sentence). */
export const NOTE_MAX = 500;
export const FAILURE_MAX = 2_000;

/** The roles that ask for a refund (the channel's TAKES_PAYMENTS), and those that decide one (APPROVERS). */
const REQUESTERS = ['agent', 'supervisor'] as const;
const DECIDERS = ['supervisor', 'admin'] as const;

const list = (values: readonly string[]): string => values.map((v) => `'${v.replaceAll("'", "''")}'`).join(', ');

/**
 * The SQL of migration 0004 (run again as it is by a later one that changes a function). Every name is schema-qualified;
 * every function runs with an empty search path.
 */
export function refundFunctionsSql(): string {
  const definer = `SECURITY DEFINER SET search_path = pg_catalog, pg_temp`;
  const refusal = (what: string): string => `RAISE EXCEPTION 'refund requests: %', ${what} USING ERRCODE = '22023'`;
  return `
CREATE OR REPLACE FUNCTION refund_requests.center_now() RETURNS timestamptz
  LANGUAGE sql STABLE ${definer}
  AS $fn$ SELECT date_trunc('milliseconds', now()) $fn$;

-- Luhn's check of a string of digits.
CREATE OR REPLACE FUNCTION refund_requests.luhn(p text) RETURNS boolean
  LANGUAGE plpgsql IMMUTABLE ${definer}
  AS $fn$
DECLARE
  n integer := length(p);
  total integer := 0;
  d integer;
BEGIN
  FOR k IN 0 .. n - 1 LOOP
    d := ascii(substr(p, n - k, 1)) - 48;
    IF k % 2 = 1 THEN
      d := d * 2;
      IF d > 9 THEN d := d - 9; END IF;
    END IF;
    total := total + d;
  END LOOP;
  RETURN n > 0 AND total % 10 = 0;
END
$fn$;

-- A Mexican bank account number (CLABE) as banks print it: 18 digits in one group or 3-3-11-1, its last digit checking
-- the 17 before it (weights 3, 7, 1). An agent may write one in a note.
CREATE OR REPLACE FUNCTION refund_requests.clabe(p_digits text, p_layout text) RETURNS boolean
  LANGUAGE plpgsql IMMUTABLE ${definer}
  AS $fn$
DECLARE
  total integer := 0;
  weights integer[] := ARRAY[3, 7, 1];
BEGIN
  IF length(p_digits) <> 18 OR p_layout NOT IN ('18', '3-3-11-1') THEN RETURN false; END IF;
  FOR i IN 0 .. 16 LOOP
    total := total + ((ascii(substr(p_digits, i + 1, 1)) - 48) * weights[i % 3 + 1]) % 10;
  END LOOP;
  RETURN (10 - total % 10) % 10 = ascii(substr(p_digits, 18, 1)) - 48;
END
$fn$;

-- Whether a text holds a card number: 13 to 19 digits, in groups joined by up to three signs or spaces ("4242 4242…",
-- "4242-4242…", one group per line), of a brand's first digit (1 to 6), passing Luhn, and not a CLABE. A coarse net
-- behind main's own detector (shared/text), which refuses the text first at the desk.
CREATE OR REPLACE FUNCTION refund_requests.holds_card_number(p text) RETURNS boolean
  LANGUAGE plpgsql IMMUTABLE ${definer}
  AS $fn$
DECLARE
  folded text;
  run text;
  groups text[];
  digits text;
  layout text;
BEGIN
  IF p IS NULL THEN RETURN false; END IF;
  -- Full-width and other compatibility digits as the ASCII digits they read as.
  folded := CASE WHEN current_setting('server_encoding') = 'UTF8' THEN normalize(p, NFKC) ELSE p END;
  FOR run IN SELECT m[1] FROM regexp_matches(folded, '([0-9]+(?:[^[:alnum:]]{1,3}[0-9]+)*)', 'g') AS m LOOP
    groups := regexp_split_to_array(run, '[^0-9]+');
    FOR i IN 1 .. cardinality(groups) LOOP
      digits := '';
      layout := '';
      FOR j IN i .. cardinality(groups) LOOP
        digits := digits || groups[j];
        layout := layout || CASE WHEN j > i THEN '-' ELSE '' END || length(groups[j]);
        EXIT WHEN length(digits) > 19;
        IF length(digits) >= 13 AND substr(digits, 1, 1) BETWEEN '1' AND '6' AND refund_requests.luhn(digits)
           AND NOT refund_requests.clabe(digits, layout) THEN
          RETURN true;
        END IF;
      END LOOP;
    END LOOP;
  END LOOP;
  RETURN false;
END
$fn$;

-- Text a request keeps: no card number, no control or text-direction characters (tabs and line breaks are text).
CREATE OR REPLACE FUNCTION refund_requests.clean_text(p text) RETURNS boolean
  LANGUAGE plpgsql IMMUTABLE ${definer}
  AS $fn$
BEGIN
  RETURN p IS NULL OR (p !~ '[\\x01-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f-\\x9f\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069]'
    AND NOT refund_requests.holds_card_number(p));
END
$fn$;

-- Free text an operator or the engine writes (a note, a decision's note, a failure): some words, clean, not too long.
CREATE OR REPLACE FUNCTION refund_requests.valid_text(p text, p_max integer) RETURNS boolean
  LANGUAGE plpgsql IMMUTABLE ${definer}
  AS $fn$
BEGIN
  RETURN p IS NOT NULL AND length(btrim(p)) >= 1 AND length(p) <= p_max AND refund_requests.clean_text(p);
END
$fn$;

CREATE OR REPLACE FUNCTION refund_requests.valid_operator_id(p text) RETURNS boolean
  LANGUAGE sql IMMUTABLE ${definer}
  AS $fn$ SELECT p IS NOT NULL AND p ~* '^[a-z0-9._-]{2,32}$' $fn$;

-- What every request must be, however it is written: a request id (a UUID), a payment's id, an amount that is none (all
-- that is left) or a positive whole number of cents, a currency and a reason the app knows.
CREATE OR REPLACE FUNCTION refund_requests.check_request(p_id text, p_payment_id text, p_amount_cents bigint,
  p_currency text, p_reason text) RETURNS void
  LANGUAGE plpgsql IMMUTABLE ${definer}
  AS $fn$
BEGIN
  IF p_id IS NULL OR p_id !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN
    ${refusal(`'not a request id'`)};
  END IF;
  IF p_payment_id IS NULL OR p_payment_id !~ '^[A-Za-z0-9_-]{1,100}$' THEN
    ${refusal(`'not a payment id'`)};
  END IF;
  IF p_amount_cents IS NOT NULL AND (p_amount_cents < 1 OR p_amount_cents > ${MAX_CENTS}) THEN
    ${refusal(`'the amount is a positive whole number of cents'`)};
  END IF;
  IF p_currency IS NULL OR p_currency NOT IN (${list(CURRENCIES)}) THEN
    ${refusal(`'not a currency of refunds'`)};
  END IF;
  IF p_reason IS NULL OR p_reason NOT IN (${list(REFUND_REASONS)}) THEN
    ${refusal(`'not a refund reason'`)};
  END IF;
END
$fn$;

-- The id of the one request the app puts in the queue for a payment and origin (systemRequestId in requests.ts): a
-- UUID of version 8 made from the SHA-256 of "origin:payment".
CREATE OR REPLACE FUNCTION refund_requests.system_request_id(p_origin text, p_payment_id text) RETURNS text
  LANGUAGE sql IMMUTABLE ${definer}
  AS $fn$
  SELECT substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-8' || substr(h, 14, 3) || '-' ||
    substr('89ab', (position(substr(h, 17, 1) IN '0123456789abcdef') - 1) % 4 + 1, 1) || substr(h, 18, 3) || '-' ||
    substr(h, 21, 12)
    FROM (SELECT encode(sha256(convert_to(p_origin || ':' || p_payment_id, 'UTF8')), 'hex') AS h) x
$fn$;

-- An operator's request: asked by the operator acting through the session at the calling desk (one who takes
-- payments), pending, stamped with that desk and the center's time. 'exists': a request of that id is there already.
CREATE OR REPLACE FUNCTION refund_requests.add_request(p_session_id text, p_id text, p_payment_id text,
  p_amount_cents bigint, p_currency text, p_reason text, p_note text, p_desk_id text)
  RETURNS TABLE (outcome text, request refund_requests.requests)
  LANGUAGE plpgsql VOLATILE ${definer}
  AS $fn$
DECLARE
  desk text := operators.calling_desk(p_desk_id);
  actor record;
  written refund_requests.requests%ROWTYPE;
BEGIN
  SELECT a.operator_id, a.role INTO actor FROM operators.acting_operator(p_session_id, desk) a;
  IF NOT FOUND OR actor.role NOT IN (${list(REQUESTERS)}) THEN
    outcome := 'forbidden';
    RETURN NEXT;
    RETURN;
  END IF;
  PERFORM refund_requests.check_request(p_id, p_payment_id, p_amount_cents, p_currency, p_reason);
  IF p_note IS NOT NULL AND NOT refund_requests.valid_text(p_note, ${NOTE_MAX}) THEN
    ${refusal(`'the note is not one a request keeps (a card number, hidden characters, too long)'`)};
  END IF;
  INSERT INTO refund_requests.requests AS x (id, payment_id, amount_cents, currency, reason, note, status, requested_by,
    requested_at, override, desk_id)
    VALUES (p_id, p_payment_id, p_amount_cents, p_currency, p_reason, p_note, 'pending', actor.operator_id,
      refund_requests.center_now(), 0, desk)
    ON CONFLICT (id) DO NOTHING
    RETURNING x.* INTO written;
  IF NOT FOUND THEN
    outcome := 'exists';
    RETURN NEXT;
    RETURN;
  END IF;
  outcome := 'ok';
  request := written;
  RETURN NEXT;
END
$fn$;

-- Whether a request the app makes is what the journal shows, where the center has the journal: the payment is there in
-- that currency, and holds at least that amount; a late success is of a payment that succeeded after it was abandoned,
-- for all of it, in the name of who abandoned it (the desk that did is the one alerted), its replacement on the same
-- reservation. So no desk queues a refund the app would not have.
CREATE OR REPLACE FUNCTION refund_requests.as_journaled(p_origin text, p_payment_id text, p_amount_cents bigint,
  p_currency text, p_requested_by text, p_linked_payment_id text, p_alert_desk_id text) RETURNS boolean
  LANGUAGE plpgsql STABLE ${definer}
  AS $fn$
DECLARE
  p record;
  linked_found boolean := true;
BEGIN
  IF to_regclass('journal.payments') IS NULL THEN RETURN true; END IF;
  EXECUTE 'SELECT x.status, x.amount_cents, lower(x.currency) AS currency, x.abandoned_at, x.abandoned_by,
      x.abandoned_desk_id, x.operator_id, x.reservation_key FROM journal.payments x WHERE x.id = $1'
    INTO p USING p_payment_id;
  IF p.status IS NULL OR p.currency <> p_currency OR p_amount_cents IS NULL OR p_amount_cents > p.amount_cents THEN
    RETURN false;
  END IF;
  IF p_origin <> 'late_success' THEN RETURN true; END IF;
  IF p_linked_payment_id IS NOT NULL THEN
    EXECUTE 'SELECT EXISTS (SELECT FROM journal.payments x WHERE x.id = $1 AND x.reservation_key = $2)'
      INTO linked_found USING p_linked_payment_id, p.reservation_key;
  END IF;
  RETURN p.status = 'succeeded' AND p.abandoned_at IS NOT NULL AND p_amount_cents = p.amount_cents
    AND p_requested_by = coalesce(p.abandoned_by, p.operator_id, 'system')
    AND p_alert_desk_id IS NOT DISTINCT FROM p.abandoned_desk_id AND linked_found;
END
$fn$;

-- A request the app puts in the queue (money the guest may be owed, found by a desk's engine): under the id made from
-- its origin and payment, once for the whole center ('exists': written already), with the reason its origin has,
-- pending, stamped with the calling desk and the center's time. It names the operator of the payment it is about.
CREATE OR REPLACE FUNCTION refund_requests.add_system_request(p_id text, p_payment_id text, p_amount_cents bigint,
  p_currency text, p_reason text, p_requested_by text, p_origin text, p_linked_payment_id text, p_alert_desk_id text,
  p_desk_id text)
  RETURNS TABLE (outcome text, request refund_requests.requests)
  LANGUAGE plpgsql VOLATILE ${definer}
  AS $fn$
DECLARE
  desk text := operators.calling_desk(p_desk_id);
  written refund_requests.requests%ROWTYPE;
BEGIN
  PERFORM refund_requests.check_request(p_id, p_payment_id, p_amount_cents, p_currency, p_reason);
  IF p_origin IS NULL OR p_origin NOT IN (${list(RefundRequestOrigin.options)}) THEN
    ${refusal(`'not an origin of a request the app makes'`)};
  END IF;
  IF lower(p_id) <> refund_requests.system_request_id(p_origin, p_payment_id) THEN
    ${refusal(`'a request the app makes has the id of its origin and payment'`)};
  END IF;
  IF p_reason <> (CASE WHEN p_origin = 'late_success' THEN 'duplicate' ELSE 'requested_by_customer' END) THEN
    ${refusal(`'not the reason of that origin'`)};
  END IF;
  IF NOT refund_requests.valid_operator_id(p_requested_by) THEN
    ${refusal(`'not an operator id'`)};
  END IF;
  IF p_linked_payment_id IS NOT NULL AND p_linked_payment_id !~ '^[A-Za-z0-9_-]{1,100}$' THEN
    ${refusal(`'not a payment id'`)};
  END IF;
  IF p_alert_desk_id IS NOT NULL AND p_alert_desk_id !~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN
    ${refusal(`'not a desk id'`)};
  END IF;
  IF NOT refund_requests.as_journaled(p_origin, p_payment_id, p_amount_cents, p_currency, p_requested_by,
      p_linked_payment_id, p_alert_desk_id) THEN
    ${refusal(`'not a request the journal shows the app would make'`)};
  END IF;
  INSERT INTO refund_requests.requests AS x (id, payment_id, amount_cents, currency, reason, note, status, requested_by,
    requested_at, override, desk_id, origin, linked_payment_id, alert_desk_id)
    VALUES (p_id, p_payment_id, p_amount_cents, p_currency, p_reason, NULL, 'pending', p_requested_by,
      refund_requests.center_now(), 0, desk, p_origin, p_linked_payment_id, p_alert_desk_id)
    ON CONFLICT (id) DO NOTHING
    RETURNING x.* INTO written;
  IF NOT FOUND THEN
    outcome := 'exists';
    RETURN NEXT;
    RETURN;
  END IF;
  outcome := 'ok';
  request := written;
  RETURN NEXT;
END
$fn$;

-- A decision by \`p_by\` (of role \`p_role\`) at desk \`p_desk\`: only by a supervisor or an admin, never on their own
-- request, only while the request is pending (of two deciders at once, one wins: the row is locked). Not for the desks.
CREATE OR REPLACE FUNCTION refund_requests.decided(p_id text, p_by text, p_role text, p_status text, p_note text,
  p_override boolean, p_desk text)
  RETURNS TABLE (outcome text, request refund_requests.requests)
  LANGUAGE plpgsql VOLATILE ${definer}
  AS $fn$
DECLARE
  r refund_requests.requests%ROWTYPE;
BEGIN
  SELECT * INTO r FROM refund_requests.requests x WHERE x.id = p_id FOR UPDATE;
  IF NOT FOUND THEN
    outcome := 'not_found';
  ELSIF p_role IS NULL OR p_role NOT IN (${list(DECIDERS)}) THEN
    outcome := 'approver_not_allowed';
  ELSIF lower(p_by) = lower(r.requested_by) THEN
    outcome := 'same_person';
  ELSIF r.status <> 'pending' THEN
    outcome := 'closed';
  ELSE
    UPDATE refund_requests.requests x SET status = p_status, decided_by = p_by, decided_at = refund_requests.center_now(),
      decision_note = p_note, override = CASE WHEN p_override THEN 1 ELSE 0 END, decided_desk_id = p_desk
     WHERE x.id = p_id
    RETURNING x.* INTO r;
    outcome := 'ok';
    request := r;
  END IF;
  RETURN NEXT;
END
$fn$;

-- A decision from the approvals queue: approved, or rejected with a note, by the operator acting through the session
-- at the calling desk ('forbidden': no such operator there).
CREATE OR REPLACE FUNCTION refund_requests.decide(p_session_id text, p_id text, p_status text, p_note text,
  p_desk_id text)
  RETURNS TABLE (outcome text, request refund_requests.requests)
  LANGUAGE plpgsql VOLATILE ${definer}
  AS $fn$
DECLARE
  desk text := operators.calling_desk(p_desk_id);
  actor record;
BEGIN
  IF p_status IS NULL OR p_status NOT IN ('approved', 'rejected') THEN
    ${refusal(`'a decision approves or rejects'`)};
  END IF;
  IF p_status = 'rejected' AND NOT refund_requests.valid_text(p_note, ${NOTE_MAX}) THEN
    ${refusal(`'a rejection says why, in a note a request keeps (no card number, no hidden characters)'`)};
  END IF;
  IF p_status = 'approved' AND p_note IS NOT NULL THEN
    ${refusal(`'an approval has no note'`)};
  END IF;
  SELECT a.operator_id, a.role INTO actor FROM operators.acting_operator(p_session_id, desk) a;
  IF NOT FOUND THEN
    outcome := 'forbidden';
    RETURN NEXT;
    RETURN;
  END IF;
  RETURN QUERY SELECT * FROM refund_requests.decided(p_id, actor.operator_id, actor.role, p_status, p_note, false, desk);
END
$fn$;

-- Manager override: the approval signed on the requester's own screen. The operator acting through the session at the
-- calling desk is the one who asked ('forbidden' otherwise; 'not_found' for another's request); the approver is the one
-- whose password the center proved at this desk for this one decision (the ticket, used up here; 'no_ticket' when it
-- is not one: made up, used, run out, of another desk).
CREATE OR REPLACE FUNCTION refund_requests.decide_override(p_session_id text, p_ticket text, p_id text,
  p_desk_id text)
  RETURNS TABLE (outcome text, request refund_requests.requests)
  LANGUAGE plpgsql VOLATILE ${definer}
  AS $fn$
DECLARE
  desk text := operators.calling_desk(p_desk_id);
  caller text;
  asker text;
  approver record;
BEGIN
  SELECT a.operator_id INTO caller FROM operators.acting_operator(p_session_id, desk) a;
  IF caller IS NULL THEN
    outcome := 'forbidden';
    RETURN NEXT;
    RETURN;
  END IF;
  SELECT x.requested_by INTO asker FROM refund_requests.requests x WHERE x.id = p_id;
  IF asker IS NULL OR lower(asker) <> lower(caller) THEN
    outcome := 'not_found';
    RETURN NEXT;
    RETURN;
  END IF;
  SELECT o.operator_id, o.role INTO approver FROM operators.consume_override(p_ticket, desk) o;
  IF NOT FOUND THEN
    outcome := 'no_ticket';
    RETURN NEXT;
    RETURN;
  END IF;
  RETURN QUERY SELECT * FROM refund_requests.decided(p_id, approver.operator_id, approver.role, 'approved', NULL, true,
    desk);
END
$fn$;

-- What an approval became, written by the desk that approved it (its engine sent the refund): the refund it made, once
-- (the same id again changes nothing), or why it was refused for good (the request fails; never once its refund is
-- known). 'not_approved': not an approval of the calling desk; 'settled': its refund is known already, another.
CREATE OR REPLACE FUNCTION refund_requests.settle(p_id text, p_refund_id text, p_failure text, p_desk_id text)
  RETURNS TABLE (outcome text, request refund_requests.requests)
  LANGUAGE plpgsql VOLATILE ${definer}
  AS $fn$
DECLARE
  desk text := operators.calling_desk(p_desk_id);
  r refund_requests.requests%ROWTYPE;
BEGIN
  IF (p_refund_id IS NULL) = (p_failure IS NULL) THEN
    ${refusal(`'a request is settled by its refund or by its failure'`)};
  END IF;
  IF p_refund_id IS NOT NULL AND p_refund_id !~ '^[A-Za-z0-9_-]{1,100}$' THEN
    ${refusal(`'not a refund id'`)};
  END IF;
  IF p_failure IS NOT NULL AND NOT refund_requests.valid_text(p_failure, ${FAILURE_MAX}) THEN
    ${refusal(`'the failure is not one a request keeps (a card number, hidden characters, too long)'`)};
  END IF;
  SELECT * INTO r FROM refund_requests.requests x WHERE x.id = p_id FOR UPDATE;
  IF NOT FOUND THEN
    outcome := 'not_found';
  ELSIF r.status <> 'approved' OR (r.decided_desk_id IS NOT NULL AND r.decided_desk_id <> desk) THEN
    outcome := 'not_approved';
  ELSIF r.refund_id IS NOT NULL AND (p_refund_id IS NULL OR r.refund_id <> p_refund_id) THEN
    outcome := 'settled';
  ELSE
    IF p_refund_id IS NOT NULL THEN
      UPDATE refund_requests.requests x SET refund_id = p_refund_id, failure = NULL WHERE x.id = p_id
      RETURNING x.* INTO r;
    ELSE
      UPDATE refund_requests.requests x SET status = 'failed', failure = p_failure WHERE x.id = p_id
      RETURNING x.* INTO r;
    END IF;
    outcome := 'ok';
    request := r;
  END IF;
  RETURN NEXT;
END
$fn$;

-- A request of a desk's embedded file moved into the center (--move-in-center), as the file has it: only the calling
-- desk's own (asked there, and decided there once decided), its text free of card numbers. 'same': a request of that id
-- is there already (left as the center has it).
CREATE OR REPLACE FUNCTION refund_requests.move_in_request(p_row jsonb, p_desk_id text) RETURNS text
  LANGUAGE plpgsql VOLATILE ${definer}
  AS $fn$
DECLARE
  desk text := operators.calling_desk(p_desk_id);
  r refund_requests.requests%ROWTYPE;
BEGIN
  r := jsonb_populate_record(NULL::refund_requests.requests, p_row);
  IF EXISTS (SELECT FROM refund_requests.requests x WHERE x.id = r.id) THEN RETURN 'same'; END IF;
  IF r.desk_id IS DISTINCT FROM desk THEN
    RAISE EXCEPTION 'refund requests: request % was not asked at desk %', r.id, desk USING ERRCODE = '42501';
  END IF;
  IF r.status = 'pending' AND (r.decided_by IS NOT NULL OR r.decided_at IS NOT NULL OR r.decided_desk_id IS NOT NULL
     OR r.refund_id IS NOT NULL) THEN
    RAISE EXCEPTION 'refund requests: request % is pending and decided', r.id USING ERRCODE = '22023';
  END IF;
  IF r.status <> 'pending' AND r.decided_desk_id IS DISTINCT FROM desk THEN
    RAISE EXCEPTION 'refund requests: request % was not decided at desk %', r.id, desk USING ERRCODE = '42501';
  END IF;
  IF r.amount_cents IS NOT NULL AND r.amount_cents < 1 THEN
    ${refusal(`'the amount is a positive whole number of cents'`)};
  END IF;
  IF r.id IS NULL OR r.id !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN
    ${refusal(`'not a request id'`)};
  END IF;
  IF NOT (refund_requests.clean_text(r.note) AND refund_requests.clean_text(r.decision_note)
     AND refund_requests.clean_text(r.failure) AND refund_requests.clean_text(r.reason)) THEN
    ${refusal(`'request ' || r.id || ' holds text a request does not keep (a card number, hidden characters)'`)};
  END IF;
  INSERT INTO refund_requests.requests VALUES (r.*);
  RETURN 'moved';
END
$fn$;
`;
}
