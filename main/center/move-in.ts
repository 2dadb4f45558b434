/** `--move-in <data folder>`: a desk's records in its embedded SQLite files copied once into the center (IT's command), idempotent, each audit chain unchanged, reported store by store. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { AUDIT_STORE, walkChain, type AuditDB, type ChainRow } from '../audit/trail';
import { UserError } from '../errors';
import { DELIVERIES_STORE, type DeliveriesDB } from '../messaging/audit';
import { OPERATORS_STORE, type OperatorsDB } from '../operators/store';
import { JOURNAL_STORE, reservationKey, type JournalDB } from '../payments/journal';
import { REFUND_REQUESTS_STORE, type RefundRequestsDB } from '../refunds/requests';
import { confirmationKey } from '../reservations/match';
import { RESERVATIONS_STORE, type ReservationsDB } from '../reservations/store';
import {
  centerStorage,
  DESK_LOCK_FILE,
  openEmbeddedStore,
  tryDeskLock,
  type CenterConnectionOptions,
  type Storage,
  type StoreDatabase,
  type StoreDefinition,
} from '../storage';
import { containsCardData } from '../../shared/text';
import { CENTER_STORES } from './check';
import { centerConnection, describeCenter, type CenterSettings } from '../storage';
import { DESK_FILE, deskIdentity } from './desk-id';

export const MOVE_IN_FLAG = '--move-in';
/** The packaged app's own flag: this desk's data folder, its center setting and secret. */
export const MOVE_IN_CENTER_FLAG = '--move-in-center';

/** One table of a store: its rows in the desk's file, those this run wrote to the center, those the center already had. */
export interface TableMove {
  table: string;
  found: number;
  moved: number;
  alreadyThere: number;
}

export interface StoreMove {
  store: string;
  label: string;
  /** The desk's file (journal.db…). */
  file: string;
  /** moved: written (or all already there); absent: the desk has no such file; refused: nothing of this store was written. */
  status: 'moved' | 'absent' | 'refused';
  tables: TableMove[];
  /** Rows not moved because the center has another record under the same name (operators): for IT to settle. */
  conflicts: string[];
  /** Why nothing of the store was written (status refused), in words. */
  problem?: string;
}

export interface MoveInReport {
  deskId: string;
  /** The desk's data folder. */
  source: string;
  /** The center, host:port/database. */
  target: string;
  stores: StoreMove[];
  /** Every store moved (or already there), no conflict. */
  ok: boolean;
}

/** A refusal of one store's move, said for IT; its transaction is rolled back. */
class MoveRefused extends Error {
  override readonly name = 'MoveRefused';
}

/** Rows are read from the desk's files and written to the center this many at a time. */
const PAGE = 500;

/** The stores' tables seen without their types, for the generic steps (paging, inserting); each store maps its rows typed. */
type Row = Record<string, unknown>;
type LooseDB = Record<string, Row>;
const loose = <DB>(db: Kysely<DB> | Transaction<DB>): Kysely<LooseDB> => db as unknown as Kysely<LooseDB>;

/** A table of the desk's file, page by page in the order of `key` (its primary key). */
async function* pages<R>(db: Kysely<LooseDB>, table: string, key: string): AsyncGenerator<R[]> {
  let after: unknown;
  for (;;) {
    let query = db.selectFrom(table).selectAll().orderBy(key).limit(PAGE);
    if (after !== undefined) query = query.where(key, '>', after);
    const rows = await query.execute();
    if (rows.length > 0) yield rows as R[];
    if (rows.length < PAGE) return;
    after = rows.at(-1)?.[key];
  }
}

