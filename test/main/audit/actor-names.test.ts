// The audit trail as a supervisor reads it through the door: each row names its actor by the operator's display name
// (main reads the operators' directory); an id that is no one’s keeps its id alone.
import { afterEach, describe, expect, it } from 'vitest';
import type { Output } from '../../../shared/ipc';
import { openDesk, SUPERVISOR, type Desk } from '../app/desk-kit';

let desk: Desk | undefined;
afterEach(async () => {
  await desk?.close();
  desk = undefined;
});

describe('audit:list', () => {
  it('names each operator who acted by their display name, and no name for an id that is no one’s', async () => {
    desk = await openDesk();
    await desk.refused('session:signIn', { id: 'ghost', password: 'not a real password 1' });
    await desk.signIn(SUPERVISOR);
    const { rows } = await desk.ok<Output<'audit:list'>>('audit:list', {});
    const signIn = rows.find((row) => row.action === 'session.signIn' && row.actor === SUPERVISOR.id);
    expect(signIn?.actorName).toBe('Sam');
    const unknown = rows.find((row) => row.action === 'session.signIn' && row.actor === 'ghost');
    expect(unknown).toBeDefined();
    expect(unknown?.actorName).toBeUndefined();
  });
});
