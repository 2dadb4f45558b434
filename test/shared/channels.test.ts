// The preload's name lists (shared/ipc/channels.ts, free of schemas) are exactly the contract's channels and events.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { CHANNEL_NAMES, EVENT_NAMES } from '../../shared/ipc/channels';
import { CHANNELS, EVENTS, type Channel, type EventName } from '../../shared/ipc/contract';

describe('shared/ipc/channels', () => {
  it('names every channel of the contract once, and nothing else', () => {
    expect(new Set(CHANNEL_NAMES).size).toBe(CHANNEL_NAMES.length);
    expect([...CHANNEL_NAMES].sort()).toEqual(Object.keys(CHANNELS).sort());
    // At compile time too: a channel added to the contract but not to the list (or the other way) does not typecheck.
    expectTypeOf<(typeof CHANNEL_NAMES)[number]>().toEqualTypeOf<Channel>();
  });

  it('names every event of the contract once, and nothing else', () => {
    expect(new Set(EVENT_NAMES).size).toBe(EVENT_NAMES.length);
    expect([...EVENT_NAMES].sort()).toEqual(Object.keys(EVENTS).sort());
    expectTypeOf<(typeof EVENT_NAMES)[number]>().toEqualTypeOf<EventName>();
  });

  it('is the list the shared/ipc entry exports', async () => {
    const entry = await import('../../shared/ipc');
    expect(entry.CHANNEL_NAMES).toBe(CHANNEL_NAMES);
    expect(entry.EVENT_NAMES).toBe(EVENT_NAMES);
  });
});