/** Inserts `rows` into the center, a row whose key (`conflict`) is already there left as it is; answers how many were written. */
async function insertNew(
  trx: Kysely<LooseDB>,
  table: string,
  rows: readonly Row[],
  conflict: readonly string[],
): Promise<number> {
  if (rows.length === 0) return 0;
  const result = await trx
    .insertInto(table)
    .values([...rows])
    .onConflict((oc) => oc.columns([...conflict]).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

/** Inserts rows of a log (no key of their own), the caller having left out those the center already has. */
async function insertAbsent(trx: Kysely<LooseDB>, table: string, rows: readonly Row[]): Promise<number> {
  if (rows.length === 0) return 0;
  await trx
    .insertInto(table)
    .values([...rows])
    .execute();
  return rows.length;
}

const without = <T extends Row, K extends keyof T>(row: T, key: K): Omit<T, K> => {
  const copy: Partial<T> = { ...row };
  delete copy[key];
  return copy as Omit<T, K>;
};

function tally(table: string): TableMove {
  return { table, found: 0, moved: 0, alreadyThere: 0 };
}

function count(move: TableMove, found: number, moved: number): void {
  move.found += found;
  move.moved += moved;
  move.alreadyThere += found - moved;
}

interface MoveContext {
  deskId: string;
}

type Mover<DB> = (
  desk: StoreDatabase<DB>,
  center: StoreDatabase<DB>,
  context: MoveContext,
) => Promise<{ tables: TableMove[]; conflicts: string[] }>;

/**
 * The payment journal. Every row of the desk's file is this desk's (as Journal.open names them); operations keep their
 * key and state: one still unanswered stays pending, so that the desk recovers it from the center at its next start with
 * the Idempotency-Key it wrote before sending it. The attempts (a log without keys of its own) are told apart by their
 * request id.
 */
const moveJournal: Mover<JournalDB> = async (desk, center, { deskId }) => {
  const from = loose(desk.db);
  const tables = {
    operations: tally('operations'),
    attempts: tally('attempts'),
    methods: tally('methods'),
    payments: tally('payments'),
    refunds: tally('refunds'),
  };
  // An earlier app let a second unanswered payment of one reservation through (it keeps no reservation key); the center's
  // rule allows one. The desk answers both at its next start on its own files.
  const unanswered = await desk.db
    .selectFrom('operations')
    .select(['reservation_id', 'reservation_key'])
    .where('kind', '=', 'create_payment')
    .where('state', '=', 'pending')
    .execute();
  const keys = unanswered.map((row) => row.reservation_key ?? reservationKey(row.reservation_id));
  const twice = unanswered.find((_, index) => keys.indexOf(keys[index] ?? '') !== index);
  if (twice !== undefined) {
    throw new MoveRefused(
      `this desk has two payments of reservation ${twice.reservation_id} still unanswered (an earlier version let it happen): start the desk once more on its own files so that it recovers them, stop it, then move it again`,
    );
  }
  await center.transaction(async (typed) => {
    const trx = loose(typed);
    for await (const page of pages<Selectable<JournalDB['operations']>>(from, 'operations', 'key')) {
      const rows = page.map((row) => ({
        ...row,
        desk_id: deskId,
        reservation_key: row.reservation_key ?? reservationKey(row.reservation_id),
      }));
      // The center's money rules, said for IT before the database refuses them: another desk's unanswered payment of the
      // same reservation (or refund of the same payment) must be answered first.
      for (const row of rows.filter((r) => r.state === 'pending')) {
        const rival = await typed
          .selectFrom('operations')
          .select(['key', 'desk_id'])
          .where('state', '=', 'pending')
          .where('key', '!=', row.key)
          .where((eb) =>
            row.kind === 'create_payment'
              ? eb.and([eb('kind', '=', 'create_payment'), eb('reservation_key', '=', row.reservation_key)])
              : row.kind === 'refund' && row.payment_id !== null
                ? eb.and([eb('kind', '=', 'refund'), eb('payment_id', '=', row.payment_id)])
                : eb.val(false),
          )
          .executeTakeFirst();
        if (rival !== undefined) {
          throw new MoveRefused(
            row.kind === 'create_payment'
              ? `this desk has a payment of reservation ${row.reservation_id} still unanswered, and desk ${rival.desk_id} has another one on the center: start that desk so that it recovers its own, then move this one again`
              : `this desk has a refund of payment ${row.payment_id ?? ''} still unanswered, and desk ${rival.desk_id} has another one on the center: start that desk so that it recovers its own, then move this one again`,
          );
        }
      }
      count(tables.operations, rows.length, await insertNew(trx, 'operations', rows, ['key']));
    }
    for await (const page of pages<Selectable<JournalDB['attempts']>>(from, 'attempts', 'id')) {
      const present = new Set(
        (
          await typed
            .selectFrom('attempts')
            .select('request_id')
            .where('desk_id', '=', deskId)
            .where(
              'request_id',
              'in',
              page.map((row) => row.request_id),
            )
            .execute()
        ).map((row) => row.request_id),
      );
      // The center numbers its own attempts (every desk's); the desk's numbers are not kept.
      const rows = page
        .filter((row) => !present.has(row.request_id))
        .map((row) => ({ ...without(row, 'id'), desk_id: deskId }));
      count(tables.attempts, page.length, await insertAbsent(trx, 'attempts', rows));
    }
    for await (const page of pages<Selectable<JournalDB['methods']>>(from, 'methods', 'id')) {
      const rows = page.map((row) => ({
        ...row,
        desk_id: deskId,
        reservation_key: row.reservation_key ?? reservationKey(row.reservation_id),
      }));
      count(tables.methods, rows.length, await insertNew(trx, 'methods', rows, ['id']));
    }
    for await (const page of pages<Selectable<JournalDB['payments']>>(from, 'payments', 'id')) {
      const rows = page.map((row) => ({
        ...row,
        desk_id: deskId,
        reservation_key: row.reservation_key ?? reservationKey(row.reservation_id),
      }));
      count(tables.payments, rows.length, await insertNew(trx, 'payments', rows, ['id']));
    }
    for await (const page of pages<Selectable<JournalDB['refunds']>>(from, 'refunds', 'id')) {
      count(
        tables.refunds,
        page.length,
        await insertNew(
          trx,
          'refunds',
          page.map((row) => ({ ...row, desk_id: deskId })),
          ['id'],
        ),
      );
    }
  });
  return { tables: Object.values(tables), conflicts: [] };
};

/**
 * Operator accounts, never merged: one whose name the center already has is left out (the center's account, its password
 * and its lockout stand) and named for IT, unless it is the very same account (a second run). Open sessions are not
 * moved: nobody is signed in at a stopped desk.
 */
const moveOperators: Mover<OperatorsDB> = async (desk, center, { deskId }) => {
  const operators = tally('operators');
  const conflicts: string[] = [];
  await center.transaction(async (trx) => {
    for await (const page of pages<Selectable<OperatorsDB['operators']>>(loose(desk.db), 'operators', 'id')) {
      for (const found of page) {
        const row = { ...found, id: found.id.trim().toLowerCase(), desk_id: found.desk_id ?? deskId };
        let there = await trx
          .selectFrom('operators')
          .select(['password_hash', 'created_at', 'desk_id'])
          .where('id', '=', row.id)
          .executeTakeFirst();
        let moved = 0;
        if (there === undefined) {
          moved = await insertNew(loose(trx), 'operators', [row], ['id']);
          if (moved === 0)
            there = await trx
              .selectFrom('operators')
              .select(['password_hash', 'created_at', 'desk_id'])
              .where('id', '=', row.id)
              .executeTakeFirst();
        }
        operators.found++;
        operators.moved += moved;
        if (moved === 1) continue;
        if (
          there !== undefined &&
          there.password_hash === row.password_hash &&
          Number(there.created_at) === Number(row.created_at)
        )
          operators.alreadyThere++;
        else {
          conflicts.push(
            `"${row.id}": the center already has an operator of that name (created at ${there?.desk_id === null || there?.desk_id === undefined ? 'another desk' : `desk ${there.desk_id}`}); ` +
              "the center's account, its role and its password stand, this desk's was not moved. The operator signs in with the center's password; IT renames or removes one of them if they are two people.",
          );
        }
      }
    }
  });
  return { tables: [operators], conflicts };
};

/** Refund requests keep their ids and decisions; those of before desk ids were asked (and decided) at this desk. */
const moveRefundRequests: Mover<RefundRequestsDB> = async (desk, center, { deskId }) => {
  const requests = tally('requests');
  await center.transaction(async (trx) => {
    for await (const page of pages<Selectable<RefundRequestsDB['requests']>>(loose(desk.db), 'requests', 'id')) {
      const rows = page.map((row) => ({
        ...row,
        desk_id: row.desk_id ?? deskId,
        decided_desk_id: row.decided_desk_id ?? (row.status === 'pending' ? null : deskId),
      }));
      count(requests, rows.length, await insertNew(loose(trx), 'requests', rows, ['id']));
    }
  });
  return { tables: [requests], conflicts: [] };
};

/**
 * The audit trail: each chain of the file (the desk's own, its rows of before desk ids included, and any other desk id the
 * file holds) copied row by row with its numbers and hashes, in the order the file wrote them; the center numbers the
 * rows in its trail. A chain that does not verify in the file is not moved; a center that already holds a different row
 * of the chain is refused (a chain never forks); after writing, each chain is walked again on the center before commit.
 */
const moveAudit: Mover<AuditDB> = async (desk, center, { deskId }) => {
  const audit = tally('audit');
  const NO_DESK = '';
  const chainOf = (stored: string): string => (stored === NO_DESK ? deskId : stored);
  const inFile = (await desk.db.selectFrom('audit').select('desk_id').distinct().execute()).map((row) => row.desk_id);
  const chains = [...new Set(inFile.map(chainOf))].sort();
  for (const chain of chains) {
    const stored = chain === deskId ? [deskId, NO_DESK] : [chain];
    const walk = await walkChain((fromSeq, limit) =>
      desk.db
        .selectFrom('audit')
        .selectAll()
        .where('desk_id', 'in', stored)
        .where('seq', '>=', fromSeq)
        .orderBy('seq')
        .limit(limit)
        .execute(),
    );
    if (!walk.ok) {
      throw new MoveRefused(
        `the desk's own audit trail does not verify (desk ${chain}, row ${walk.seq}: ${walk.reason}); keep the desk's audit.db as it is for an auditor, nothing of it was moved`,
      );
    }
  }
  await center.transaction(async (trx) => {
    // The desk's own appends on the center take the same turn (a desk started too early waits for the move).
    for (const chain of chains)
      await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`audit:${chain}`}, 0))`.execute(trx);
    for await (const page of pages<Selectable<AuditDB['audit']>>(loose(desk.db), 'audit', 'id')) {
      const rows: ChainRow[] = page.map((row) => ({ ...without(row, 'id'), desk_id: chainOf(row.desk_id) }));
      const absent = new Set<ChainRow>();
      for (const chain of new Set(rows.map((row) => row.desk_id))) {
        const mine = rows.filter((row) => row.desk_id === chain);
        const there = new Map(
          (
            await trx
              .selectFrom('audit')
              .select(['seq', 'prev_hash', 'hash'])
              .where('desk_id', '=', chain)
              .where(
                'seq',
                'in',
                mine.map((row) => row.seq),
              )
              .execute()
          ).map((row) => [Number(row.seq), row]),
        );
        for (const row of mine) {
          const other = there.get(row.seq);
          if (other === undefined) absent.add(row);
          else if (other.hash !== row.hash || other.prev_hash !== row.prev_hash) {
            throw new MoveRefused(
              `the center already has a different row ${row.seq} of desk ${chain}'s audit chain (that desk worked on the center after its files were last written?): ` +
                "moving it would fork the chain, so nothing of the audit trail was moved; keep the desk's audit.db for an auditor",
            );
          }
        }
      }
      const ordered = rows.filter((row) => absent.has(row));
      count(
        audit,
        rows.length,
        ordered.length === 0 ? 0 : await insertNew(loose(trx), 'audit', ordered, ['desk_id', 'seq']),
      );
    }
    for (const chain of chains) {
      const walk = await walkChain((fromSeq, limit) =>
        trx
          .selectFrom('audit')
          .selectAll()
          .where('desk_id', '=', chain)
          .where('seq', '>=', fromSeq)
          .orderBy('seq')
          .limit(limit)
          .execute(),
      );
      if (!walk.ok)
        throw new MoveRefused(
          `desk ${chain}'s audit chain would not verify on the center (row ${walk.seq}: ${walk.reason}); nothing of the audit trail was moved`,
        );
    }
  });
  return { tables: [audit], conflicts: [] };
};

