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

/** What one store's move did, table by table; `conflicts` are rows not moved, each said for IT to settle. */
export interface StoreMoveResult {
  tables: TableMove[];
  conflicts: string[];
}

/** One table of a store's move, its rows typed as the desk's file (`DB[T]`) and as the center takes them (`Out`). */
export interface MovedTable<DB, T extends keyof DB & string, Out extends object> {
  /** The table, of this name both in the desk's file and on the center. */
  readonly table: T;
  /** Its key in the desk's file: the rows are read, and written, in its order, a page at a time. */
  readonly key: keyof DB[T] & string;
  /**
   * The row as the center keeps it (the desk's id stamped, a key filled in, the file's own number left out); undefined
   * leaves it out, not counted. Without it the row goes as it is.
   */
  readonly row?: (row: Selectable<DB[T]>, context: MoveContext) => Out | undefined;
  /** Looks at a page before it is written: a MoveRefused when the center cannot take it. */
  readonly check?: (center: Transaction<DB>, rows: readonly Out[], context: MoveContext) => Promise<void>;
  /**
   * For rows told apart by their content (a log without a key of its own): those of the page the center does not have
   * yet, in order; a MoveRefused when the center has another row in a place of one (a clash). Without it every row is
   * written, the center's key (`conflict`) leaving out those it has.
   */
  readonly absent?: (center: Transaction<DB>, rows: readonly Out[], context: MoveContext) => Promise<readonly Out[]>;
  /** The columns of the center's key: a row whose key is there is left as the center has it. Without: a plain insert. */
  readonly conflict?: readonly (keyof Out & string)[];
  /**
   * For a row left out because its key is there: a sentence for IT when the center's row is another record (a conflict,
   * not moved), undefined when it is the same one (already there). The rows are then written one at a time.
   */
  readonly clash?: (center: Transaction<DB>, row: Out, context: MoveContext) => Promise<string | undefined>;
  /** Tables whose rows belong to this one's: read with each page, those whose `by` column names one of its rows. */
  readonly children?: readonly ChildTable<DB>[];
}

/** A declared table with its types left behind (moveTable makes one), as the driver walks it. */
export interface TableMoveIn<DB> {
  readonly table: string;
  readonly key: string;
  readonly row?: (row: MoveRow, context: MoveContext) => MoveRow | undefined;
  readonly check?: (center: Transaction<DB>, rows: readonly MoveRow[], context: MoveContext) => Promise<void>;
  readonly absent?: (
    center: Transaction<DB>,
    rows: readonly MoveRow[],
    context: MoveContext,
  ) => Promise<readonly MoveRow[]>;
  readonly conflict?: readonly string[];
  readonly clash?: (center: Transaction<DB>, row: MoveRow, context: MoveContext) => Promise<string | undefined>;
  readonly children?: readonly ChildTable<DB>[];
}

export interface ChildTable<DB> {
  /** The column naming the parent row, of the same name in both tables. */
  readonly by: string;
  readonly table: TableMoveIn<DB>;
}

/** The tables of a store, each declared typed against `DB` (`const table = tablesOf<JournalDB>()`). */
export function tablesOf<DB>(): <T extends keyof DB & string, Out extends object = Selectable<DB[T]>>(
  table: MovedTable<DB, T, Out>,
) => TableMoveIn<DB> {
  return (table) => table as unknown as TableMoveIn<DB>;
}

/** What runs inside the center's transaction around the tables: first (a lock), and last (a check before commit). */
export interface MoveHooks<DB> {
  readonly begin?: (center: Transaction<DB>) => Promise<void>;
  readonly end?: (center: Transaction<DB>) => Promise<void>;
}

/** How a store moves into the center. */
export interface MoveInDeclaration<DB> {
  readonly definition: StoreDefinition;
  /** In the order they are written (a table before those that refer to it). */
  readonly tables: readonly TableMoveIn<DB>[];
  /**
   * Looks at the desk's file before anything is written (a MoveRefused refuses the store), and answers what runs in the
   * center's transaction around the tables.
   */
  readonly prepare?: (desk: Kysely<DB>, context: MoveContext) => Promise<MoveHooks<DB> | undefined>;
  /** Every text column it moves that may hold words a person typed or a provider said, looked at for card data first. */
  readonly freeText: readonly FreeText[];
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

/** Inserts `rows` into the center, a row whose key (`conflict`) is there left as it is; answers how many were written. */
async function insert(
  center: Kysely<LooseDB>,
  table: string,
  rows: readonly MoveRow[],
  conflict: readonly string[] | undefined,
): Promise<number> {
  if (rows.length === 0) return 0;
  const query = center.insertInto(table).values([...rows]);
  if (conflict === undefined) {
    await query.execute();
    return rows.length;
  }
  const result = await query.onConflict((oc) => oc.columns([...conflict]).doNothing()).executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
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
    private readonly by?: string,
  ) {
    this.tally = { table: declaration.table, found: 0, moved: 0, alreadyThere: 0 };
    this.children = (declaration.children ?? []).map((child) => new TableRun(child.table, conflicts, child.by));
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
    const { row, check, absent, conflict, clash } = this.declaration;
    const rows: MoveRow[] = [];
    for (const each of found) {
      const kept = row === undefined ? each : row(each, context);
      if (kept !== undefined) rows.push(kept);
    }
    let moved = 0;
    let conflicts = 0;
    if (rows.length > 0) {
      await check?.(center, rows, context);
      const written = absent === undefined ? rows : await absent(center, rows, context);
      if (clash === undefined) moved = await insert(loose(center), this.declaration.table, written, conflict);
      else {
        for (const each of written) {
          if ((await insert(loose(center), this.declaration.table, [each], conflict)) === 1) moved++;
          else {
            const sentence = await clash(center, each, context);
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
        const tables = declaration.tables.map((table) => new TableRun(table, conflicts));
        await center.transaction(async (trx) => {
          await hooks?.begin?.(trx);
          for (const table of tables) await table.all(desk.db, trx, context);
          await hooks?.end?.(trx);
        });
        return { tables: tables.flatMap((table) => table.tallies()), conflicts };
      } finally {
        await desk.close();
      }
    },
  };
}
