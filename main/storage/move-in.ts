/**
 * How a store's rows move from a desk's own SQLite file into the center: each store declares its tables (their order,
 * keys, what the center keeps of a row, what makes one already there or a clash) and its special cases as hooks;
 * `declareMoveIn` makes of it the one move every store runs, in one transaction on the center, all of it or none.
 */
import type { Kysely, Selectable, Transaction } from 'kysely';
import { openEmbeddedStore } from './embedded';
import type { FreeText } from './move-in-scan';
import type { Storage, StoreDefinition } from './store';

/** A row seen without its type, for the generic steps (paging, inserting). */
export type MoveRow = Record<string, unknown>;

export interface MoveContext {
  /** The desk whose folder is moved. */
  readonly deskId: string;
}

/** A refusal of one store's move, said for IT; its transaction is rolled back and nothing of the store is written. */
export class MoveRefused extends Error {
  override readonly name = 'MoveRefused';
}

/** One table of a store: its rows in the desk's file, those this run wrote to the center, those the center already had. */
export interface TableMove {
  table: string;
  found: number;
  moved: number;
  alreadyThere: number;
}

/**
 * What one store's move did, table by table; `conflicts` are rows not moved, each said for IT to settle; `notes` are rows
 * moved otherwise than the desk had them (an account moved in disabled), each said for IT to act on.
 */
export interface StoreMoveResult {
  tables: TableMove[];
  conflicts: string[];
  notes: string[];
}

/**
 * One table of a store's move, its rows as the desk's file has them (`Row`) and as the center takes them (`Out`). What
 * makes a row already there: the center's unique key (`unique`), or for a table without one the columns it is told by
 * (`present`).
 */
export interface MovedTable<DB, Row, Out> {
  /** The table, of this name both in the desk's file and on the center. */
  readonly table: string;
  /** Its key in the desk's file: the rows are read, and written, in its order, a page at a time. */
  readonly key: string;
  /**
   * The row as the center keeps it (the desk's id stamped, a key filled in, the file's own number left out); undefined
   * leaves it out, not counted. Without it the row goes as it is.
   */
  readonly row?: (row: Row, context: MoveContext) => Out | undefined;
  /** Looks at a page before it is written: a MoveRefused when the center cannot take it. */
  readonly check?: (center: Transaction<DB>, rows: readonly NoInfer<Out>[], context: MoveContext) => Promise<void>;
  /** The columns of the center's unique key: a row whose key is there is left as the center has it. */
  readonly unique?: readonly (keyof NoInfer<Out> & string)[];
  /**
   * For a row `unique` left out: a sentence for IT when the center's row is another record (a conflict, not moved),
   * undefined when it is the same one (already there). The rows are then written one at a time.
   */
  readonly conflict?: (center: Transaction<DB>, row: NoInfer<Out>, context: MoveContext) => Promise<string | undefined>;
  /**
   * A row is already there when the center has one of the same `key` (the last column looked up among the page's values,
   * the others equal). With `clash`, one whose `columns` differ is another row in its place: the store is refused, said.
   */
  readonly present?: {
    readonly key: readonly (keyof NoInfer<Out> & string)[];
    readonly clash?: {
      readonly columns: readonly (keyof NoInfer<Out> & string)[];
      readonly refusal: (row: NoInfer<Out>) => string;
    };
  };
  /**
   * For rows told apart by nothing but their content: those of the page the center does not have yet, in order.
   * Without it (nor `present`) every row is written, `unique` leaving out those the center has.
   */
  readonly absent?: (
    center: Transaction<DB>,
    rows: readonly NoInfer<Out>[],
    context: MoveContext,
  ) => Promise<readonly NoInfer<Out>[]>;
  /** Tables whose rows belong to this one's: read with each page, those whose `by` column names one of its rows. */
  readonly children?: readonly ChildTable<DB>[];
  /**
   * Writes one row through the store's own door (a function of its schema, where a desk's login may not insert rows):
   * whether it was moved, and a sentence for IT when there is something to settle (a conflict, not moved; or a row
   * moved otherwise than it was, such as an account moved in disabled). Rows are then written one at a time.
   */
  readonly write?: (
    center: Transaction<DB>,
    row: NoInfer<Out>,
    context: MoveContext,
  ) => Promise<{ moved: boolean; say?: string }>;
}

/** A declared table with its types left behind (as DeclareTable answers it), as the driver walks it. */
export type TableMoveIn<DB> = MovedTable<DB, MoveRow, MoveRow>;

export interface ChildTable<DB> {
  /** The column naming the parent row, of the same name in both tables. */
  readonly by: string;
  readonly table: TableMoveIn<DB>;
}