/** One delivery's history line, as compared between the file and the center. */
const eventKey = (row: Omit<Selectable<DeliveriesDB['delivery_events']>, 'id'>): string =>
  JSON.stringify([
    row.message_id,
    row.at,
    row.status,
    row.provider_status,
    row.provider_code,
    row.failure_code,
    row.more_info,
  ]);

/** The link and receipt deliveries with their histories; those sent before desk ids were this desk's. */
const moveDeliveries: Mover<DeliveriesDB> = async (desk, center, { deskId }) => {
  const deliveries = tally('deliveries');
  const events = tally('delivery_events');
  await center.transaction(async (trx) => {
    for await (const page of pages<Selectable<DeliveriesDB['deliveries']>>(
      loose(desk.db),
      'deliveries',
      'message_id',
    )) {
      const rows = page.map((row) => ({ ...row, desk_id: row.desk_id === '' ? deskId : row.desk_id }));
      count(deliveries, rows.length, await insertNew(loose(trx), 'deliveries', rows, ['message_id']));
      const ids = rows.map((row) => row.message_id);
      const mine = await desk.db
        .selectFrom('delivery_events')
        .selectAll()
        .where('message_id', 'in', ids)
        .orderBy('id')
        .execute();
      // The center numbers its own history lines: a line is already there when the center has an equal one (as many times).
      const there = new Map<string, number>();
      for (const row of await trx.selectFrom('delivery_events').selectAll().where('message_id', 'in', ids).execute()) {
        there.set(eventKey(row), (there.get(eventKey(row)) ?? 0) + 1);
      }
      const absent = mine.filter((row) => {
        const left = there.get(eventKey(row)) ?? 0;
        if (left === 0) return true;
        there.set(eventKey(row), left - 1);
        return false;
      });
      count(
        events,
        mine.length,
        await insertAbsent(
          loose(trx),
          'delivery_events',
          absent.map((row) => without(row, 'id')),
        ),
      );
    }
  });
  return { tables: [deliveries, events], conflicts: [] };
};

