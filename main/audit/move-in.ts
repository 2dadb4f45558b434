/**
 * How the audit trail moves into a center: each chain of the file (the desk's own, its rows of before desk ids included,
 * and any other desk id the file holds) given row by row, with its numbers and hashes, in the order the file wrote them,
 * to the center's audit.move_in_rows (main/audit/center-chain.ts), which writes them as they are (plain SHA-256, the
 * desk's word) after checking each; the center numbers the rows in its trail. A chain that does not verify in the file
 * is not moved; a center that already holds a different row of the chain is refused (a chain never forks), and so is
 * one that writes that chain itself already; after writing, each chain is walked again on the center before commit.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import {
  MOVE_PAGE,
  MoveRefused,
  openEmbeddedStore,
  without,
  type Storage,
  type StoreMoveIn,
  type StoreMoveResult,
  type TableMove,
} from '../storage';
import { walkCenterChain, walkDeskChain as walk, type ChainRow } from './chain';
import { MOVE_IN_REFUSED } from './center-chain';
import { AUDIT_STORE, NO_DESK, type AuditDB } from './store';

/** The columns of a row as audit.move_in_rows takes it (its desk is the call's). */
const MOVED_COLUMNS = [
  'seq',
  'at',
  'actor',
  'action',
  'outcome',
  'resource',
  'request_id',
  'details',
  'prev_hash',
  'hash',
] as const;

function sqlState(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

/** The file's rows, in the order it wrote them, a page at a time, each named with its chain's desk. */
async function* filePages(desk: Kysely<AuditDB>, deskId: string): AsyncGenerator<ChainRow[]> {
  let after = 0;
  for (;;) {
    const rows = await desk
      .selectFrom('audit')
      .selectAll()
      .where('id', '>', after)
      .orderBy('id')
      .limit(MOVE_PAGE)
      .execute();
    if (rows.length > 0)
      yield rows.map((row) => ({ ...without(row, 'id'), desk_id: row.desk_id === NO_DESK ? deskId : row.desk_id }));
    if (rows.length < MOVE_PAGE) return;
    after = rows.at(-1)?.id ?? after;
  }
}

/** Those of one chain's `rows` the center does not have yet, in order; a different row in the same place refuses the move. */
async function notOnCenter(
  center: Transaction<AuditDB>,
  chain: string,
  rows: readonly ChainRow[],
): Promise<ChainRow[]> {
  const there = await center
    .selectFrom('audit')
    .select(['seq', 'hash', 'prev_hash'])
    .where('desk_id', '=', chain)
    .where(
      'seq',
      'in',
      rows.map((row) => row.seq),
    )
    .execute();
  const bySeq = new Map(there.map((row) => [row.seq, row]));
  return rows.filter((row) => {
    const other = bySeq.get(row.seq);
    if (other === undefined) return true;
    if (other.hash !== row.hash || other.prev_hash !== row.prev_hash) {
      throw new MoveRefused(
        `the center already has a different row ${row.seq} of desk ${chain}'s audit chain (that desk worked on the center after its files were last written?): ` +
          "moving it would fork the chain, so nothing of the audit trail was moved; keep the desk's audit.db for an auditor",
      );
    }
    return false;
  });
}

/** Writes one chain's rows through audit.move_in_rows; answers how many it wrote. */
async function moveRows(center: Transaction<AuditDB>, chain: string, rows: readonly ChainRow[]): Promise<number> {
  const given = rows.map((row) => Object.fromEntries(MOVED_COLUMNS.map((column) => [column, row[column]])));
  try {
    const { rows: answer } = await sql<{ moved: number }>`
      SELECT audit.move_in_rows(${chain}, ${JSON.stringify(given)}::jsonb) AS moved`.execute(center);
    return answer[0]?.moved ?? 0;
  } catch (error) {
    if (sqlState(error) !== MOVE_IN_REFUSED) throw error;
    throw new MoveRefused(
      `${(error as Error).message}; nothing of the audit trail was moved, keep the desk's audit.db for an auditor`,
    );
  }
}

async function move(dataDir: string, storage: Storage, deskId: string): Promise<StoreMoveResult> {
  const desk = await openEmbeddedStore<AuditDB>(dataDir, AUDIT_STORE);
  try {
    const chainOf = (stored: string): string => (stored === NO_DESK ? deskId : stored);
    const inFile = (await desk.db.selectFrom('audit').select('desk_id').distinct().execute()).map((row) => row.desk_id);
    const chains = [...new Set(inFile.map(chainOf))].sort();
    for (const chain of chains) {
      const walked = await walk(desk.db, chain === deskId ? [deskId, NO_DESK] : [chain]);
      if (!walked.ok) {
        throw new MoveRefused(
          `the desk's own audit trail does not verify (desk ${chain}, row ${walked.seq}: ${walked.reason}); keep the desk's audit.db as it is for an auditor, nothing of it was moved`,
        );
      }
    }
    const center = await storage.open<AuditDB>(AUDIT_STORE);
    const tally: TableMove = { table: 'audit', found: 0, moved: 0, alreadyThere: 0 };
    await center.transaction(async (trx) => {
      for await (const page of filePages(desk.db, deskId)) {
        for (const chain of [...new Set(page.map((row) => row.desk_id))]) {
          const absent = await notOnCenter(
            trx,
            chain,
            page.filter((row) => row.desk_id === chain),
          );
          if (absent.length > 0) tally.moved += await moveRows(trx, chain, absent);
        }
        tally.found += page.length;
      }
      for (const chain of chains) {
        const walked = await walkCenterChain(trx, chain);
        if (!walked.ok)
          throw new MoveRefused(
            `desk ${chain}'s audit chain would not verify on the center (row ${walked.seq}: ${walked.reason}); nothing of the audit trail was moved`,
          );
      }
    });
    tally.alreadyThere = tally.found - tally.moved;
    return { tables: [tally], conflicts: [], notes: [] };
  } finally {
    await desk.close();
  }
}

export const AUDIT_MOVE_IN: StoreMoveIn = {
  definition: AUDIT_STORE,
  freeText: [
    {
      table: 'audit',
      columns: ['actor', 'action', 'outcome', 'resource', 'request_id', 'details'],
      json: ['details'],
      name: (row, deskId) =>
        `row ${String(row.seq)} of desk ${row.desk_id === '' ? deskId : String(row.desk_id)}'s audit chain`,
    },
  ],
  move: (dataDir, storage, { deskId }) => move(dataDir, storage, deskId),
};
