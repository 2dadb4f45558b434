/**
 * The center's desk registry: one row per desk id, with the nonce of the one computer that uses it. A desk checks it at
 * every start on the center, before it touches any other record: two computers with one desk id (a `desk.json` copied
 * with a disk image) would recover each other's operations, end each other's sessions and write one audit chain, so
 * the second is refused in words and told how to get an id of its own.
 *
 * The nonce is random, kept beside desk.json (desk-nonce.json) and changed at every start: a copy of the whole data
 * folder (the usual disk image) holds the nonce the center had when it was copied, and the first of the two computers
 * to start moves the center on, so the other is refused at its next start. The new nonce is written to the file before
 * the center's row commits and kept as "next" until it has, so that a desk stopped in between is not refused.
 * Embedded desks have no registry: their files are their own.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { sql, type ColumnType, type Kysely } from 'kysely';
import { z } from 'zod';
import { UserError } from '../errors';
import { isUniqueViolation, writeFileAtomic, type Storage, type StoreDefinition } from '../storage';
import { DESK_FILE, type DeskIdentity } from './desk-id';

export const DESK_NONCE_FILE = 'desk-nonce.json';

export interface DesksDB {
  desks: {
    desk_id: string;
    /** The nonce of the computer that uses this id; null: the next desk to start with this id adopts its own (IT's reset). */
    nonce: string | null;
    /** The computer's name at its last start, for IT's message. */
    host: string;
    /** ISO strings as the center's pool reads timestamptz. */
    first_started_at: ColumnType<string, never, never>;
    last_started_at: ColumnType<string, never, string>;
  };
}

/**
 * Each desk id is bound to the login role that first registered it with a credential of its own (center.desk_logins;
 * IT's docs/center/add-desk.sql may bind it beforehand): another login cannot register it, and a login registers one desk
 * id only. The shared app role (every desk's credential before each had its own) registers as before, binding nothing,
 * and may not register a desk bound to a login of its own; IT ends it by making the app role NOLOGIN.
 */
const REGISTER_DESK_SQL = `
CREATE FUNCTION desks.register_desk(p_desk_id text, p_known text[], p_next text, p_host text)
  RETURNS TABLE (outcome text, held text, host text, last_started_at timestamptz, bound_desk text)
  LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
  AS $fn$
DECLARE
  shared boolean := center.shared_session();
  me text := session_user::text;
  found_row desks.desks%ROWTYPE;
  existed boolean;
  elsewhere text;
  bound_to text;
BEGIN
  IF p_desk_id IS NULL OR p_desk_id !~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN
    RAISE EXCEPTION 'register_desk: % is not a desk id', p_desk_id USING ERRCODE = '22023';
  END IF;
  IF p_next IS NOT NULL AND p_next !~ '^[A-Za-z0-9_-]{22,64}$' THEN
    RAISE EXCEPTION 'register_desk: the next nonce is not valid' USING ERRCODE = '22023';
  END IF;
  IF NOT shared THEN
    SELECT l.desk_id INTO elsewhere FROM center.desk_logins l WHERE l.login_role = me AND l.desk_id <> p_desk_id;
    IF elsewhere IS NOT NULL THEN
      RETURN QUERY SELECT 'login_bound'::text, NULL::text, NULL::text, NULL::timestamptz, elsewhere;
      RETURN;
    END IF;
  END IF;
  SELECT * INTO found_row FROM desks.desks d WHERE d.desk_id = p_desk_id FOR UPDATE;
  existed := FOUND;
  SELECT l.login_role INTO bound_to FROM center.desk_logins l WHERE l.desk_id = p_desk_id;
  IF bound_to IS NOT NULL AND bound_to <> me THEN
    RETURN QUERY SELECT 'desk_bound'::text, NULL::text, NULL::text, NULL::timestamptz, NULL::text;
    RETURN;
  END IF;
  IF existed AND found_row.nonce IS NOT NULL AND NOT (found_row.nonce = ANY (coalesce(p_known, '{}'))) THEN
    -- Which computer uses it is said only to the desk's own login (or the shared one), never to a stranger probing ids.
    RETURN QUERY SELECT 'in_use'::text, NULL::text,
      CASE WHEN shared OR bound_to = me THEN found_row.host END,
      CASE WHEN shared OR bound_to = me THEN found_row.last_started_at END, NULL::text;
    RETURN;
  END IF;
  -- A row IT reset (no nonce) is taken again only by the login it is bound to, or the shared one: an unbound login
  -- would take the desk for good.
  IF existed AND found_row.nonce IS NULL AND bound_to IS NULL AND NOT shared THEN
    RETURN QUERY SELECT 'reset_unbound'::text, NULL::text, NULL::text, NULL::timestamptz, NULL::text;
    RETURN;
  END IF;
  IF p_next IS NOT NULL THEN
    IF existed THEN
      UPDATE desks.desks d SET nonce = p_next, host = p_host, last_started_at = now() WHERE d.desk_id = p_desk_id;
    ELSE
      INSERT INTO desks.desks (desk_id, nonce, host) VALUES (p_desk_id, p_next, p_host);
    END IF;
    IF NOT shared AND bound_to IS NULL THEN
      INSERT INTO center.desk_logins (login_role, desk_id) VALUES (me, p_desk_id);
    END IF;
  END IF;
  RETURN QUERY SELECT 'ok'::text, CASE WHEN existed THEN found_row.nonce END, NULL::text, NULL::timestamptz, NULL::text;
END
$fn$;
`;