/**
 * Imported reservations (the center's are every desk's): one the center already has under the same confirmation number
 * (imported at another desk) is left as the center has it. Training's demo guests are never moved.
 */
const moveReservations: Mover<ReservationsDB> = async (desk, center, { deskId }) => {
  const reservations = tally('reservations');
  await center.transaction(async (trx) => {
    for await (const page of pages<Selectable<ReservationsDB['reservations']>>(
      loose(desk.db),
      'reservations',
      'id_key',
    )) {
      const rows = page
        .filter((row) => row.origin === 'import')
        .map((row) => ({
          ...row,
          desk_id: row.desk_id === '' ? deskId : row.desk_id,
          confirmation_key: row.confirmation_key ?? confirmationKey(row.confirmation_number),
        }));
      count(reservations, rows.length, await insertNew(loose(trx), 'reservations', rows, ['id_key']));
    }
  });
  return { tables: [reservations], conflicts: [] };
};

interface StoreMover {
  definition: StoreDefinition;
  /** Opens the desk's file and the center's schema of the store, and moves it. */
  run: (
    dataDir: string,
    center: Storage,
    context: MoveContext,
  ) => Promise<{ tables: TableMove[]; conflicts: string[] }>;
}

function mover<DB>(definition: StoreDefinition, move: Mover<DB>): StoreMover {
  return {
    definition,
    run: async (dataDir, center, context) => {
      const desk = await openEmbeddedStore<DB>(dataDir, definition);
      try {
        return await move(desk, await center.open<DB>(definition), context);
      } finally {
        await desk.close();
      }
    },
  };
}

