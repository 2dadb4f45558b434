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
    },
    // Rows are never deleted: IT clears a nonce (as the owner) to let a desk adopt its own again.
    grants: { desks: ['SELECT', 'INSERT', 'UPDATE'] },
    // Whoever knows a desk's nonce could pass this check from another computer.
    secretColumns: { desks: ['nonce'] },
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
  // Two computers with one id starting at the same moment both find no row: the second's insert fails, it decides again.
  for (let attempt = 0; ; attempt++) {
    try {
      await store.transaction(async (trx) => {
        const row = await trx
          .selectFrom('desks')
          .select(['nonce', 'host', 'last_started_at'])
          .where('desk_id', '=', identity.deskId)
          .forUpdate()
          .executeTakeFirst();
        const held = row?.nonce ?? null;
        if (row !== undefined && held !== null && held !== kept.nonce && held !== kept.next) {
          throw new DeskRegistryError({
            deskId: identity.deskId,
            host: row.host,
            lastStartedAt: String(row.last_started_at),
            dataDir,
            file: join(dataDir, DESK_FILE),
          });
        }
        // What the center may hold after this transaction: the file says so before it commits.
        await writeNonceFile(file, { version: 1, deskId: identity.deskId, nonce: held ?? kept.nonce, next });
        if (row === undefined) {
          await trx.insertInto('desks').values({ desk_id: identity.deskId, nonce: next, host }).execute();
        } else {
          await trx
            .updateTable('desks')
            .set({ nonce: next, host, last_started_at: sql<string>`now()` })
            .where('desk_id', '=', identity.deskId)
            .execute();
        }
      });
      break;
    } catch (error) {
      if (!isUniqueViolation(error) || attempt > 0) throw error;
    }
  }
  await writeNonceFile(file, { version: 1, deskId: identity.deskId, nonce: next });
}
