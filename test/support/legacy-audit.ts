// An audit.db as the app wrote it before desks had ids (user_version 2: today's SqliteFile migrations of that era), with
// `rows` sign-ins hashed as that version hashed them, and its head file: what a desk of an older version leaves behind.
// Answers the last row's hash.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GENESIS } from '../../main/audit';
import { SqliteFile } from '../../main/storage';

/** `detailsOf`: a row's details as that version wrote them (default `{}`). */
export function writeLegacyAuditFile(
  dir: string,
  rows: number,
  detailsOf: (seq: number) => string = () => '{}',
): string {
  const old = new SqliteFile(join(dir, 'audit.db'), {
    label: 'audit trail',
    migrations: [
      `CREATE TABLE audit (seq INTEGER PRIMARY KEY, at TEXT NOT NULL, actor TEXT NOT NULL, action TEXT NOT NULL, outcome TEXT NOT NULL, resource TEXT,
         request_id TEXT, details TEXT NOT NULL, prev_hash TEXT NOT NULL, hash TEXT NOT NULL);
       CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END;
       CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END;`,
      `CREATE INDEX audit_action ON audit (action, resource); CREATE INDEX audit_resource ON audit (resource); CREATE INDEX audit_actor ON audit (actor);`,
    ],
  });
  let prev = GENESIS;
  for (let seq = 1; seq <= rows; seq++) {
    const row = [seq, '2026-01-01T00:00:00.000Z', 'ana', 'session.signIn', 'ok', null, null, detailsOf(seq)] as const;
    const hash = createHash('sha256').update(prev).update(JSON.stringify(row)).digest('hex');
    old.stmt('INSERT INTO audit VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').run(...row, prev, hash);
    prev = hash;
  }
  old.close();
  writeFileSync(join(dir, 'audit-head.json'), JSON.stringify({ seq: rows, hash: prev }));
  return prev;
}
