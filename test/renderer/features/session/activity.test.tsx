// @vitest-environment happy-dom
// What the operator does in the window tells main they are at work (the idle lock is main's): typing, pointing, and
// scrolling what a screen shows with the wheel or a touchpad — a supervisor reading the payments or the audit trail
// makes no other call. A fake of main (support/bridge.ts) records what the page sends.
import { act } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { installFakeMain } from '../../support/bridge';
import { renderIn } from '../../support/render';

const main = installFakeMain();
const { useActivityReport } = await import('../../../../renderer/src/features/session');

function Desk(): null {
  useActivityReport();
  return null;
}

const reported = (): number => main.sent.filter((call) => call.channel === 'session:activity').length;

beforeEach(() => main.reset());

describe("the operator's activity", () => {
  it('a key press is reported', () => {
    renderIn('en-US', <Desk />);
    act(() => void window.dispatchEvent(new KeyboardEvent('keydown', { key: 'a' })));
    expect(reported()).toBe(1);
  });

  // The reads a scrolled screen makes are background: without this, a supervisor reading a long list is locked at work.
  it('scrolling with the wheel is reported', () => {
    renderIn('en-US', <Desk />);
    act(() => void window.dispatchEvent(new WheelEvent('wheel', { deltaY: 120 })));
    expect(reported()).toBe(1);
  });
});
