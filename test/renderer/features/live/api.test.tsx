// @vitest-environment happy-dom
// The live feed's hooks against a fake of main (support/bridge.ts): a screen opened while the center cannot be reached
// (its watch refused with center_unavailable) says "reconnecting", sends its watch again until main takes it, and then
// reads what it shows again, as after a resync: it is never left with an error and no feed.
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { useState, type JSX } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { installFakeMain } from '../../support/bridge';
import { renderIn } from '../../support/render';

const main = installFakeMain();
const { useLiveEvent, useLiveStatus, useLiveWatch, useLiveStore, WATCH_RETRY_MS } = await import(
  '../../../../renderer/src/features/live/api'
);

function Watcher(): JSX.Element {
  useLiveWatch({ queue: true });
  const state = useLiveStatus();
  const [reads, setReads] = useState(0);
  useLiveEvent('live:resync', () => setReads((n) => n + 1));
  return (
    <p>
      state={state} resyncs={reads}
    </p>
  );
}

const watches = (): unknown[] => main.sent.filter((s) => s.channel === 'live:watch').map((s) => s.input);

afterEach(() => {
  cleanup();
  useLiveStore.setState({ state: 'local' });
});

describe('live feed hooks', () => {
  it('a watch refused while the center is down says "reconnecting", is sent again until main takes it, then the screen reads again', async () => {
    main.reset();
    let centerUp = false;
    main.answer('live:watch', () =>
      centerUp ? { state: 'live' } : { code: 'center_unavailable', message: 'The center cannot be reached' },
    );
    renderIn('es-MX', <Watcher />);
    await waitFor(() => expect(screen.getByText(/state=reconnecting/)).toBeTruthy());
    expect(screen.getByText(/resyncs=0/)).toBeTruthy();
    // Still down at the first retry: sent again, still reconnecting.
    const first = WATCH_RETRY_MS[0] ?? 0;
    await waitFor(() => expect(watches().length).toBeGreaterThanOrEqual(2), { timeout: first * 1.5 + 1000 });
    expect(screen.getByText(/state=reconnecting/)).toBeTruthy();
    // The center is back: the next retry is taken, the state is main's, and the screen reads again once.
    centerUp = true;
    const second = WATCH_RETRY_MS[1] ?? 0;
    await waitFor(() => expect(screen.getByText(/state=live/)).toBeTruthy(), { timeout: second * 1.5 + 1000 });
    expect(screen.getByText(/resyncs=1/)).toBeTruthy();
    expect(
      watches().every((input) => JSON.stringify(input) === JSON.stringify({ queue: true, reservations: [] })),
    ).toBe(true);
    // Taken: no more watches are sent.
    const sentNow = watches().length;
    await act(() => new Promise((resolve) => setTimeout(resolve, first * 1.5)));
    expect(watches().length).toBe(sentNow);
  });

  it('a screen closed while its watch is being retried stops the retries', async () => {
    main.reset();
    main.answer('live:watch', (input) =>
      (input as { queue: boolean }).queue ? { code: 'center_unavailable', message: 'down' } : { state: 'live' },
    );
    const view = renderIn('en-US', <Watcher />);
    await waitFor(() => expect(screen.getByText(/state=reconnecting/)).toBeTruthy());
    view.unmount();
    await waitFor(() => expect(watches().at(-1)).toEqual({ queue: false, reservations: [] }));
    const sentNow = watches().length;
    await new Promise((resolve) => setTimeout(resolve, (WATCH_RETRY_MS[0] ?? 0) * 1.5 + 200));
    expect(watches().length).toBe(sentNow);
  });

  it('a watch refused for good (this window may not watch) is not sent again, and the feed is left as it stood', async () => {
    main.reset();
    main.answer('live:watch', () => ({ code: 'forbidden_sender', message: 'This window may not use the app.' }));
    renderIn('en-US', <Watcher />);
    await waitFor(() => expect(watches().length).toBe(1));
    await new Promise((resolve) => setTimeout(resolve, (WATCH_RETRY_MS[0] ?? 0) * 1.5 + 200));
    expect(watches().length).toBe(1);
    expect(screen.getByText(/state=local/)).toBeTruthy();
  });

  it('retries that end in a refusal for good put the feed back as it stood before them (no note left on screen)', async () => {
    main.reset();
    let calls = 0;
    main.answer('live:watch', () =>
      ++calls === 1
        ? { code: 'center_unavailable', message: 'down' }
        : { code: 'forbidden_sender', message: 'This window may not use the app.' },
    );
    renderIn('en-US', <Watcher />);
    await waitFor(() => expect(screen.getByText(/state=reconnecting/)).toBeTruthy());
    await waitFor(() => expect(screen.getByText(/state=local/)).toBeTruthy(), {
      timeout: (WATCH_RETRY_MS[0] ?? 0) * 1.5 + 1000,
    });
    expect(watches()).toHaveLength(2);
  });

  // The watch is retried through any refusal while the center comes back, not only center_unavailable: during a center
  // restart or failover the door can answer live:watch with another code for a moment (currentOperator's read of the
  // session failing in a way storage does not map: a read-only replica, a serialization conflict, both crossing as
  // `internal`). A retry that stopped there would leave the screen on "reconnecting" for good, its watch never sent
  // again, with no pushes when the center is back (until it is closed and opened).
  it('S5: a watch refused with another code while it is being retried is not left "reconnecting" without a watch', async () => {
    main.reset();
    let calls = 0;
    main.answer('live:watch', () => {
      calls += 1;
      if (calls === 1) return { code: 'center_unavailable', message: 'The center cannot be reached' };
      if (calls === 2) return { code: 'internal', message: 'Something went wrong in the app.' };
      return { state: 'live' };
    });
    renderIn('en-US', <Watcher />);
    await waitFor(() => expect(screen.getByText(/state=reconnecting/)).toBeTruthy());
    const first = WATCH_RETRY_MS[0] ?? 0;
    await waitFor(() => expect(watches().length).toBeGreaterThanOrEqual(2), { timeout: first * 1.5 + 1000 });
    // The center is back: within the next retries the watch is taken and the screen is live again.
    const next = (WATCH_RETRY_MS[1] ?? 0) + (WATCH_RETRY_MS[2] ?? 0);
    await waitFor(() => expect(screen.getByText(/state=live/)).toBeTruthy(), { timeout: next * 1.5 + 1000 });
  }, 20_000);
});
