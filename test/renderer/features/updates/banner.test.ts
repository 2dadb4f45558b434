// The update banner, rendered to HTML with react-dom/server (no DOM environment here): shown only for a ready update,
// with the restart button only when no payment is in progress, in both languages.
import { createElement, type FunctionComponent, type ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { UpdateStatus } from '../../../../shared/ipc';
import { noticeFor } from '../../../../renderer/src/features/updates/notice';

// Typed here rather than by the .tsx modules' declarations: the test project has neither JSX nor DOM types (see test/tsconfig.json).
type Language = 'es-MX' | 'en-US';
const { UpdateNotice } = (await import('../../../../renderer/src/features/updates/ui/UpdateNotice')) as unknown as {
  UpdateNotice: FunctionComponent<{ status: UpdateStatus | undefined; restarting: boolean; problem: string | undefined; onRestart: () => void }>;
};
const { I18nProvider } = (await import('../../../../renderer/src/i18n/I18nProvider')) as unknown as {
  I18nProvider: FunctionComponent<{ initialLanguage: Language }>;
};

const render = (status: UpdateStatus | undefined, options: { language?: Language; restarting?: boolean; problem?: string } = {}): string => {
  const notice: ReactElement = createElement(UpdateNotice, { status, restarting: options.restarting ?? false, problem: options.problem, onRestart: () => undefined });
  return renderToString(createElement(I18nProvider, { initialLanguage: options.language ?? 'en-US' }, notice));
};
const text = (html: string): string => html.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
const READY: UpdateStatus = { state: 'ready', version: '1.4.0', channel: 'stable' };

describe('noticeFor', () => {
  it.each<UpdateStatus | undefined>([
    undefined,
    { state: 'disabled', message: 'IT has set no update server.' },
    { state: 'idle', channel: 'stable' },
    { state: 'checking', channel: 'pilot' },
    { state: 'downloading', version: '1.4.0', channel: 'stable' },
    { state: 'error', channel: 'stable', message: 'The update could not be checked or downloaded; the app tries again later.' },
  ])('nothing for the agent: %j', (status) => {
    expect(noticeFor(status)).toEqual({ kind: 'none' });
  });

  it('a ready update, after the call while a payment is in progress', () => {
    expect(noticeFor(READY)).toEqual({ kind: 'ready', version: '1.4.0', afterCall: false });
    expect(noticeFor({ ...READY, blockedBy: 'payment_in_progress' })).toEqual({ kind: 'ready', version: '1.4.0', afterCall: true });
  });
});

describe('UpdateNotice', () => {
  it('renders nothing unless an update is ready', () => {
    expect(render({ state: 'downloading', version: '1.4.0' })).toBe('');
    expect(render(undefined)).toBe('');
  });

  it('ready: the version, and a restart button', () => {
    const html = render(READY);
    expect(html).toMatch(/role="status"/);
    expect(text(html)).toBe('Version 1.4.0 of the app is ready. Restart to install it; it takes about a minute. Restart now');
    expect(html.match(/<button\b[^>]*>/g)).toEqual(['<button type="button" class="update-banner__restart">']);
  });

  it('ready during a payment: no restart button, and it says the update waits for the end of the call', () => {
    const html = render({ ...READY, blockedBy: 'payment_in_progress' });
    expect(html).not.toContain('<button');
    expect(text(html)).toBe('Version 1.4.0 of the app is ready. It will be installed when you restart, once the payment in progress has its result.');
  });

  it('restarting: the button is disabled and says so; a refusal is shown as an alert', () => {
    expect(render(READY, { restarting: true })).toMatch(/<button type="button" class="update-banner__restart" disabled="">Restarting…<\/button>/);
    const refused = render(READY, { problem: 'A payment is still in progress: restart at the end of the call.' });
    expect(refused).toMatch(/<p class="update-banner__problem" role="alert">A payment is still in progress/);
  });

  it('in Spanish', () => {
    expect(text(render(READY, { language: 'es-MX' }))).toBe(
      'La versión 1.4.0 de la aplicación está lista. Reinicie para instalarla; tarda alrededor de un minuto. Reiniciar ahora',
    );
    expect(text(render({ ...READY, blockedBy: 'payment_in_progress' }, { language: 'es-MX' }))).toMatch(/^La versión 1\.4\.0 .* una vez que el pago en curso tenga su resultado\.$/);
  });
});
