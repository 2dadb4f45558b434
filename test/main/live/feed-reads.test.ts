// What a desk reads of the center when another desk's refund request changes: nothing more when the notice names desks
// it does not concern (where it was asked, the desk to alert of a late success); the request, and only then, when it
// names this desk or names none (a desk of an earlier version). The feed's own logic: the center's LISTEN connection is
// a stand-in that hands the feed a notice as the real one parses it (main/storage/changes.ts, tested on PostgreSQL in
// test/main/storage/changes.test.ts and end to end in feed.test.ts).
import { describe, expect, it, vi } from 'vitest';
import { LiveFeed, type LiveFeedDeps } from '../../../main/live';
import { parseChange, type Change, type ChangeListener, type ChangeListenerOptions } from '../../../main/storage';

const HERE = 'desk-here';

function feedHearing(): { hear: (payload: object) => void; deps: LiveFeedDeps; emitted: string[] } {
  let onChange: ChangeListenerOptions['onChange'] | undefined;
  const emitted: string[] = [];
  const deps: LiveFeedDeps = {
    deskId: HERE,
    listen: (options) => {
      onChange = options.onChange;
      return { acquire: () => () => undefined, close: () => Promise.resolve() } as unknown as ChangeListener;
    },
    readPayment: vi.fn(() => Promise.resolve(undefined)),
    readRequest: vi.fn(() => Promise.resolve(undefined)),
    readOutcome: vi.fn(() => Promise.resolve(undefined)),
    reservationKey: (id) => id.replace(/-/g, '').toUpperCase(),
    emit: (event) => void emitted.push(event),
  };
  const feed = new LiveFeed(deps);
  feed.watch(1, { queue: true, reservations: ['CUN-6B3D8F'], requests: true });
  return {
    deps,
    emitted,
    hear: (payload) => {
      const change = parseChange('cpd_refund_request_changed', JSON.stringify(payload)) as Change;
      expect(change).toBeDefined();
      onChange?.(change);
    },
  };
}

const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 10));

describe("another desk's refund request changed", () => {
  it('asked at and alerting other desks: the queue is told, and nothing is read', async () => {
    const { hear, deps, emitted } = feedHearing();
    hear({ d: 'desk-b', q: 'req-1', p: 'pay_1', a: 'desk-b', l: 'desk-c' });
    await settle();
    expect(emitted).toEqual(['refunds:changed']);
    expect(deps.readRequest).not.toHaveBeenCalled();
    expect(deps.readOutcome).not.toHaveBeenCalled();
  });

  it.each([
    ['asked here', { a: HERE }],
    ['alerting here', { a: 'desk-b', l: HERE }],
    ['naming no desk (written by an earlier version)', {}],
    ['naming desks the parse refuses (not text, or empty)', { a: 42, l: '' }],
  ])('%s: the request is read', async (_, names) => {
    const { hear, deps, emitted } = feedHearing();
    hear({ d: 'desk-b', q: 'req-1', p: 'pay_1', ...names });
    await settle();
    expect(emitted).toEqual(['refunds:changed']);
    expect(deps.readRequest).toHaveBeenCalledWith('req-1');
    expect(deps.readOutcome).toHaveBeenCalledWith('req-1');
  });
});
