// @vitest-environment happy-dom
// The start-up screen says what main is doing in the desk's language: connecting to the center, completing the operations
// left unanswered (which one of how many, and not to close the app meanwhile), or just starting.
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { installFakeMain } from '../../../support/bridge';
import { renderIn } from '../../../support/render';

installFakeMain();
const { StartingScreen } = await import('../../../../../renderer/src/features/startup');

describe('StartingScreen', () => {
  it('in Spanish, the operation being completed of how many, its progress, and not to close the app', () => {
    renderIn(
      'es-MX',
      <StartingScreen status={{ phase: 'recovering', language: 'es-MX', recovering: { total: 5, done: 1 } }} />,
    );
    expect(screen.getByRole('status').textContent).toBe('Completando 2 de 5 operaciones sin respuesta…');
    const bar = screen.getByRole('progressbar', { name: 'Operaciones completadas' });
    expect(bar.getAttribute('value')).toBe('1');
    expect(bar.getAttribute('max')).toBe('5');
    expect(screen.getByRole('alert').textContent).toContain('No cierre la aplicación mientras se completan.');
  });

  it('in English, connecting to the center, with no count and no warning', () => {
    renderIn('en-US', <StartingScreen status={{ phase: 'connecting_center', language: 'en-US' }} />);
    expect(screen.getByRole('status').textContent).toBe('Connecting to the center…');
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('heading', { level: 1 }).textContent).not.toBe('');
  });

  it('the last operation of all reads as that one, not one past it; none to complete says it is checking', () => {
    const { unmount } = renderIn(
      'en-US',
      <StartingScreen status={{ phase: 'recovering', language: 'en-US', recovering: { total: 3, done: 3 } }} />,
    );
    expect(screen.getByRole('status').textContent).toBe('Completing 3 of 3 operations left without an answer…');
    unmount();
    renderIn(
      'en-US',
      <StartingScreen status={{ phase: 'recovering', language: 'en-US', recovering: { total: 0, done: 0 } }} />,
    );
    expect(screen.getByRole('status').textContent).toBe('Checking for operations left without an answer…');
  });
});
