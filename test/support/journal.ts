// The payment journal as a test opens it: on the embedded files of a folder (the app's default), as one desk.
import { Journal } from '../../main/payments';
import { embeddedStorage } from '../../main/storage';

/** The desk a test's journal (and its crash children) write as: each desk recovers only its own operations. */
export const TEST_DESK = { deskId: '6f1c2a4e-8b3d-4c5e-9f70-1a2b3c4d5e6f' } as const;

/** `dir`/journal.db, created or migrated; close it with journal.close(). */
export function openJournal(dir: string, desk: { deskId: string } = TEST_DESK): Promise<Journal> {
  return Journal.open(embeddedStorage(dir), desk);
}
