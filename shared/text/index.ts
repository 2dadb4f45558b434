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
export { TEXT_ISSUES, freeText, textIssueCode, type FreeTextOptions, type TextIssueCode } from './free-text';
