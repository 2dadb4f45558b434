// @vitest-environment happy-dom
// Focus on a panel change: the new panel's heading (or main control) takes the focus the old panel dropped, and gives
// it up to the next panel's control; it never takes the focus from a field the agent is typing in.
import { render, screen } from '@testing-library/react';
import { useState, type JSX } from 'react';
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
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
});

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
});
