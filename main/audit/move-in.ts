/**
 * How the audit trail moves into a center: each chain of the file (the desk's own, its rows of before desk ids included,
 * and any other desk id the file holds) copied row by row with its numbers and hashes, in the order the file wrote them;
 * the center numbers the rows in its trail. A chain that does not verify in the file is not moved; a center that already
 * holds a different row of the chain is refused (a chain never forks); after writing, each chain is walked again on the
 * center before commit.
 */
import { sql, type Kysely } from 'kysely';
import { MoveRefused, declareMoveIn, tablesOf, without, type StoreMoveIn } from '../storage';
import { AUDIT_STORE, walkChain, type AuditDB, type ChainRow, type ChainWalk } from './trail';

const table = tablesOf<AuditDB>();

/** The rows a desk wrote before desks had ids: its own chain's. */
const NO_DESK = '';

/** A chain read in the order of its numbers: the rows of `deskIds` (a desk's, and its rows of before desk ids). */
const walk = (db: Kysely<AuditDB>, deskIds: readonly string[]): Promise<ChainWalk> =>
  walkChain((fromSeq, limit) =>
    db
      .selectFrom('audit')
      .selectAll()
      .where('desk_id', 'in', deskIds)
      .where('seq', '>=', fromSeq)
      .orderBy('seq')
      .limit(limit)
      .execute(),
  );

export const AUDIT_MOVE_IN: StoreMoveIn = declareMoveIn<AuditDB>({
  definition: AUDIT_STORE,
  prepare: async (desk, { deskId }) => {
    const chainOf = (stored: string): string => (stored === NO_DESK ? deskId : stored);
    const inFile = (await desk.selectFrom('audit').select('desk_id').distinct().execute()).map((row) => row.desk_id);
    const chains = [...new Set(inFile.map(chainOf))].sort();
    for (const chain of chains) {
      const walked = await walk(desk, chain === deskId ? [deskId, NO_DESK] : [chain]);
      if (!walked.ok) {
        throw new MoveRefused(
          `the desk's own audit trail does not verify (desk ${chain}, row ${walked.seq}: ${walked.reason}); keep the desk's audit.db as it is for an auditor, nothing of it was moved`,
        );
      }
    }
    return {
      // The desk's own appends on the center take the same turn (a desk started too early waits for the move).
      begin: async (center) => {
        for (const chain of chains)
          await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`audit:${chain}`}, 0))`.execute(center);
      },
      end: async (center) => {
        for (const chain of chains) {
          const walked = await walk(center, [chain]);
          if (!walked.ok)
            throw new MoveRefused(
              `desk ${chain}'s audit chain would not verify on the center (row ${walked.seq}: ${walked.reason}); nothing of the audit trail was moved`,
            );
        }
      },
    };
  },
  tables: [
    table({
      table: 'audit',
      key: 'id',
      row: (row, { deskId }): ChainRow => ({
        ...without(row, 'id'),
        desk_id: row.desk_id === NO_DESK ? deskId : row.desk_id,
      }),
      absent: async (center, rows) => {
        const absent = new Set<ChainRow>();
        for (const chain of new Set(rows.map((row) => row.desk_id))) {
          const mine = rows.filter((row) => row.desk_id === chain);
          const there = new Map(
            (
              await center
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
        return rows.filter((row) => absent.has(row));
      },
      conflict: ['desk_id', 'seq'],
    }),
  ],
  freeText: [
    {
      table: 'audit',
      columns: ['actor', 'action', 'outcome', 'resource', 'request_id', 'details'],
      json: ['details'],
      name: (row, deskId) =>
        `row ${String(row.seq)} of desk ${row.desk_id === '' ? deskId : String(row.desk_id)}'s audit chain`,
    },
  ],
});
