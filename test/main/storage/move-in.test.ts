// The generic move of a store into the center over a made-up declaration (the notes store): rows read from a desk's file
// page by page and written once, what makes a row already there or a conflict or a clash, and a refusal that leaves
// nothing of the store written. The real stores' moves are tested through IT's command (test/main/center/move-in).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  MOVE_PAGE,
  MoveRefused,
  centerStorage,
  declareMoveIn,
  embeddedStorage,
  findCardData,
  nameByKey,
  type MoveInDeclaration,
  type Storage,
} from '../../../main/storage';
import { createCenter, type TestCenter } from '../../support/center';
import { testPostgres } from '../../support/pg';
import { notesStore, type NotesDB } from './support/notes-store';

interface Note {
  id: string;
  desk: string;
  body: string;
  cents: number;
}

let center: TestCenter;
let storage: Storage;
let dataDir: string;

beforeAll(async () => {
  center = await createCenter(await testPostgres(), { stores: [notesStore] });
  storage = centerStorage({ ...center.app, maxConnections: 1 });
}, 120_000);

afterAll(async () => {
  await storage.close();
  await center.drop();
});

beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'move-in-'));
  await center.query('TRUNCATE notes_test.notes');
});

afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

const NOW = '2026-01-01T00:00:00.000Z';

async function onDesk(notes: readonly Note[]): Promise<void> {
  const desk = embeddedStorage(dataDir);
  try {
    const store = await desk.open<NotesDB>(notesStore);
    for (const note of notes)
      await store.db
        .insertInto('notes')
        .values({ ...note, created_at: NOW, pinned: 0 })
        .execute();
  } finally {
    await desk.close();
  }
}

async function onCenter(notes: readonly Note[]): Promise<void> {
  for (const note of notes)
    await center.query('INSERT INTO notes_test.notes (id, desk, body, cents, created_at) VALUES ($1, $2, $3, $4, $5)', [
      note.id,
      note.desk,
      note.body,
      note.cents,
      NOW,
    ]);
}

const inCenter = async (): Promise<Note[]> =>
  (await center.query<Note & { cents: string }>('SELECT id, desk, body, cents FROM notes_test.notes ORDER BY id')).map(
    (row) => ({ ...row, cents: Number(row.cents) }),
  );

/** The notes of a desk: each stamped with the desk that moves them when it names none. */
const notesMove = (more: Partial<MoveInDeclaration<NotesDB>> = {}) =>
  declareMoveIn<NotesDB>({
    definition: notesStore,
    freeText: [{ table: 'notes', columns: ['body'], name: nameByKey('note', 'id') }],
    tables: (table) => [
      table({
        table: 'notes',
        key: 'id',
        row: (row, { deskId }) =>
          row.body === 'draft' ? undefined : { ...row, desk: row.desk === '' ? deskId : row.desk },
        unique: ['id'],
      }),
    ],
    ...more,
  });

const move = (declaration = notesMove()) => declaration.move(dataDir, storage, { deskId: 'desk-1' });

