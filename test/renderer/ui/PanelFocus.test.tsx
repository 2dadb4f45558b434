// @vitest-environment happy-dom
// Focus on a panel change: the new panel's heading (or main control) takes the focus the old panel dropped, and gives
// it up to the next panel's control; it never takes the focus from a field the agent is typing in.
import { render, screen } from '@testing-library/react';
import { useState, type JSX } from 'react';
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FocusHeading } from '../../../renderer/src/ui/PanelFocus';
import { usePanelFocus } from '../../../renderer/src/ui/usePanelFocus';

function SendPanel(): JSX.Element {
  const { focusRef } = usePanelFocus<HTMLInputElement>();
  return <input ref={focusRef} aria-label="Phone" />;
}

/** A card form, then a status panel, then the status panel with its 3DS form inside. */
function Flow(): JSX.Element {
  const [step, setStep] = useState(0);
  return (
    <>
      <input aria-label="Search" />
      <button type="button" onClick={() => setStep(step + 1)}>
        next
      </button>
      {step === 0 && <input aria-label="Card number" autoFocus />}
      {step >= 1 && (
        <section>
          <FocusHeading id="status">Status</FocusHeading>
          {step >= 2 && <SendPanel />}
        </section>
      )}
    </>
  );
}

afterEach(() => {
  document.body.innerHTML = '';
  vi.restoreAllMocks();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/**
 * happy-dom lays nothing out, so no size ever changes and its ResizeObserver never calls back. This stand-in keeps what
 * the page observes and lets the test say when the body's size changed, as the browser would after a row is added above.
 */
function observeResizes(): { grow: () => void } {
  const callbacks = new Set<() => void>();
  class Observer {
    constructor(private readonly callback: () => void) {}
    observe(): void {
      callbacks.add(this.callback);
    }
    unobserve(): void {
      callbacks.delete(this.callback);
    }
    disconnect(): void {
      callbacks.delete(this.callback);
    }
  }
  vi.stubGlobal('ResizeObserver', Observer);
  return { grow: () => callbacks.forEach((callback) => callback()) };
}

describe('panel focus', () => {
  it('moves from the replaced card form to the status heading, then to the 3DS panel’s field', () => {
    render(<Flow />);
    expect(document.activeElement).toBe(screen.getByLabelText('Card number'));
    // click() moves no focus (as Enter in the card form would not): the card form leaves, its focus is dropped.
    act(() => screen.getByRole('button', { name: 'next' }).click());
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Status' }));
    act(() => screen.getByRole('button', { name: 'next' }).click());
    expect(document.activeElement).toBe(screen.getByLabelText('Phone'));
  });

  it('takes the focus when the panel that had it left the page', () => {
    function Swap(): JSX.Element {
      const [done, setDone] = useState(false);
      return done ? (
        <FocusHeading id="result">Result</FocusHeading>
      ) : (
        <input aria-label="Card number" autoFocus onKeyDown={() => setDone(true)} />
      );
    }
    render(<Swap />);
    act(() => {
      screen.getByLabelText('Card number').dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    });
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Result' }));
  });

  it('never takes the focus from a field the agent is typing in', () => {
    function Late(): JSX.Element {
      const [shown, setShown] = useState(false);
      return (
        <>
          <input aria-label="Search" autoFocus onKeyDown={() => setShown(true)} />
          {shown && <FocusHeading id="status">Status</FocusHeading>}
        </>
      );
    }
    render(<Late />);
    act(() => {
      screen.getByLabelText('Search').dispatchEvent(new KeyboardEvent('keydown', { key: 'a', bubbles: true }));
    });
    expect(screen.getByRole('heading', { name: 'Status' })).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText('Search'));
  });

  it('keeps the panel’s control in view while the screen above it settles, however slowly, until the agent acts', () => {
    vi.useFakeTimers();
    const page = observeResizes();
    const scrolled = vi.spyOn(HTMLElement.prototype, 'scrollIntoView').mockImplementation(() => undefined);
    render(<SendPanel />);
    expect(scrolled).toHaveBeenCalledTimes(1);
    // On a busy workstation the payments list may gain this payment's row seconds later: the control follows it.
    act(() => {
      vi.advanceTimersByTime(5_000);
    });
    page.grow();
    expect(scrolled).toHaveBeenCalledTimes(2);
    // Once the agent scrolls, clicks or types, the page is theirs: nothing moves it any more.
    window.dispatchEvent(new Event('pointerdown'));
    page.grow();
    expect(scrolled).toHaveBeenCalledTimes(2);
  });

  it('stops following on the agent’s wheel or key, and when the panel leaves', () => {
    const page = observeResizes();
    const scrolled = vi.spyOn(HTMLElement.prototype, 'scrollIntoView').mockImplementation(() => undefined);
    const first = render(<SendPanel />);
    window.dispatchEvent(new Event('wheel'));
    page.grow();
    expect(scrolled).toHaveBeenCalledTimes(1);
    first.unmount();
    const second = render(<SendPanel />);
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab' }));
    page.grow();
    expect(scrolled).toHaveBeenCalledTimes(2);
    second.unmount();
    render(<SendPanel />);
    expect(scrolled).toHaveBeenCalledTimes(3);
  });
});
