// @vitest-environment happy-dom
// The reconnecting note in a DOM, against a fake of main (support/bridge.ts): shown while main says the center's live
// feed is being reconnected, in the desk's language, and gone when it is back.
import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Language } from '../../../../../shared/language';
import { installFakeMain } from '../../../support/bridge';
import { renderIn } from '../../../support/render';

const main = installFakeMain();
const { LiveNote } = await import('../../../../../renderer/src/features/live');

describe('LiveNote', () => {
  it.each<[Language, RegExp]>([
    ['en-US', /^Reconnecting to the center… What you see may be out of date/],
    ['es-MX', /^Reconectando con el centro… Lo que ve puede no estar al día/],
  ])(
    '%s: nothing while the feed is live, the note while it is being reconnected, nothing once it is back',
    (language, words) => {
      const { container } = renderIn(language, <LiveNote />);
      expect(container.innerHTML).toBe('');
      act(() => main.emit('live:status', { state: 'reconnecting' }));
      expect(screen.getByRole('status').textContent).toMatch(words);
      act(() => main.emit('live:status', { state: 'live' }));
      expect(container.innerHTML).toBe('');
    },
  );
});
