/** What every card-data input carries: no autofill or remembered values, no spelling service, nothing copied or dragged out. */

/** Copying, cutting or dragging card data out of a field is refused. */
export const refuseExport = (event: { preventDefault(): void }): void => event.preventDefault();

export const CARD_DATA_INPUT = {
  type: 'text',
  inputMode: 'numeric',
  autoComplete: 'off',
  autoCorrect: 'off',
  autoCapitalize: 'off',
  spellCheck: false,
  'aria-required': true,
  onCopy: refuseExport,
  onCut: refuseExport,
  onDragStart: refuseExport,
} as const;
