// The card-data inputs' attributes and guards: copy, cut and drag out are refused; no autofill, no spell-checking.
// (The markup test checks that the number, expiry and CVC inputs carry them; the wiring is read here from the
// element tree CardFields returns — it uses no hooks, so it can be called as a plain function.)
import { isValidElement, type ReactElement, type ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { CARD_DATA_INPUT, refuseExport } from '../../../../../../renderer/src/features/payment/ui/card/inputs';
import { cardFormReducer, initialCardForm } from '../../../../../../renderer/src/features/payment/ui/card/state';
import { bindI18n } from '../../../../../../renderer/src/i18n/bind';

type Props = Record<string, unknown> & { children?: ReactNode; id?: string };

// Typed here rather than by the .tsx module's declarations: the test project has neither JSX nor DOM types (see test/tsconfig.json).
const { CardFields } = (await import('../../../../../../renderer/src/features/payment/ui/card/CardCapture')) as unknown as {
  CardFields: (props: Record<string, unknown>) => ReactNode;
};

function findById(node: ReactNode, id: string): ReactElement<Props> | undefined {
  if (Array.isArray(node)) {
    for (const child of node as ReactNode[]) {
      const found = findById(child, id);
      if (found) return found;
    }
    return undefined;
  }
  if (!isValidElement<Props>(node)) return undefined;
  if (node.props.id === id) return node;
  return findById(node.props.children, id);
}

describe('CARD_DATA_INPUT', () => {
  it('turns off autofill, autocorrection and spell-checking', () => {
    expect(CARD_DATA_INPUT).toMatchObject({ autoComplete: 'off', autoCorrect: 'off', autoCapitalize: 'off', spellCheck: false, inputMode: 'numeric' });
  });

  it.each(['onCopy', 'onCut', 'onDragStart'] as const)('%s refuses the event', (handler) => {
    const event = { preventDefault: vi.fn() };
    CARD_DATA_INPUT[handler](event);
    expect(event.preventDefault).toHaveBeenCalledOnce();
    expect(CARD_DATA_INPUT[handler]).toBe(refuseExport);
  });
});

describe('CardFields', () => {
  const noop = (): void => undefined;
  const state = cardFormReducer(initialCardForm(0), { type: 'edit', field: 'number', value: '4242424242424242', now: 0 });
  const tree = CardFields({
    id: 'c',
    state,
    i18n: bindI18n('en-US', noop),
    numberRef: null,
    expiryRef: null,
    cvcRef: null,
    holderRef: null,
    autoFocus: false,
    handlers: { changeNumber: noop, changeExpiry: noop, changeCvc: noop, leave: () => noop, edited: noop },
  });

  it.each(['c-number', 'c-expiry', 'c-cvc'])('%s refuses copy, cut and drag', (id) => {
    const input = findById(tree, id);
    expect(input?.type).toBe('input');
    for (const handler of ['onCopy', 'onCut', 'onDragStart']) {
      const event = { preventDefault: vi.fn() };
      (input?.props[handler] as ((event: unknown) => void) | undefined)?.(event);
      expect(event.preventDefault).toHaveBeenCalledOnce();
    }
  });

  it('lets the name be copied like any text (it is not card data the desk protects that way)', () => {
    expect(findById(tree, 'c-holder')?.props.onCopy).toBeUndefined();
  });

  it('shows the typed number in groups', () => {
    expect(findById(tree, 'c-number')?.props.value).toBe('4242 4242 4242 4242');
  });
});
