/**
 * Each desk's rows are a hash chain of their own (desk id, number in the desk's chain, the SHA-256 of the desk's row
 * before), so that an edit or a deletion shows: a row's hash, and the walk that checks a chain.
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { NO_DESK, type AuditDB, type DbRow } from './store';

/** The hash before a desk's first row. */
export const GENESIS = '0'.repeat(64);

/** The hashed form of a row: every field but the hash, in a fixed order, after the previous row's hash. */
export function rowHash(prevHash: string, row: Omit<DbRow, 'id' | 'hash' | 'prev_hash'>): string {
  const fields = [row.seq, row.at, row.actor, row.action, row.outcome, row.resource, row.request_id, row.details];
  // A row written before desks had ids is hashed as it was then; every later row's hash covers its desk too.
  const hashed = row.desk_id === NO_DESK ? fields : [row.desk_id, ...fields];
  return createHash('sha256').update(prevHash).update(JSON.stringify(hashed)).digest('hex');
}

/** Verification reads a chain this many rows at a time. */
const VERIFY_PAGE = 1000;

/** A row of a chain as the walk reads it (its place in the whole trail does not matter). */
export type ChainRow = Omit<DbRow, 'id'>;

export type ChainWalk =
  | { ok: true; rows: number; last: number }
  | { ok: false; rows: number; seq: number; reason: string };

/**
 * Walks one desk's chain from its first row, page by page (`readPage` answers the rows from a number on, in order):
 * the first row whose number, link or content does not hold is reported. The rows a desk wrote before desks had ids are
 * hashed without a desk: they keep that hash when they are moved into the center under the desk's id (main/center/move-in),
 * so a chain may open with such rows; once a row is hashed with its desk, every later one must be.
 */
export async function walkChain(
  readPage: (fromSeq: number, limit: number) => Promise<readonly ChainRow[]>,
): Promise<ChainWalk> {
  let expectedSeq = 1;
  let prevHash = GENESIS;
  let count = 0;
  let legacyPrefix = true;
  for (;;) {
    const page = await readPage(expectedSeq, VERIFY_PAGE);
    for (const row of page) {
      count++;
      if (row.seq !== expectedSeq)
        return {
          ok: false,
          rows: count,
          seq: expectedSeq,
          reason: `row ${expectedSeq} is missing (the next one is ${row.seq})`,
        };
      if (row.prev_hash !== prevHash)
        return { ok: false, rows: count, seq: row.seq, reason: `row ${row.seq} does not link to row ${row.seq - 1}` };
      if (rowHash(prevHash, row) === row.hash) {
        if (row.desk_id !== NO_DESK) legacyPrefix = false;
      } else if (!(legacyPrefix && rowHash(prevHash, { ...row, desk_id: NO_DESK }) === row.hash)) {
        return { ok: false, rows: count, seq: row.seq, reason: `row ${row.seq} was changed after it was written` };
      }
      prevHash = row.hash;
      expectedSeq++;
    }
    if (page.length < VERIFY_PAGE) return { ok: true, rows: count, last: expectedSeq - 1 };
  }
}

/** Walks the chain of the rows of `deskIds` in a database's audit table (a desk's, with its rows of before desk ids). */
export function walkDeskChain(db: Kysely<AuditDB>, deskIds: readonly string[]): Promise<ChainWalk> {
  return walkChain((fromSeq, limit) =>
    db
      .selectFrom('audit')
      .selectAll()
      .where('desk_id', 'in', deskIds)
      .where('seq', '>=', fromSeq)
      .orderBy('seq')
      .limit(limit)
      .execute(),
  );
}
