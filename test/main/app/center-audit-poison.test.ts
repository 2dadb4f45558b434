// A row the center can never take, through the real door: a desk on a center's PostgreSQL, the simulator in this
// process. PostgreSQL's text refuses a NUL character that the desk's SQLite keeps, and a caller chooses the channel name a
// refused call is audited by (any window, trusted or not, may send one). Such a row is written with the NUL made visible;
// it never stands in front of the rows recorded after it, kept on the desk until the end of time.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CENTER_STORES } from '../../../main/center';
import { useSimulator } from '../../support/simulator';
import { createCenter, type TestCenter } from '../../support/center';
import { testPostgres } from '../../support/pg';
import { AGENT, attachedTo, openDesk, sender, type Desk } from './desk-kit';

const sim = useSimulator({ processingDelayMs: 0, refundDelayMs: 0 });
let center: TestCenter;
const desks: Desk[] = [];

beforeEach(async () => {
  center = await createCenter(await testPostgres(), { stores: CENTER_STORES });
}, 120_000);
afterEach(async () => {
  for (const desk of desks.splice(0)) await desk.close();
  await center.drop().catch(() => undefined);
});

async function onCenter(): Promise<Desk> {
  const desk = await openDesk({ connect: attachedTo(sim) }, { center });
  desks.push(desk);
  return desk;
}

const rowsOf = (deskId: string): Promise<{ action: string; resource: string | null }[]> =>
  center.query('SELECT action, resource FROM audit.audit WHERE desk_id = $1 ORDER BY seq', [deskId]);

describe('a row the center cannot take as it is', () => {
  it('a channel named with a NUL: refused, audited, and the rows after it reach the center', async () => {
    const desk = await onCenter();
    const deskId = desk.stack.audit.deskId;
    const refused = await desk.stack.dispatch('payments:pay\u0000', sender, {});
    expect(refused).toMatchObject({ ok: false, error: { code: 'unknown_channel' } });
    await desk.signIn(AGENT);
    await desk.stack.audit.flush();

    const rows = await rowsOf(deskId);
    const refusedRow = rows.find(
      (row) => row.action === 'call.refused' && row.resource?.startsWith('payments:pay') === true,
    );
    expect(refusedRow).toBeDefined();
    expect(refusedRow?.resource).not.toContain('\u0000');
    // The agent's sign-in, after it.
    expect(rows.slice(rows.indexOf(refusedRow as never) + 1).map((row) => row.action)).toContain('session.signIn');
  });
});