/**
 * The free text of a table (typed by a person, imported, or said by a provider) and how a row is named for IT: by an id
 * the app made, or by its row number in the file, never by anything typed (it could be the very card number).
 */
interface FreeText {
  table: string;
  columns: readonly string[];
  /** Those of `columns` that hold JSON: every string and number in it is looked at too (a line break is `\n` in the text). */
  json?: readonly string[];
  name: (row: Row, deskId: string) => string;
}

/** A row named by an id the app made (a UUID, the service's id). */
const byKey =
  (what: string, key: string) =>
  (row: Row): string =>
    `${what} ${String(row[key])}`;

/** A row named by its number in the file (SQLite's rowid): for tables whose key was typed or imported. */
const byRow =
  (what: string, file: string) =>
  (row: Row): string =>
    `${what} in row ${String(row[ROWID])} of ${file}`;

const ROWID = '__move_in_rowid';

/** Every string (keys too) and number of a JSON text; the text itself when it does not parse. */
function jsonTexts(text: string): string[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [text];
  }
  const found: string[] = [];
  const walk = (node: unknown): void => {
    if (typeof node === 'string') found.push(node);
    else if (typeof node === 'number' || typeof node === 'bigint') found.push(String(node));
    else if (Array.isArray(node)) node.forEach(walk);
    else if (node !== null && typeof node === 'object') {
      for (const [key, inner] of Object.entries(node)) {
        found.push(key);
        walk(inner);
      }
    }
  };
  walk(value);
  return found;
}

/** Whether a column's value holds card data: its text, and for JSON every string and number in it. */
function holdsCardData(value: unknown, json: boolean): boolean {
  if (typeof value !== 'string') return false;
  if (containsCardData(value)) return true;
  return json && jsonTexts(value).some(containsCardData);
}

/**
 * Every text column the movers copy that may hold words a person typed or a provider said (ids, hashes, amounts and dates
 * are not free text, and a hash could look like digits). A card number an older version let through would be carried into
 * the center, where every desk reads it: the move looks first.
 */
