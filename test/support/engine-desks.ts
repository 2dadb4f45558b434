// Desks as the payment engine sees them, for tests of the money rules across desks: each desk a Journal on a storage
// (the center's PostgreSQL, or a connection to one embedded file) and a PaymentEngine, all on one simulator. fetch is
// wrapped only to observe what the service made.
import { afterEach } from 'vitest';
import { PaymentEngine, simulatorConfig } from '../../main/payments';
import { Journal } from '../../main/payments/journal';
import type { Storage } from '../../main/storage';
import { useSimulator, type TestSimulator } from './simulator';

export const DESK_A = { deskId: '1a1a1a1a-0000-4000-8000-00000000001a' };
export const DESK_B = { deskId: '2b2b2b2b-0000-4000-8000-00000000002b' };

export interface EngineDesk {
  journal: Journal;
  engine: PaymentEngine;
}

/** What the service made, as the desks saw it answered: payment ids of POST /payments, refund ids of POST …/refunds. */
export interface Made {
  payments: Set<string>;
  refunds: Set<string>;
  /** The Idempotency-Key of every POST /payments sent, in order. */
  paymentKeys: string[];
}

export interface EngineDesks {
  /** The simulator of this file (started before its tests, reset after each). */
  sim: () => TestSimulator;
  made: Made;
  /** A desk on `storage`: closed, and `made` emptied, after each test. */
  openDesk: (
    storage: Promise<Storage>,
    desk: { deskId: string },
    options?: { now?: () => number },
  ) => Promise<EngineDesk>;
}

/** Registers the hooks (one simulator per file, desks closed after each test). */
export function useEngineDesks(): EngineDesks {
  const sim = useSimulator({ processingDelayMs: 0, refundDelayMs: 0 });
  const current = (): TestSimulator => sim;

  const made: Made = { payments: new Set(), refunds: new Set(), paymentKeys: [] };
  const observing: typeof fetch = async (input, init) => {
    const path = new URL(input instanceof Request ? input.url : String(input)).pathname;
    const post = (init?.method ?? 'GET') === 'POST';
    if (post && path.endsWith('/payments'))
      made.paymentKeys.push(new Headers(init?.headers).get('idempotency-key') ?? '');
    const response = await fetch(input, init);
    if (post && response.status === 201) {
      const body = (await response.clone().json()) as { id?: string };
      if (path.endsWith('/payments') && body.id) made.payments.add(body.id);
      if (path.endsWith('/refunds') && body.id) made.refunds.add(body.id);
    }
    return response;
  };

  const opened: EngineDesk[] = [];
  afterEach(async () => {
    for (const { engine, journal } of opened.splice(0)) {
      await engine.close();
      await journal.close();
    }
    made.payments.clear();
    made.refunds.clear();
    made.paymentKeys.length = 0;
  });

  return {
    sim: current,
    made,
    openDesk: async (storage, desk, options = {}) => {
      const journal = await Journal.open(await storage, desk);
      const sim_ = current();
      const engine = new PaymentEngine({
        config: simulatorConfig(sim_),
        secrets: { read: () => Promise.resolve(sim_.clientSecret) },
        journal,
        fetch: observing,
        backoffBaseMs: 1,
        ...(options.now ? { now: options.now } : {}),
      });
      const desk_ = { journal, engine };
      opened.push(desk_);
      return desk_;
    },
  };
}
