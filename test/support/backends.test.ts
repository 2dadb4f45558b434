// The two-backend fixture itself: each test's storage starts empty, and another desk sees what the first wrote.
import { describe, expect, it } from 'vitest';
import { notesStore, type NotesDB } from '../main/storage/support/notes-store';
import { useStoreBackends } from './backends';

const note = { desk: 'desk-a', body: 'hello', cents: 1250, created_at: '2026-11-24T10:00:00.000Z', pinned: 0 };

describe.each(useStoreBackends([notesStore]))('the $name backend fixture', (backend) => {
  it('gives a second desk the rows the first wrote', async () => {
    const a = await (await backend.storage()).open<NotesDB>(notesStore);
    await a.db
      .insertInto('notes')
      .values({ id: 'n1', ...note })
      .execute();
    const b = await (await backend.anotherDesk()).open<NotesDB>(notesStore);
    expect(await b.db.selectFrom('notes').select(['id', 'cents']).execute()).toEqual([{ id: 'n1', cents: 1250 }]);
  });

  it('starts each test empty', async () => {
    const a = await (await backend.storage()).open<NotesDB>(notesStore);
    expect(await a.db.selectFrom('notes').selectAll().execute()).toEqual([]);
  });
});
