/** Free text as every layer checks it: the one card-data detector, and the zod building blocks every free-text field is made of. */
export {
  MAX_CARD_DIGITS,
  MIN_CARD_DIGITS,
  containsCardData,
  findCardData,
  isCardNumberDigits,
  isPlausibleCardLength,
  redactCardData,
  type CardDataKind,
  type CardDataMatch,
  type CardDataPlaceholders,
} from './card-data';
export {
  MAX_FREE_TEXT_LENGTH,
  TEXT_ISSUES,
  freeText,
  textIssueCode,
  type FreeTextOptions,
  type TextIssueCode,
} from './free-text';
