// A small store for the storage layer's own tests: one table of notes per desk, with a unique key, migrations on both
// backends (the second adds a column), and grants that let the app role read, insert and update but not delete.
import { sql, type Kysely } from 'kysely';
import type { StoreDefinition } from '../../../../main/storage';

export interface NotesDB {
  notes: { id: string; desk: string; body: string; cents: number; created_at: string; pinned: number };
}

export const notesStore: StoreDefinition = {
  name: 'notes_test',
  label: 'notes',
  sqlite: {
    file: 'notes.db',
    migrations: {
      '0001_notes': {
        up: async (db: Kysely<unknown>) => {
          await db.schema
            .createTable('notes')
            .addColumn('id', 'text', (c) => c.primaryKey())
            .addColumn('desk', 'text', (c) => c.notNull())
            .addColumn('body', 'text', (c) => c.notNull())
            .addColumn('cents', 'integer', (c) => c.notNull())
            .addColumn('created_at', 'text', (c) => c.notNull())
            .execute();
          await db.schema.createIndex('notes_desk_body').on('notes').columns(['desk', 'body']).unique().execute();
        },
      },
      '0002_pinned': {
        up: async (db: Kysely<unknown>) => {
          await db.schema
            .alterTable('notes')
            .addColumn('pinned', 'integer', (c) => c.notNull().defaultTo(0))
            .execute();
        },
      },
    },
  },
  postgres: {
    migrations: {
      '0001_notes': {
        up: async (db: Kysely<unknown>) => {
          await db.schema
            .createTable('notes')
            .addColumn('id', 'text', (c) => c.primaryKey())
            .addColumn('desk', 'text', (c) => c.notNull())
            .addColumn('body', 'text', (c) => c.notNull())
            .addColumn('cents', 'bigint', (c) => c.notNull())
            .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
            .addUniqueConstraint('notes_desk_body', ['desk', 'body'])
            .execute();
        },
      },
      '0002_pinned': {
        up: async (db: Kysely<unknown>) => {
          await db.schema
            .alterTable('notes')
            .addColumn('pinned', 'integer', (c) => c.notNull().defaultTo(0))
            .execute();
        },
      },
    },
    grants: { notes: ['SELECT', 'INSERT', 'UPDATE'] },
  },
};
