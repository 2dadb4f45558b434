/**
 * Each desk's rows are a hash chain of their own (desk id, number in the desk's chain, the SHA-256 of the desk's row
 * before), so that an edit or a deletion shows: a row's hash, and the walk that checks a chain. On the center the rows
 * the center writes are hashed with its key (main/audit/center-chain.ts), which no desk reads: a desk's walk checks their
 * numbers and links, and only the auditor's audit.verify_chain their content.
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { NO_DESK, type AuditDB, type DbRow, type HeadsTable } from './store';

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
 * so a chain may open with such rows; once a row is hashed with its desk, every later one must be. A row the center
 * wrote (`keyed`) is checked for its number and link only; once one is, every later row must be one.
 */
export async function walkChain(
  readPage: (fromSeq: number, limit: number) => Promise<readonly ChainRow[]>,
): Promise<ChainWalk> {
  let expectedSeq = 1;
  let prevHash = GENESIS;
  let count = 0;
  let legacyPrefix = true;
  let keyedFrom: number | undefined;
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
      if (row.keyed === true) {
        keyedFrom ??= row.seq;
      } else if (keyedFrom !== undefined) {
        return {
          ok: false,
          rows: count,
          seq: row.seq,
          reason: `row ${row.seq} was not written by the center (it writes this chain from row ${keyedFrom} on)`,
        };
      } else if (rowHash(prevHash, row) === row.hash) {
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

/** Where a chain that walked whole to row `last` (its hash `lastHash`) disagrees with its head on the center. */
export function headBreak(
  last: number,
  lastHash: string | undefined,
  head: Pick<HeadsTable, 'seq' | 'hash'> | undefined,
): { seq: number; reason: string } | undefined {
  const headSeq = head?.seq ?? 0;
  if (last < headSeq) return { seq: last + 1, reason: `rows ${last + 1} to ${headSeq} were removed from the end` };
  if (last > headSeq)
    return { seq: headSeq + 1, reason: `rows ${headSeq + 1} to ${last} were not written by the center` };
  if (last > 0 && lastHash !== head?.hash)
    return { seq: last, reason: `row ${last} is not the one that was written last` };
  return undefined;
}

/**
 * One desk's chain on the center as a desk (the app role) can check it: walked (walkChain: the center's rows by their
 * numbers and links), then its end against audit.heads, so that rows removed from the end, or added after it by anyone
 * but the center, show. The words are audit.verify_chain's.
 */
export async function walkCenterChain(db: Kysely<AuditDB>, deskId: string): Promise<ChainWalk> {
  const walked = await walkDeskChain(db, [deskId]);
  if (!walked.ok) return walked;
  const head = await db.selectFrom('heads').select(['seq', 'hash']).where('desk_id', '=', deskId).executeTakeFirst();
  const last =
    walked.last === 0
      ? undefined
      : await db
          .selectFrom('audit')
          .select('hash')
          .where('desk_id', '=', deskId)
          .where('seq', '=', walked.last)
          .executeTakeFirst();
  const broken = headBreak(walked.last, last?.hash, head);
  return broken === undefined ? walked : { ok: false, rows: walked.rows, ...broken };
}
