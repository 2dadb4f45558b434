// The card-data inputs' attributes and guards: copy, cut and drag out are refused; no autofill, no spell-checking.
// (CardCapture.test.tsx checks in a DOM that the number, expiry and CVC inputs carry them.)
import { describe, expect, it, vi } from 'vitest';
import { CARD_DATA_INPUT, refuseExport } from '../../../../../../renderer/src/features/payment/ui/card/inputs';

describe('CARD_DATA_INPUT', () => {
  it('turns off autofill, autocorrection and spell-checking', () => {
    expect(CARD_DATA_INPUT).toMatchObject({
      autoComplete: 'off',
      autoCorrect: 'off',
      autoCapitalize: 'off',
      spellCheck: false,
      inputMode: 'numeric',
    });
  });

  it.each(['onCopy', 'onCut', 'onDragStart'] as const)('%s refuses the event', (handler) => {
    const event = { preventDefault: vi.fn() };
    CARD_DATA_INPUT[handler](event);
    expect(event.preventDefault).toHaveBeenCalledOnce();
    expect(CARD_DATA_INPUT[handler]).toBe(refuseExport);
  });
});