/** Declares one table of a store typed against its tables `DB`, its types then left behind. */
export type DeclareTable<DB> = <T extends keyof DB & string, Out extends object = Selectable<DB[T]>>(
  table: MovedTable<DB, Selectable<DB[T]>, Out> & { readonly table: T; readonly key: keyof DB[T] & string },
) => TableMoveIn<DB>;

const declareTable = <DB>(table: unknown): TableMoveIn<DB> => table as TableMoveIn<DB>;

/** What runs inside the center's transaction around the tables: first (a lock), and last (a check before commit). */
export interface MoveHooks<DB> {
  readonly begin?: (center: Transaction<DB>) => Promise<void>;
  readonly end?: (center: Transaction<DB>) => Promise<void>;
}

/** How a store moves into the center. */
export interface MoveInDeclaration<DB> {
  readonly definition: StoreDefinition;
  /** Every text column it moves that may hold words a person typed or a provider said, looked at for card data first. */
  readonly freeText: readonly FreeText[];
  /** Its tables, each declared with `table`, in the order they are written (a table before those that refer to it). */
  readonly tables: (table: DeclareTable<DB>) => readonly TableMoveIn<DB>[];
  /**
   * Looks at the desk's file before anything is written (a MoveRefused refuses the store), and answers what runs in the
   * center's transaction around the tables.
   */
  readonly prepare?: (desk: Kysely<DB>, context: MoveContext) => Promise<MoveHooks<DB> | undefined>;
}

/** A store's move, ready to run over a desk's folder, its database types left inside. */
export interface StoreMoveIn {
  readonly definition: StoreDefinition;
  readonly freeText: readonly FreeText[];
  /** Opens the desk's file and the center's schema of the store, and moves the one into the other. */
  move(dataDir: string, center: Storage, context: MoveContext): Promise<StoreMoveResult>;
}

/** Rows are read from the desk's files and written to the center this many at a time. */
export const MOVE_PAGE = 500;

type LooseDB = Record<string, MoveRow>;
const loose = <DB>(db: Kysely<DB>): Kysely<LooseDB> => db as unknown as Kysely<LooseDB>;

/** A table of the desk's file, page by page in the order of `key` (its primary key). */
async function* pages(db: Kysely<LooseDB>, table: string, key: string): AsyncGenerator<MoveRow[]> {
  let after: unknown;
  for (;;) {
    let query = db.selectFrom(table).selectAll().orderBy(key).limit(MOVE_PAGE);
    if (after !== undefined) query = query.where(key, '>', after);
    const rows = (await query.execute()) as MoveRow[];
    if (rows.length > 0) yield rows;
    if (rows.length < MOVE_PAGE) return;
    after = rows.at(-1)?.[key];
  }
}

