/**
 * How the audit trail moves into a center: each chain of the file (the desk's own, its rows of before desk ids included,
 * and any other desk id the file holds) copied row by row with its numbers and hashes, in the order the file wrote them;
 * the center numbers the rows in its trail. A chain that does not verify in the file is not moved; a center that already
 * holds a different row of the chain is refused (a chain never forks); after writing, each chain is walked again on the
 * center before commit.
 */
import { sql } from 'kysely';
import { MoveRefused, declareMoveIn, without, type StoreMoveIn } from '../storage';
import { walkDeskChain as walk } from './chain';
import { AUDIT_STORE, type AuditDB, type ChainRow } from './trail';

/** The rows a desk wrote before desks had ids: its own chain's. */
const NO_DESK = '';

export const AUDIT_MOVE_IN: StoreMoveIn = declareMoveIn<AuditDB>({
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
  tables: (table) => [
    table({
      table: 'audit',
      key: 'id',
      row: (row, { deskId }): ChainRow => ({
        ...without(row, 'id'),
        desk_id: row.desk_id === NO_DESK ? deskId : row.desk_id,
      }),
      // A chain never forks: the center's row of the same number must be this one.
      present: {
        key: ['desk_id', 'seq'],
        clash: {
          columns: ['hash', 'prev_hash'],
          refusal: (row) =>
            `the center already has a different row ${row.seq} of desk ${row.desk_id}'s audit chain (that desk worked on the center after its files were last written?): ` +
            "moving it would fork the chain, so nothing of the audit trail was moved; keep the desk's audit.db for an auditor",
        },
      },
      unique: ['desk_id', 'seq'],
    }),
  ],
});
