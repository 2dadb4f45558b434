/**
 * The look for card data a move makes in a desk's file before anything is written: every column a store declares as free
 * text, a row named for IT by an id the app made or by its row number, never by anything typed (it could be the very
 * card number).
 */
import { sql } from 'kysely';
import { containsCardData } from '../../shared/text';
import { openEmbeddedStore } from './embedded';
import type { MoveRow } from './move-in';
import type { StoreDefinition } from './store';

/** The free text of a table (typed by a person, imported, or said by a provider) and how a row is named for IT. */
export interface FreeText {
  table: string;
  columns: readonly string[];
  /** Those of `columns` that hold JSON: every string and number in it is looked at too (a line break is `\n` in the text). */
  json?: readonly string[];
  name: (row: MoveRow, deskId: string) => string;
}

const ROWID = '__move_in_rowid';
/** The rows of a file are looked at this many at a time. */
const SCAN_PAGE = 500;

/** A row named by an id the app made (a UUID, the service's id). */
export const nameByKey =
  (what: string, key: string) =>
  (row: MoveRow): string =>
    `${what} ${String(row[key])}`;

/** A row named by its number in the file (SQLite's rowid): for tables whose key was typed or imported. */
export const nameByRow =
  (what: string, file: string) =>
  (row: MoveRow): string =>
    `${what} in row ${String(row[ROWID])} of ${file}`;

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
 * The first row of a store's file whose free text holds card data (a card number or a security code), named for IT with
 * its column, and how many such rows there are; undefined when there is none. The text itself never leaves this function.
 */
export async function findCardData(
  dataDir: string,
  definition: StoreDefinition,
  freeText: readonly FreeText[],
  deskId: string,
): Promise<{ where: string; column: string; rows: number } | undefined> {
  const desk = await openEmbeddedStore<Record<string, MoveRow>>(dataDir, definition);
  let first: { where: string; column: string } | undefined;
  let rows = 0;
  try {
    for (const text of freeText) {
      // Page by the file's row number, which names a row whose key was typed.
      for (let after = 0; ; ) {
        const page = (await desk.db
          .selectFrom(text.table)
          .selectAll()
          .select(sql<number>`rowid`.as(ROWID))
          .where(sql<number>`rowid`, '>', after)
          .orderBy(sql`rowid`)
          .limit(SCAN_PAGE)
          .execute()) as MoveRow[];
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