const FREE_TEXT: Readonly<Record<string, readonly FreeText[]>> = {
  [JOURNAL_STORE.name]: [
    {
      table: 'operations',
      columns: ['payload', 'error_code', 'reservation_id'],
      json: ['payload'],
      name: byKey('operation', 'key'),
    },
    {
      table: 'payments',
      columns: ['failure_message', 'metadata', 'reservation_id'],
      json: ['metadata'],
      name: byKey('payment', 'id'),
    },
    { table: 'refunds', columns: ['reason'], name: byKey('refund', 'id') },
  ],
  [OPERATORS_STORE.name]: [
    { table: 'operators', columns: ['id', 'display_name'], name: byRow('operator', OPERATORS_STORE.sqlite.file) },
  ],
  [REFUND_REQUESTS_STORE.name]: [
    { table: 'requests', columns: ['reason', 'note', 'decision_note', 'failure'], name: byKey('refund request', 'id') },
  ],
  [AUDIT_STORE.name]: [
    {
      table: 'audit',
      columns: ['actor', 'action', 'outcome', 'resource', 'request_id', 'details'],
      json: ['details'],
      name: (row, deskId) =>
        `row ${String(row.seq)} of desk ${row.desk_id === '' ? deskId : String(row.desk_id)}'s audit chain`,
    },
  ],
  [DELIVERIES_STORE.name]: [
    {
      table: 'deliveries',
      columns: ['destination_masked', 'failure_message', 'more_info'],
      name: byKey('delivery', 'message_id'),
    },
    {
      table: 'delivery_events',
      columns: ['provider_status', 'more_info'],
      name: (row) => `history line ${String(row.id)} of delivery ${String(row.message_id)}`,
    },
  ],
  // The confirmation number too: an older import kept any text there.
  [RESERVATIONS_STORE.name]: [
    {
      table: 'reservations',
      columns: ['confirmation_number', 'guest_name', 'hotel_name', 'guest_email'],
      name: byRow('reservation', RESERVATIONS_STORE.sqlite.file),
    },
  ],
};

/**
 * The first row of a store's file whose free text holds card data (a card number or a security code), named for IT with
 * its column, and how many such rows there are; undefined when there is none. The text itself never leaves this function.
 */
async function findCardDataInStore(
  dataDir: string,
  definition: StoreDefinition,
  deskId: string,
): Promise<{ where: string; column: string; rows: number } | undefined> {
  const desk = await openEmbeddedStore<LooseDB>(dataDir, definition);
  let first: { where: string; column: string } | undefined;
  let rows = 0;
  try {
    for (const text of FREE_TEXT[definition.name] ?? []) {
      // Page by the file's row number, which names a row whose key was typed.
      for (let after = 0; ; ) {
        const page = (await desk.db
          .selectFrom(text.table)
          .selectAll()
          .select(sql<number>`rowid`.as(ROWID))
          .where(sql<number>`rowid`, '>', after)
          .orderBy(sql`rowid`)
          .limit(PAGE)
          .execute()) as Row[];
        if (page.length === 0) break;
        after = Number(page.at(-1)?.[ROWID]);
        for (const row of page) {
          const column = text.columns.find((name) => holdsCardData(row[name], text.json?.includes(name) === true));
          if (column === undefined) continue;
          rows++;
          first ??= { where: `${text.table}: ${text.name(row, deskId)}`, column };
        }
      }
    }
  } finally {
    await desk.close();
  }
  return first === undefined ? undefined : { ...first, rows };
}

/** How each store is moved (each in its own transaction on the center); the stores are moved in CENTER_STORES' order. */
const MOVERS: readonly StoreMover[] = [
  mover(JOURNAL_STORE, moveJournal),
  mover(OPERATORS_STORE, moveOperators),
  mover(REFUND_REQUESTS_STORE, moveRefundRequests),
  mover(AUDIT_STORE, moveAudit),
  mover(DELIVERIES_STORE, moveDeliveries),
  mover(RESERVATIONS_STORE, moveReservations),
];

function said(error: unknown): string {
  if (error instanceof MoveRefused || error instanceof UserError) return error.message;
  return `unexpected error: ${error instanceof Error ? error.message : String(error)}`;
}

/** The folder given is not a desk's data folder, or its desk is running: IT's command, said on its output; never crosses the IPC door. */
export class MoveInError extends Error {
  override readonly name = 'MoveInError';
  /** runMoveIn's exit code: 2 not asked right (not a desk's folder), 1 a problem to settle first (the desk is running). */
  constructor(
    message: string,
    readonly exitCode: 1 | 2 = 2,
  ) {
    super(message);
  }
}

/**
 * Moves the records of the desk whose data folder is `dataDir` into `center` (the center's storage, as the app role):
 * every store in its own transaction, all of it or none; a store that cannot be moved is reported and the others still
 * are. Run again, it writes nothing that is already there. Throws MoveInError when `dataDir` is not a desk's data folder.
 */