describe('moving a store by its declaration', () => {
  it('writes every row once, page by page, as the declaration keeps it; a second run finds them all already there', async () => {
    const notes = Array.from({ length: MOVE_PAGE + 2 }, (_, n) => ({
      id: `n${String(n).padStart(4, '0')}`,
      desk: n === 0 ? 'desk-2' : '',
      body: `note ${n}`,
      cents: n,
    }));
    await onDesk([...notes, { id: 'z-draft', desk: '', body: 'draft', cents: 0 }]);
    expect(await move()).toEqual({
      tables: [{ table: 'notes', found: notes.length, moved: notes.length, alreadyThere: 0 }],
      conflicts: [],
      notes: [],
    });
    const moved = await inCenter();
    expect(moved).toHaveLength(notes.length);
    expect(moved[0]).toEqual({ id: 'n0000', desk: 'desk-2', body: 'note 0', cents: 0 });
    expect(moved[1]).toEqual({ id: 'n0001', desk: 'desk-1', body: 'note 1', cents: 1 });
    expect(await move()).toEqual({
      tables: [{ table: 'notes', found: notes.length, moved: 0, alreadyThere: notes.length }],
      conflicts: [],
      notes: [],
    });
  });

  it('a row whose key the center holds as another record is a conflict for IT, not moved; the same record is already there', async () => {
    await onDesk([
      { id: 'a', desk: 'desk-1', body: 'same', cents: 1 },
      { id: 'b', desk: 'desk-1', body: 'mine', cents: 2 },
      { id: 'c', desk: 'desk-1', body: 'new', cents: 3 },
    ]);
    await onCenter([
      { id: 'a', desk: 'desk-1', body: 'same', cents: 1 },
      { id: 'b', desk: 'desk-9', body: 'theirs', cents: 2 },
    ]);
    const declaration = notesMove({
      tables: (table) => [
        table({
          table: 'notes',
          key: 'id',
          unique: ['id'],
          conflict: async (trx, row) => {
            const there = await trx.selectFrom('notes').select('body').where('id', '=', row.id).executeTakeFirst();
            return there?.body === row.body ? undefined : `note ${row.id} is another one on the center`;
          },
        }),
      ],
    });
    expect(await move(declaration)).toEqual({
      tables: [{ table: 'notes', found: 3, moved: 1, alreadyThere: 1 }],
      conflicts: ['note b is another one on the center'],
      notes: [],
    });
    expect((await inCenter()).map((note) => note.body)).toEqual(['same', 'theirs', 'new']);
  });

  it('tells rows apart by the columns declared (no key of their own): an equal one is already there, a different one in its place refuses the store, nothing written', async () => {
    const byBody = (refusal = (row: { body: string }) => `another note "${row.body}" on the center`) =>
      notesMove({
        tables: (table) => [
          table({
            table: 'notes',
            key: 'id',
            row: (row) => row,
            present: { key: ['desk', 'body'], clash: { columns: ['cents'], refusal } },
          }),
        ],
      });
    await onDesk([
      { id: 'a', desk: 'desk-1', body: 'kept', cents: 1 },
      { id: 'b', desk: 'desk-1', body: 'new', cents: 2 },
    ]);
    await onCenter([{ id: 'x', desk: 'desk-1', body: 'kept', cents: 1 }]);
    expect(await move(byBody())).toEqual({
      tables: [{ table: 'notes', found: 2, moved: 1, alreadyThere: 1 }],
      conflicts: [],
      notes: [],
    });
    await center.query('TRUNCATE notes_test.notes');
    await onCenter([{ id: 'x', desk: 'desk-1', body: 'new', cents: 7 }]);
    await expect(move(byBody())).rejects.toThrow(new MoveRefused('another note "new" on the center'));
    expect((await inCenter()).map((note) => note.id)).toEqual(['x']);
  });

  it('a refusal before writing, while checking a page, or at the end of the transaction leaves nothing of the store written', async () => {
    await onDesk([{ id: 'a', desk: 'desk-1', body: 'one', cents: 1 }]);
    const seen: string[] = [];
    await expect(
      move(
        notesMove({
          prepare: async (desk) => {
            seen.push(`file has ${(await desk.selectFrom('notes').select('id').execute()).length}`);
            return {
              begin: async (trx) => {
                seen.push(`begin ${(await trx.selectFrom('notes').select('id').execute()).length}`);
              },
              end: async (trx) => {
                seen.push(`end ${(await trx.selectFrom('notes').select('id').execute()).length}`);
                throw new MoveRefused('the notes would not hold on the center');
              },
            };
          },
        }),
      ),
    ).rejects.toThrow('the notes would not hold on the center');
    expect(seen).toEqual(['file has 1', 'begin 0', 'end 1']);
    await expect(
      move(
        notesMove({
          prepare: () => Promise.reject(new MoveRefused('the file does not verify')),
        }),
      ),
    ).rejects.toThrow('the file does not verify');
    const checked = notesMove({
      tables: (table) => [
        table({
          table: 'notes',
          key: 'id',
          unique: ['id'],
          check: (_, rows) => Promise.reject(new MoveRefused(`${rows.length} note(s) the center cannot take`)),
        }),
      ],
    });
    await expect(move(checked)).rejects.toThrow('1 note(s) the center cannot take');
    expect(await inCenter()).toEqual([]);
  });

  it('looks for card data in the declared free text, naming the row by its key, never by what was typed', async () => {
    await onDesk([
      { id: 'a', desk: 'desk-1', body: 'call back at noon', cents: 1 },
      { id: 'b', desk: 'desk-1', body: 'card 4111 1111 1111 1111', cents: 2 },
    ]);
    const { definition, freeText } = notesMove();
    expect(await findCardData(dataDir, definition, freeText, 'desk-1')).toEqual({
      where: 'notes: note b',
      column: 'body',
      rows: 1,
    });
  });
});
