// Content protection follows the card form: told once when card data appears, once when it goes, and on unmount.
import { describe, expect, it, vi } from 'vitest';
import { createPresence } from '../../../../../../renderer/src/features/payment/ui/card/presence';

describe('createPresence', () => {
  it('reports each change once, never a repeat', () => {
    const listener = vi.fn();
    const presence = createPresence();
    presence.update(false, listener);
    presence.update(true, listener);
    presence.update(true, listener);
    presence.update(false, listener);
    presence.update(false, listener);
    presence.update(true, listener);
    expect(listener.mock.calls).toEqual([[true], [false], [true]]);
  });

  it('reports "no card data" when the form goes while holding some (idle lock, navigation)', () => {
    const listener = vi.fn();
    const presence = createPresence();
    presence.update(true, listener);
    presence.end(listener);
    expect(listener.mock.calls).toEqual([[true], [false]]);
  });

  it('says nothing when an empty form goes', () => {
    const listener = vi.fn();
    const presence = createPresence();
    presence.update(true, listener);
    presence.update(false, listener);
    presence.end(listener);
    expect(listener.mock.calls).toEqual([[true], [false]]);
  });

  it('reports to the listener of the moment', () => {
    const first = vi.fn();
    const second = vi.fn();
    const presence = createPresence();
    presence.update(true, first);
    presence.end(second);
    expect(first.mock.calls).toEqual([[true]]);
    expect(second.mock.calls).toEqual([[false]]);
  });
});
