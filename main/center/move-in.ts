/** `--move-in <data folder>`: a desk's records in its embedded SQLite files copied once into the center (IT's command), idempotent, each audit chain unchanged, reported store by store. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { AUDIT_MOVE_IN, AUDIT_STORE } from '../audit';
import { describeProblem } from '../cli/messages';
import { UserError } from '../errors';
import { DELIVERIES_MOVE_IN } from '../messaging';
import { OPERATORS_MOVE_IN } from '../operators';
import { JOURNAL_MOVE_IN } from '../payments';
import { REFUND_REQUESTS_MOVE_IN } from '../refunds';
import { RESERVATIONS_MOVE_IN } from '../reservations';
import {
  centerStorage,
  DESK_LOCK_FILE,
  describeCenter,
  findCardData,
  MoveRefused,
  tryDeskLock,
  type CenterSettings,
  type Storage,
  type StoreDefinition,
  type StoreMoveIn,
  type TableMove,
} from '../storage';
import { CENTER_STORES } from './check';
import { commandConnection } from './connect';
import { DESK_FILE, deskIdentity } from './desk-id';
import { DESKS_STORE } from './registry';

export type { TableMove } from '../storage';

export const MOVE_IN_FLAG = '--move-in';
/** The packaged app's own flag: this desk's data folder, its center setting and secret. */
export const MOVE_IN_CENTER_FLAG = '--move-in-center';

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
  /** Rows moved otherwise than the desk had them (an account moved in disabled): for IT to act on. */
  notes: string[];
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

/** How each store is moved (each in its own transaction on the center); the stores are moved in CENTER_STORES' order. */
const MOVE_INS: readonly StoreMoveIn[] = [
  JOURNAL_MOVE_IN,
  OPERATORS_MOVE_IN,
  REFUND_REQUESTS_MOVE_IN,
  AUDIT_MOVE_IN,
  DELIVERIES_MOVE_IN,
  RESERVATIONS_MOVE_IN,
];

const declared = (definition: StoreDefinition): StoreMoveIn | undefined =>
  MOVE_INS.find((moveIn) => moveIn.definition.name === definition.name);

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

/** A store's line of the report: nothing written yet unless `more` says what was. */
const entryOf = (
  definition: StoreDefinition,
  status: StoreMove['status'],
  more: Partial<StoreMove> = {},
): StoreMove => ({
  store: definition.name,
  label: definition.label,
  file: definition.sqlite.file,
  status,
  tables: [],
  conflicts: [],
  notes: [],
  ...more,
});

/** Per store of `movable` whose file holds card data (or cannot be read to look), the sentence that refuses the move. */
async function cardDataIn(
  dataDir: string,
  movable: readonly StoreDefinition[],
  deskId: string,
): Promise<Map<string, string>> {
  const withCardData = new Map<string, string>();
  for (const definition of movable.filter((store) => existsSync(join(dataDir, store.sqlite.file)))) {
    let found: Awaited<ReturnType<typeof findCardData>>;
    try {
      found = await findCardData(dataDir, definition, declared(definition)?.freeText ?? [], deskId);
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
  return withCardData;
}

/** One store moved (in its own transaction), or why not. */
async function moveStore(
  dataDir: string,
  center: Storage,
  definition: StoreDefinition,
  deskId: string,
): Promise<StoreMove> {
  const moveIn = declared(definition);
  // A store the center keeps that this version cannot move: said, never passed over in silence.
  if (moveIn === undefined)
    return entryOf(definition, 'refused', { problem: 'this version of the app cannot move this store yet' });
  if (!existsSync(join(dataDir, definition.sqlite.file))) return entryOf(definition, 'absent');
  try {
    return entryOf(definition, 'moved', await moveIn.move(dataDir, center, { deskId }));
  } catch (error) {
    return entryOf(definition, 'refused', { problem: said(error) });
  }
}

/**
 * The move writes the desk's rows in its own name: the center adds them only for the desk its login is bound to (or on
 * the shared credential). Checked before anything is written, so that no store is moved and another refused.
 */
async function checkLogin(center: Storage, deskId: string): Promise<void> {
  const store = await center.open<unknown>(DESKS_STORE);
  let who: { desk: string | null; shared: boolean } | undefined;
  try {
    who = (
      await sql<{ desk: string | null; shared: boolean }>`
        SELECT center.current_desk() AS desk, center.shared_session() AS shared`.execute(store.db)
    ).rows[0];
  } catch (error) {
    throw new MoveInError(
      `the center cannot tell desks apart yet (${error instanceof Error ? error.message : String(error)}): IT must run --migrate-center with this version first.`,
      1,
    );
  } finally {
    await store.close();
  }
  if (who === undefined || who.shared || who.desk === deskId) return;
  throw new MoveInError(
    who.desk === null
      ? `the login this desk signs in with is bound to no desk yet, so the center would take none of its rows: IT binds it to this desk first (docs/center/add-desk.sql with -v desk_id=${deskId}), then moves it in. Nothing was moved.`
      : `the login this desk signs in with is the login of desk ${who.desk}, not of this desk (${deskId}): each desk moves in with its own login (docs/center/add-desk.sql). Nothing was moved.`,
    1,
  );
}

async function moveLockedDesk(options: { dataDir: string; center: Storage; target: string }): Promise<MoveInReport> {
  const { dataDir, center } = options;
  // Read, never made here (the file exists); a damaged one is refused in words.
  const { deskId } = await deskIdentity(dataDir);
  // A store with no embedded migrations keeps nothing on a desk's own files (the center's desk registry): nothing to move.
  const movable = CENTER_STORES.filter((store) => Object.keys(store.sqlite.migrations).length > 0);
  // Card data in any file stops the whole move before anything is written: an audit row cannot be cleaned
  // without breaking its chain, and the other stores are not moved without it. The number is never said.
  const withCardData = await cardDataIn(dataDir, movable, deskId);
  if (withCardData.size > 0) {
    const stores = movable.map((definition) =>
      existsSync(join(dataDir, definition.sqlite.file))
        ? entryOf(definition, 'refused', {
            problem:
              withCardData.get(definition.name) ??
              'card data was found in another file of this desk (see its PROBLEM line): nothing of this desk was moved',
          })
        : entryOf(definition, 'absent'),
    );
    return { deskId, source: dataDir, target: options.target, stores, ok: false };
  }
  await checkLogin(center, deskId);
  const stores: StoreMove[] = [];
  for (const definition of movable) stores.push(await moveStore(dataDir, center, definition, deskId));
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
    for (const note of store.notes) lines.push(`           note ${note}`);
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
  const connection = await commandConnection(options.center, options.password, MOVE_IN_FLAG);
  if (connection instanceof UserError)
    return { output: `Nothing was moved: ${describeProblem(connection)}\n`, exitCode: 1 };
  const storage = centerStorage({ ...connection, maxConnections: 1 });
  try {
    const report = await moveDeskIn({ dataDir: options.dataDir, center: storage, target });
    return { output: formatMoveIn(report), exitCode: report.ok ? 0 : 1 };
  } catch (error) {
    if (error instanceof MoveInError)
      return { output: `Nothing was moved: ${error.message}\n`, exitCode: error.exitCode };
    if (!(error instanceof UserError)) throw error;
    return { output: `Nothing was moved: ${describeProblem(error)}\n`, exitCode: 1 };
  } finally {
    await storage.close();
  }
}
