// @vitest-environment happy-dom
// The update banner in a DOM: shown only for a ready update, with the restart button only when no payment is in
// progress, in both languages; and what the agent's click does.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { UpdateStatus } from '../../../../shared/ipc';
import type { Language } from '../../../../shared/language';
import { noticeFor } from '../../../../renderer/src/features/updates/notice';
import { UpdateNotice } from '../../../../renderer/src/features/updates/ui/UpdateNotice';
import { renderIn } from '../../support/render';

const READY: UpdateStatus = { state: 'ready', version: '1.4.0', channel: 'stable' };

function render(
  status: UpdateStatus | undefined,
  options: { language?: Language; restarting?: boolean; problem?: string; onRestart?: () => void } = {},
): HTMLElement {
  const { container } = renderIn(
    options.language ?? 'en-US',
    <UpdateNotice
      status={status}
      restarting={options.restarting ?? false}
      problem={options.problem}
      onRestart={options.onRestart ?? (() => undefined)}
    />,
  );
  return container;
}
const text = (element: Element): string => (element.textContent ?? '').replace(/\s+/g, ' ').trim();

describe('noticeFor', () => {
  it.each<UpdateStatus | undefined>([
    undefined,
    { state: 'disabled', message: 'IT has set no update server.' },
    { state: 'idle', channel: 'stable' },
    { state: 'checking', channel: 'pilot' },
    { state: 'downloading', version: '1.4.0', channel: 'stable' },
    {
      state: 'error',
      channel: 'stable',
      message: 'The update could not be checked or downloaded; the app tries again later.',
    },
  ])('nothing for the agent: %j', (status) => {
    expect(noticeFor(status)).toEqual({ kind: 'none' });
  });

  it('a ready update, after the call while a payment is in progress', () => {
    expect(noticeFor(READY)).toEqual({ kind: 'ready', version: '1.4.0', afterCall: false });
    expect(noticeFor({ ...READY, blockedBy: 'payment_in_progress' })).toEqual({
      kind: 'ready',
      version: '1.4.0',
      afterCall: true,
    });
  });
});

describe('UpdateNotice', () => {
  it('renders nothing unless an update is ready', () => {
    expect(render({ state: 'downloading', version: '1.4.0', channel: 'stable' }).innerHTML).toBe('');
    expect(render(undefined).innerHTML).toBe('');
  });

  it('ready: the version, and a restart button that restarts', async () => {
    const onRestart = vi.fn();
    render(READY, { onRestart });
    const status = screen.getByRole('status');
    expect(
      status.contains(
        screen.getByText('Version 1.4.0 of the app is ready. Restart to install it; it takes about a minute.'),
      ),
    ).toBe(true);
    expect(screen.getAllByRole('button').map((button) => button.textContent)).toEqual(['Restart now']);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Restart now' }));
    expect(onRestart).toHaveBeenCalledOnce();
  });

  it('ready during a payment: no restart button, and it says the update waits for the end of the call', () => {
    render({ ...READY, blockedBy: 'payment_in_progress' });
    expect(screen.queryByRole('button')).toBeNull();
    expect(text(screen.getByRole('status'))).toBe(
      'Version 1.4.0 of the app is ready. It will be installed when you restart, once the payment in progress has its result.',
    );
  });

  it('restarting: the button is disabled and says so; a refusal is shown as an alert', () => {
    render(READY, { restarting: true });
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Restarting…' }).disabled).toBe(true);
    render(READY, { problem: 'A payment is still in progress: restart at the end of the call.' });
    expect(screen.getByRole('alert').textContent).toBe(
      'A payment is still in progress: restart at the end of the call.',
    );
  });

  it('in Spanish', () => {
    render(READY, { language: 'es-MX' });
    expect(
      screen.getByText(
        'La versión 1.4.0 de la aplicación está lista. Reinicie para instalarla; tarda alrededor de un minuto.',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reiniciar ahora' })).toBeTruthy();
  });

  it('in Spanish, during a payment', () => {
    render({ ...READY, blockedBy: 'payment_in_progress' }, { language: 'es-MX' });
    expect(text(screen.getByRole('status'))).toMatch(
      /^La versión 1\.4\.0 .* una vez que el pago en curso tenga su resultado\.$/,
    );
  });
});