export const DESKS_STORE: StoreDefinition = {
  name: 'desks',
  label: 'desk registry',
  sqlite: {
    // Never opened: an embedded desk's files are its own (registerDesk runs on the center only).
    file: 'desks.db',
    migrations: {},
  },
  postgres: {
    migrations: {
      '0001_desks': {
        up: async (db: Kysely<unknown>) => {
          await db.schema
            .createTable('desks')
            .addColumn('desk_id', 'text', (c) => c.primaryKey())
            .addColumn('nonce', 'text')
            .addColumn('host', 'text', (c) => c.notNull())
            .addColumn('first_started_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
            .addColumn('last_started_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
            .execute();
        },
      },
      '0002_register_desk': {
        up: (db: Kysely<unknown>) =>
          sql
            .raw(REGISTER_DESK_SQL)
            .execute(db)
            .then(() => undefined),
      },
    },
    // Rows are never deleted: IT clears a nonce (as the owner) to let a desk adopt its own again. A desk reads and writes
    // the registry only through register_desk: no desk reads another's nonce or takes another's row.
    grants: { desks: [] },
    // Whoever knows a desk's nonce could pass this check from another computer.
    secretColumns: { desks: ['nonce'] },
    functions: ['register_desk(text, text[], text, text)'],
  },
};

const NonceFile = z.strictObject({
  version: z.literal(1),
  deskId: z.uuid(),
  nonce: z.string().regex(/^[A-Za-z0-9_-]{22,64}$/),
  /** Written before the center's row takes it; the center may hold either. */
  next: z
    .string()
    .regex(/^[A-Za-z0-9_-]{22,64}$/)
    .optional(),
});
type NonceFile = z.output<typeof NonceFile>;

/**
 * The desk's id is used on the center by another computer (`host`, last started `lastStartedAt`): the desk's data folder
 * (`dataDir`) and its identity file (`file`) are named for IT by the catalogue (main/cli/messages.ts).
 */
export class DeskRegistryError extends UserError<'desk_id_in_use'> {
  override readonly name = 'DeskRegistryError';

  constructor(params: { deskId: string; host: string; lastStartedAt: string; dataDir: string; file: string }) {
    super('desk_id_in_use', { params });
  }
}

/**
 * This desk's credential and its id disagree on the center: the id is bound to another desk's login (`desk_bound`), or
 * this login to another desk id (`login_bound`, `boundDesk`): a credential copied from another desk, or desk.json. Or
 * IT reset the desk's row and its login is bound to no desk (`reset_unbound`): IT binds it first.
 */
export class DeskCredentialError extends UserError<'desk_credential_mismatch'> {
  override readonly name = 'DeskCredentialError';

  constructor(params: { deskId: string; reason: 'desk_bound' | 'login_bound' | 'reset_unbound'; boundDesk?: string }) {
    super('desk_credential_mismatch', { params });
  }
}

/** What desks.register_desk answers. */
interface Registration {
  outcome: 'ok' | 'in_use' | 'desk_bound' | 'login_bound' | 'reset_unbound';
  held: string | null;
  host: string | null;
  lastStartedAt: string | null;
  boundDesk: string | null;
}

const newNonce = (): string => randomBytes(24).toString('base64url');

async function readNonceFile(file: string, deskId: string): Promise<NonceFile | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const parsed = NonceFile.safeParse(JSON.parse(text));
    // A file made for another id (desk.json deleted and made again) or damaged: this computer starts afresh.
    return parsed.success && parsed.data.deskId === deskId ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

const writeNonceFile = (file: string, content: NonceFile): Promise<void> =>
  writeFileAtomic(file, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });

export interface RegisterDeskOptions {
  /** This computer's name (os.hostname() when not given). */
  host?: string;
}

/**
 * At start on the center: this computer's nonce checked against the registry's for its desk id, and a new one taken.
 * A desk id the center does not know is registered; a row without a nonce is adopted; another nonce refuses the start
 * (DeskRegistryError `desk_id_in_use`), nothing written.
 */
export async function registerDesk(
  storage: Storage,
  identity: DeskIdentity,
  dataDir: string,
  options: RegisterDeskOptions = {},
): Promise<void> {
  const host = options.host ?? hostname();
  const file = join(dataDir, DESK_NONCE_FILE);
  const kept = (await readNonceFile(file, identity.deskId)) ?? {
    version: 1 as const,
    deskId: identity.deskId,
    nonce: newNonce(),
  };
  const store = await storage.open<DesksDB>(DESKS_STORE);
  const next = newNonce();
  const known = [kept.nonce, ...(kept.next === undefined ? [] : [kept.next])];
  const register = async (trx: Kysely<DesksDB>, nonce: string | null): Promise<Registration> => {
    const { rows } = await sql<Registration>`
      SELECT outcome, held, host, last_started_at AS "lastStartedAt", bound_desk AS "boundDesk"
        FROM desks.register_desk(${identity.deskId}, ${known}, ${nonce}, ${host})`.execute(trx);
    const registration = rows[0];
    if (registration === undefined) throw new Error('desks.register_desk answered no row');
    if (registration.outcome === 'ok') return registration;
    if (registration.outcome === 'in_use') {
      throw new DeskRegistryError({
        deskId: identity.deskId,
        host: registration.host ?? 'another computer',
        lastStartedAt: registration.lastStartedAt === null ? 'unknown' : String(registration.lastStartedAt),
        dataDir,
        file: join(dataDir, DESK_FILE),
      });
    }
    throw new DeskCredentialError({
      deskId: identity.deskId,
      reason: registration.outcome,
      ...(registration.boundDesk === null ? {} : { boundDesk: registration.boundDesk }),
    });
  };
  // Two computers with one id starting at the same moment both find no row: the second's insert fails, it decides again.
  for (let attempt = 0; ; attempt++) {
    try {
      await store.transaction(async (trx) => {
        // Checked (the row locked), then the file says what the center may hold after this transaction, then written.
        const { held } = await register(trx, null);
        await writeNonceFile(file, { version: 1, deskId: identity.deskId, nonce: held ?? kept.nonce, next });
        await register(trx, next);
      });
      break;
    } catch (error) {
      if (!isUniqueViolation(error) || attempt > 0) throw error;
    }
  }
  await writeNonceFile(file, { version: 1, deskId: identity.deskId, nonce: next });
}