/** Inserts `rows` into the center, a row whose key (`unique`) is there left as it is; answers how many were written. */
async function insert(
  center: Kysely<LooseDB>,
  table: string,
  rows: readonly MoveRow[],
  unique: readonly string[] | undefined,
): Promise<number> {
  if (rows.length === 0) return 0;
  const query = center.insertInto(table).values([...rows]);
  if (unique === undefined) {
    await query.execute();
    return rows.length;
  }
  const result = await query.onConflict((oc) => oc.columns([...unique]).doNothing()).executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

/** Those of `rows` the center does not have under their `present.key`, in order; a clash refuses the store. */
async function notThere(
  center: Kysely<LooseDB>,
  table: string,
  rows: readonly MoveRow[],
  present: NonNullable<TableMoveIn<unknown>['present']>,
): Promise<MoveRow[]> {
  const { key, clash } = present;
  const scope = key.slice(0, -1);
  const among = key.at(-1) ?? '';
  const named = (row: MoveRow, columns: readonly string[]): string =>
    JSON.stringify(columns.map((column) => String(row[column])));
  // One look-up per value of the columns held equal (one chain, one desk), in the order the page names them.
  const groups = new Map<string, MoveRow[]>();
  for (const row of rows) {
    const group = groups.get(named(row, scope));
    if (group === undefined) groups.set(named(row, scope), [row]);
    else group.push(row);
  }
  const absent = new Set<MoveRow>();
  for (const group of groups.values()) {
    let query = center.selectFrom(table).select([...key, ...(clash?.columns ?? [])]);
    for (const column of scope) query = query.where(column, '=', group[0]?.[column]);
    const found = await query
      .where(
        among,
        'in',
        group.map((row) => row[among]),
      )
      .execute();
    const there = new Map(found.map((row) => [named(row, key), row]));
    for (const row of group) {
      const other = there.get(named(row, key));
      if (other === undefined) absent.add(row);
      else if (clash?.columns.some((column) => other[column] !== row[column]) === true)
        throw new MoveRefused(clash.refusal(row));
    }
  }
  return rows.filter((row) => absent.has(row));
}

/** A copy of `row` without `column` (a number the file gave it that the center gives its own). */
export function without<T extends object, K extends keyof T>(row: T, column: K): Omit<T, K> {
  const copy: Partial<T> = { ...row };
  delete copy[column];
  return copy as Omit<T, K>;
}

class TableRun<DB> {
  readonly tally: TableMove;
  readonly children: TableRun<DB>[];

  constructor(
    readonly declaration: TableMoveIn<DB>,
    readonly conflicts: string[],
    readonly notes: string[],
    private readonly by?: string,
  ) {
    this.tally = { table: declaration.table, found: 0, moved: 0, alreadyThere: 0 };
    this.children = (declaration.children ?? []).map((child) => new TableRun(child.table, conflicts, notes, child.by));
  }

  /** Every tally of this table and its children, in the order of the report. */
  tallies(): TableMove[] {
    return [this.tally, ...this.children.flatMap((child) => child.tallies())];
  }

  /** Moves the whole table, page by page. */
  async all(desk: Kysely<DB>, center: Transaction<DB>, context: MoveContext): Promise<void> {
    for await (const page of pages(loose(desk), this.declaration.table, this.declaration.key))
      await this.page(desk, center, page, context);
  }

  /** Moves the rows of the table that belong to `parents` (by this child's column). */
  async of(
    desk: Kysely<DB>,
    center: Transaction<DB>,
    parents: readonly MoveRow[],
    context: MoveContext,
  ): Promise<void> {
    const by = this.by ?? '';
    const values = parents.map((row) => row[by]);
    if (values.length === 0) return;
    const found = (await loose(desk)
      .selectFrom(this.declaration.table)
      .selectAll()
      .where(by, 'in', values)
      .orderBy(this.declaration.key)
      .execute()) as MoveRow[];
    await this.page(desk, center, found, context);
  }

  private async page(
    desk: Kysely<DB>,
    center: Transaction<DB>,
    found: readonly MoveRow[],
    context: MoveContext,
  ): Promise<void> {
    const { table, row, check, present, absent, unique, conflict, write } = this.declaration;
    const rows: MoveRow[] = [];
    for (const each of found) {
      const kept = row === undefined ? each : row(each, context);
      if (kept !== undefined) rows.push(kept);
    }
    let moved = 0;
    let conflicts = 0;
    if (rows.length > 0) {
      await check?.(center, rows, context);
      let written: readonly MoveRow[] = rows;
      if (present !== undefined) written = await notThere(loose(center), table, written, present);
      if (absent !== undefined) written = await absent(center, written, context);
      if (write !== undefined) {
        for (const each of written) {
          const result = await write(center, each, context);
          if (result.moved) {
            moved++;
            if (result.say !== undefined) this.notes.push(result.say);
          } else if (result.say !== undefined) {
            this.conflicts.push(result.say);
            conflicts++;
          }
        }
      } else if (conflict === undefined) moved = await insert(loose(center), table, written, unique);
      else {
        for (const each of written) {
          if ((await insert(loose(center), table, [each], unique)) === 1) moved++;
          else {
            const sentence = await conflict(center, each, context);
            if (sentence !== undefined) {
              this.conflicts.push(sentence);
              conflicts++;
            }
          }
        }
      }
    }
    this.tally.found += rows.length;
    this.tally.moved += moved;
    this.tally.alreadyThere += rows.length - moved - conflicts;
    for (const child of this.children) await child.of(desk, center, rows, context);
  }
}

/** The one move of a store over its declaration: its tables in order, in one transaction on the center. */
export function declareMoveIn<DB>(declaration: MoveInDeclaration<DB>): StoreMoveIn {
  const { definition } = declaration;
  return {
    definition,
    freeText: declaration.freeText,
    move: async (dataDir, storage, context) => {
      const desk = await openEmbeddedStore<DB>(dataDir, definition);
      try {
        const center = await storage.open<DB>(definition);
        const hooks = await declaration.prepare?.(desk.db, context);
        const conflicts: string[] = [];
        const notes: string[] = [];
        const tables = declaration.tables(declareTable).map((table) => new TableRun(table, conflicts, notes));
        await center.transaction(async (trx) => {
          await hooks?.begin?.(trx);
          for (const table of tables) await table.all(desk.db, trx, context);
          await hooks?.end?.(trx);
        });
        return { tables: tables.flatMap((table) => table.tallies()), conflicts, notes };
      } finally {
        await desk.close();
      }
    },
  };
}
