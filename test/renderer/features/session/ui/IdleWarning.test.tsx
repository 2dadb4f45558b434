// @vitest-environment happy-dom
// The warning a minute before the idle lock, in a DOM, with main's `session:idleWarning` event sent by a fake of main
// (support/bridge.ts: Electron's IPC cannot run in a unit test): it says when the desk locks, and a key press tells main
// the operator is at work and hides it.
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { installFakeMain } from '../../../support/bridge';
import { renderIn } from '../../../support/render';

const main = installFakeMain();
const { IdleWarning } = await import('../../../../../renderer/src/features/session');

beforeEach(() => main.reset());

describe('IdleWarning', () => {
  it('nothing until main warns; then when the desk locks; a key press reports activity and hides it', async () => {
    const user = userEvent.setup();
    renderIn('en-US', <IdleWarning />);
    expect(screen.queryByRole('alert')).toBeNull();
    const locksAt = new Date(Date.now() + 60_000);
    act(() => main.emit('session:idleWarning', { locksAt: locksAt.toISOString() }));
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toMatch(/^The desk locks at .+ for inactivity\. Press any key to keep working\.$/);
    expect(main.sent.some((call) => call.channel === 'session:activity')).toBe(false);
    await user.keyboard('a');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(main.sent.some((call) => call.channel === 'session:activity')).toBe(true);
  });

  it('in Spanish', () => {
    renderIn('es-MX', <IdleWarning />);
    act(() => main.emit('session:idleWarning', { locksAt: new Date(Date.now() + 60_000).toISOString() }));
    expect(screen.getByRole('alert').textContent).toContain('El escritorio se bloqueará a las');
  });
});