export async function moveDeskIn(options: { dataDir: string; center: Storage; target: string }): Promise<MoveInReport> {
  const { dataDir, center } = options;
  if (center.backend !== 'postgres')
    throw new Error('moveDeskIn moves a desk into the center, not into another folder.');
  if (!existsSync(join(dataDir, DESK_FILE))) {
    throw new MoveInError(
      `${dataDir} has no ${DESK_FILE}: it is not the data folder of a desk of this version. Start the desk once with this version of the app on its own files (it names itself and brings its files up to date), stop it, then move it in.`,
    );
  }
  // A running desk holds its folder's lock (main/storage/desk-lock.ts); the move holds it in turn until it is done, so that
  // nothing is written to the files while they are copied.
  let lock: ReturnType<typeof tryDeskLock>;
  try {
    lock = tryDeskLock(dataDir);
  } catch (error) {
    throw new MoveInError(
      `${DESK_LOCK_FILE} could not be made in ${dataDir} (${error instanceof Error ? error.message : String(error)}): the move opens the desk's files for writing, as the desk does; run it as a user who may write in the folder.`,
      1,
    );
  }
  if (lock === undefined) {
    throw new MoveInError(
      `the desk is running on this folder: close it first (${dataDir}/${DESK_LOCK_FILE} is held by the desk, or by another move of this folder in progress), then move it in.`,
      1,
    );
  }
  try {
    return await moveLockedDesk(options);
  } finally {
    lock.release();
  }
}

async function moveLockedDesk(options: { dataDir: string; center: Storage; target: string }): Promise<MoveInReport> {
  const { dataDir, center } = options;
  // Read, never made here (the file exists); a damaged one is refused in words.
  const { deskId } = await deskIdentity(dataDir);
  const stores: StoreMove[] = [];
  const movable = CENTER_STORES.filter((store) => Object.keys(store.sqlite.migrations).length > 0);
  // Card data in any file stops the whole move before anything is written: an audit row cannot be cleaned
  // without breaking its chain, and the other stores are not moved without it. The number is never said.
  const withCardData = new Map<string, string>();
  for (const definition of movable.filter((store) => existsSync(join(dataDir, store.sqlite.file)))) {
    let found: Awaited<ReturnType<typeof findCardDataInStore>>;
    try {
      found = await findCardDataInStore(dataDir, definition, deskId);
    } catch (error) {
      withCardData.set(
        definition.name,
        `its ${definition.sqlite.file} could not be read to look for card data (${said(error)})`,
      );
      continue;
    }
    if (found === undefined) continue;
    const more = found.rows > 1 ? ` (and ${found.rows - 1} more ${found.rows === 2 ? 'row' : 'rows'} of it)` : '';
    const chained =
      definition.name === AUDIT_STORE.name
        ? ' An audit row is hash-chained: it cannot be cleaned without breaking the chain.'
        : '';
    withCardData.set(
      definition.name,
      `card data (a card number or a security code) in desk ${deskId}'s ${definition.sqlite.file}, ${found.where}, column ${found.column}${more}: nothing of this desk was moved.${chained} ` +
        `Keep the desk's data folder as it is (do not edit, clean or delete ${definition.sqlite.file}) for an auditor, and follow the PCI incident procedure (docs/IT.md, section 8).`,
    );
  }
  if (withCardData.size > 0) {
    for (const definition of movable) {
      const entry: StoreMove = {
        store: definition.name,
        label: definition.label,
        file: definition.sqlite.file,
        status: 'refused',
        tables: [],
        conflicts: [],
      };
      if (!existsSync(join(dataDir, definition.sqlite.file))) entry.status = 'absent';
      else
        entry.problem =
          withCardData.get(definition.name) ??
          'card data was found in another file of this desk (see its PROBLEM line): nothing of this desk was moved';
      stores.push(entry);
    }
    return { deskId, source: dataDir, target: options.target, stores, ok: false };
  }
  // A store with no embedded migrations keeps nothing on a desk's own files (the center's desk registry): nothing to move.
  for (const definition of movable) {
    const entry: StoreMove = {
      store: definition.name,
      label: definition.label,
      file: definition.sqlite.file,
      status: 'moved',
      tables: [],
      conflicts: [],
    };
    stores.push(entry);
    const run = MOVERS.find((mover) => mover.definition.name === definition.name)?.run;
    if (run === undefined) {
      // A store the center keeps that this version cannot move: said, never passed over in silence.
      entry.status = 'refused';
      entry.problem = 'this version of the app cannot move this store yet';
      continue;
    }
    if (!existsSync(join(dataDir, definition.sqlite.file))) {
      entry.status = 'absent';
      continue;
    }
    try {
      const result = await run(dataDir, center, { deskId });
      entry.tables = result.tables;
      entry.conflicts = result.conflicts;
    } catch (error) {
      entry.status = 'refused';
      entry.problem = said(error);
    }
  }
  return {
    deskId,
    source: dataDir,
    target: options.target,
    stores,
    ok: stores.every((store) => store.status !== 'refused' && store.conflicts.length === 0),
  };
}

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/** The report as IT reads it: one line per store (its tables below it), what needs IT, then the verdict. */
export function formatMoveIn(report: MoveInReport): string {
  const width = Math.max(...report.stores.map((store) => store.label.length));
  const lines = [`Moving desk ${report.deskId} (${report.source}) into the center at ${report.target}:`];
  let moved = 0;
  let already = 0;
  for (const store of report.stores) {
    const label = store.label.padEnd(width);
    if (store.status === 'absent') {
      lines.push(`-        ${label}  no ${store.file} in the folder: nothing to move`);
      continue;
    }
    if (store.status === 'refused') {
      lines.push(`PROBLEM  ${label}  not moved, nothing of it was written: ${store.problem ?? ''}`);
      continue;
    }
    const found = store.tables.reduce((sum, table) => sum + table.found, 0);
    const written = store.tables.reduce((sum, table) => sum + table.moved, 0);
    const there = store.tables.reduce((sum, table) => sum + table.alreadyThere, 0);
    moved += written;
    already += there;
    const conflicts =
      store.conflicts.length === 0 ? '' : `, ${plural(store.conflicts.length, 'conflict', 'conflicts')} (not moved)`;
    lines.push(
      `${store.conflicts.length === 0 ? 'ok     ' : 'PROBLEM'}  ${label}  ${found} found, ${written} moved, ${there} already there${conflicts}`,
    );
    if (store.tables.length > 1) {
      for (const table of store.tables)
        lines.push(
          `           ${table.table}: ${table.found} found, ${table.moved} moved, ${table.alreadyThere} already there`,
        );
    }
    for (const conflict of store.conflicts) lines.push(`           conflict ${conflict}`);
  }
  lines.push(
    report.ok
      ? `Done: ${plural(moved, 'row', 'rows')} moved, ${already} already there. Next: set this desk's center setting and start it (docs/IT.md, section 8).`
      : `NOT everything was moved (${plural(moved, 'row', 'rows')} moved, ${already} already there): see the PROBLEM lines, settle them, and run the move again (nothing moves twice). Keep the desk off the center until then.`,
  );
  return `${lines.join('\n')}\n`;
}

