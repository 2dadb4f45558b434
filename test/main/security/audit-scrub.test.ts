// The audit trail's columns are scrubbed by the one card-data detector, on both backends: every card spelling and CVV
// phrase of the table, in every column a caller fills (actor, action, resource, request id, details and their keys), is
// written as its placeholder — read back through the trail, and read raw from the SQLite file or the center's table.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { AUDIT_STORE, AuditTrail } from '../../../main/audit';
import { useStoreBackends } from '../../support/backends';
import { ALL_CARD_SPELLINGS, ALL_CVV_PHRASES, holdsCard } from '../../shared/text/spellings';
import { pansInFolder } from '../support/card-scan';

const DESK = '33333333-3333-4333-8333-333333333333';

/** The columns a caller fills, as stored: one list of texts per row. */
type Columns = { actor: string; action: string; resource: string | null; request_id: string | null; details: string }[];

describe.each(useStoreBackends([AUDIT_STORE]))('the audit trail on $name', (backend) => {
  it('writes no card number or CVV of the table in any column', async () => {
    const storage = await backend.storage();
    const trail = await AuditTrail.open(storage, { deskId: DESK });
    const rows = ALL_CARD_SPELLINGS.map(({ text }, i) => ({
      card: text,
      cvv: ALL_CVV_PHRASES[i % ALL_CVV_PHRASES.length] ?? { text: '', value: '' },
    }));
    for (const { card, cvv } of rows) {
      await trail.append({
        actor: card,
        action: `note.${cvv.text}`,
        outcome: 'refused',
        resource: `id ${card}`,
        requestId: `req ${cvv.text}`,
        details: { note: `${card} ${cvv.text}`, [card]: 1, [cvv.text]: [cvv.text] },
      });
    }
    expect(await trail.verify()).toMatchObject({ ok: true, rows: rows.length });

    const read = await trail.rows(0, 1000);
    let raw: Columns;
    if (backend.name === 'sqlite') {
      const dir = storage.description.replace(/^the embedded files in /, '');
      // Every byte of the file and its journal, read in every encoding, without the detector.
      expect(
        pansInFolder(
          dir,
          ALL_CARD_SPELLINGS.map((s) => s.digits),
        ),
      ).toEqual([]);
      const db = new Database(`${dir}/audit.db`, { readonly: true });
      raw = db.prepare('SELECT actor, action, resource, request_id, details FROM audit ORDER BY seq').all() as Columns;
      db.close();
    } else {
      raw = await backend
        .center()
        .query('SELECT actor, action, resource, request_id, details::text AS details FROM audit.audit ORDER BY seq');
    }
    expect(read).toHaveLength(rows.length);
    expect(raw).toHaveLength(rows.length);
    const leaks: string[] = [];
    for (const [i, { card, cvv }] of rows.entries()) {
      const digits = ALL_CARD_SPELLINGS[i]?.digits ?? '';
      const row = read[i];
      const stored = raw[i];
      const texts = [
        row?.actor,
        row?.action,
        row?.resource,
        row?.requestId,
        JSON.stringify(row?.details),
        ...Object.values(stored ?? {}).map(String),
      ];
      for (const text of texts) {
        if (text === undefined || holdsCard(text, digits)) leaks.push(`${JSON.stringify(card)}: ${text}`);
        // The phrase's code is gone: the phrase with its placeholder is what is kept.
        else if (text.includes(cvv.text)) leaks.push(`${JSON.stringify(cvv.text)}: ${text}`);
      }
      expect(row?.actor).toContain('[card]');
      expect(row?.action).toContain('[redacted]');
      expect(row?.action).not.toContain(cvv.value);
    }
    expect(leaks).toEqual([]);
    await trail.close();
  }, 60_000);
});
