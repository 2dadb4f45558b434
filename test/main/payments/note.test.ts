// The engine's own door refuses card data in a payment's note, as the contract does: nothing is sent as metadata,
// nothing journaled. The service is the simulator over real HTTP; fetch is wrapped only to see what is sent.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentEngine, ServiceError, simulatorConfig } from '../../../main/payments';
import { useSimulator } from '../../support/simulator';
import { CARD_SPELLINGS, CVV_PHRASES } from '../../shared/text/spellings';
import { pansInFolder } from '../support/card-scan';
import { openJournal } from '../../support/journal';

const sim = useSimulator({ processingDelayMs: 0 });
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'engine-note-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('a payment note', () => {
  it('holding a card number (20 spellings) or a CVV is refused at the engine, the note named; no request carries it, the journal keeps none', async () => {
    const sent: string[] = [];
    const journal = await openJournal(dir);
    const engine = new PaymentEngine({
      config: simulatorConfig(sim),
      secrets: { read: () => Promise.resolve(sim.clientSecret) },
      journal,
      fetch: async (input, init) => {
        sent.push(
          `${init?.method ?? 'GET'} ${new URL(String(input instanceof Request ? input.url : input)).pathname} ${typeof init?.body === 'string' ? init.body : ''}`,
        );
        return fetch(input, init);
      },
      sleep: () => Promise.resolve(),
    });
    const who = { reservationId: 'HTL-2041', operatorId: 'agent-7' };
    const method = await engine.tokenize({
      card: { number: '4000004840000008', expMonth: 12, expYear: new Date().getUTCFullYear() + 3, cvv: '123' },
      ...who,
    });
    const before = sent.length;
    for (const note of [...CARD_SPELLINGS.map((s) => `Pagó con ${s.text}`), ...CVV_PHRASES.map((p) => p.text)]) {
      const refusal = await engine.pay({ methodId: method.id, amountCents: 10000, currency: 'mxn', ...who, note }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refusal, note).toBeInstanceOf(ServiceError);
      expect(refusal).toMatchObject({ code: 'invalid_input', details: { param: 'note' } });
    }
    expect(sent.slice(before)).toEqual([]);
    // An ordinary note goes as metadata.
    const paid = await engine.pay({
      methodId: method.id,
      amountCents: 10000,
      currency: 'mxn',
      ...who,
      note: 'Depósito, tel. +52 998 123 4567',
    });
    expect(paid.id).toMatch(/^pay_/);
    expect(sent.at(-1)).toContain('Depósito');
    await engine.close();
    await journal.close();
    expect(
      pansInFolder(
        dir,
        CARD_SPELLINGS.map((s) => s.digits),
      ),
    ).toEqual([]);
  });
});