export interface RunMoveInOptions {
  /** The effective `center` setting (as --check-center reads it). */
  center: CenterSettings | undefined;
  managedPath: string;
  /** The desk's data folder, as IT typed it. */
  dataDir: string | undefined;
  /** The app role's password (PGPASSWORD). */
  password: () => Promise<string | undefined>;
}

/** What --move-in prints and its exit code: 0 all moved (or already there), 1 a problem (see its lines), 2 not asked right. */
export async function runMoveIn(options: RunMoveInOptions): Promise<{ output: string; exitCode: number }> {
  if (options.dataDir === undefined || options.dataDir === '' || options.dataDir.startsWith('--')) {
    return {
      output: `Usage: PGPASSWORD=… npm run center:move-in -- <the desk's data folder> [--managed=<file>] (docs/IT.md, section 8).\n`,
      exitCode: 2,
    };
  }
  if (options.center === undefined) {
    return {
      output: `There is no center setting in ${options.managedPath}: IT sets "center" there first (docs/IT.md).\n`,
      exitCode: 2,
    };
  }
  const target = describeCenter(options.center);
  let connection: CenterConnectionOptions;
  try {
    connection = await centerConnection(options.center, {
      password: options.password,
      applicationName: 'card-payments-desk --move-in',
    });
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    return { output: `Nothing was moved: ${error.message}\n`, exitCode: 1 };
  }
  const storage = centerStorage({ ...connection, maxConnections: 1 });
  try {
    const report = await moveDeskIn({ dataDir: options.dataDir, center: storage, target });
    return { output: formatMoveIn(report), exitCode: report.ok ? 0 : 1 };
  } catch (error) {
    if (error instanceof MoveInError)
      return { output: `Nothing was moved: ${error.message}\n`, exitCode: error.exitCode };
    if (!(error instanceof UserError)) throw error;
    return { output: `Nothing was moved: ${error.message}\n`, exitCode: 1 };
  } finally {
    await storage.close();
  }
}
