// A center migrated by the version before sessions were kept as the SHA-256 of their id: --migrate-center rewrites the
// open sessions' ids as their keys in place (on the real PostgreSQL), so a desk still holding its session keeps it.
import { describe, expect, it } from 'vitest';
import { OPERATORS_STORE, type OperatorsDB } from '../../../main/operators';
import { sessionKey } from '../../../main/operators/desk-sessions';
import { centerStorage, migrateCenter, type StoreDefinition } from '../../../main/storage';
import { createCenter } from '../../support/center';
import { testPostgres } from '../../support/pg';

describe('sessions kept as the SHA-256 of their id, on a center migrated before', () => {
  it('an open session of the earlier version is rewritten as its key, nothing else of the row changed', async () => {
    const { '0004_session_keys': added, '0005_center_door': door, ...earlier } = OPERATORS_STORE.postgres.migrations;
    expect(added).toBeDefined();
    expect(door).toBeDefined();
    // The store as that version declared it: its migrations, and the grants and secrets it had.
    const before = {
      ...OPERATORS_STORE,
      postgres: {
        migrations: earlier,
        grants: { operators: ['SELECT', 'INSERT', 'UPDATE'], sessions: ['SELECT', 'INSERT', 'UPDATE', 'DELETE'] },
        secretColumns: { operators: ['password_hash'], sessions: ['session_id'] },
      },
    } satisfies StoreDefinition;
    const center = await createCenter(await testPostgres(), { stores: [before] });
    try {
      const raw = 'b9a0f3d2-5c1e-4c7a-9e2b-7d6f5a4c3b21';
      await center.query(
        `INSERT INTO operators.operators (id, display_name, role, password_hash, created_at, updated_at)
           VALUES ('ana', 'Ana', 'agent', '$scrypt$ln=4,r=8,p=1$c2FsdA==$a2V5', 1, 1)`,
      );
      await center.query(
        `INSERT INTO operators.sessions (operator_id, session_id, desk_id, started_at, last_seen_at) VALUES ('ana', $1, 'desk-a', 5, 6)`,
        [raw],
      );
      await migrateCenter(center.owner, [OPERATORS_STORE]);
      // Read as the superuser: no desk's login reads a session's key any more (0005_center_door).
      expect(
        await center.query(
          'SELECT operator_id, session_id, desk_id, started_at::int, last_seen_at::int, locked FROM operators.sessions',
        ),
      ).toEqual([
        {
          operator_id: 'ana',
          session_id: sessionKey(raw),
          desk_id: 'desk-a',
          started_at: 5,
          last_seen_at: 6,
          locked: 0,
        },
      ]);
      const storage = centerStorage(center.app);
      try {
        const store = await storage.open<OperatorsDB>(OPERATORS_STORE);
        expect(await store.db.selectFrom('sessions').select(['operator_id', 'desk_id']).execute()).toEqual([
          { operator_id: 'ana', desk_id: 'desk-a' },
        ]);
      } finally {
        await storage.close();
      }
    } finally {
      await center.drop();
    }
  }, 120_000);
});
