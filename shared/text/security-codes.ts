// Security codes in a text: 3 or 4 digits next to the code's name, in English or Spanish, abbreviated or dotted.

/** Between the letters of an abbreviation: a dot, a space, a hyphen ("c.v.v.", "C V V", "c-v-v"). */
const DOT = String.raw`[.\s\p{Pd}]?\s?`;
const ABBREVIATION = String.raw`c${DOT}(?:v${DOT}[vc2]|c${DOT}v)\.?(?:\s?2)?|cvn|cav|csc|cvd|cid`;
const ENGLISH_NAME = String.raw`card\s*(?:verification|security)\s*(?:value|code|number)|(?:security|verification|sec\.?)\s*(?:code|number|no\.?|#)`;
const SPANISH_NAME = String.raw`(?:c[oó]d(?:igo|\.)?|n[uú]m(?:ero|\.)?|clave)\s*(?:de\s*)?(?:seg(?:uridad|\.)?|verif(?:icaci[oó]n|\.)?)`;
/**
 * "the 3 digits on the back (of the card)", "los 3 dígitos de atrás", "números de atrás", "reverso de la tarjeta", and
 * the count alone before where they are: "los tres de atrás", "the 3 on the back".
 */
const BACK_OF_THE_CARD = String.raw`(?:(?:the|los|las)\s+)?(?:(?:[34]|three|four|tres|cuatro)\s+)?(?:digits?|d[ií]gitos?|numbers?|n[uú]meros?)\s+(?:on|at|in|of|de|del|en)\s+(?:(?:the|el|la)\s+)?(?:back|front|reverse|reverso|atr[aá]s|detr[aá]s|frente|enfrente)(?:\s+(?:of\s+the\s+card|de\s+la\s+tarjeta))?|(?:back|reverse)\s+of\s+the\s+card|reverso\s+de\s+la\s+tarjeta|(?:the|los|las)\s+(?:[34]|three|four|tres|cuatro)\s+(?:on|at|in|of|de|del|en)\s+(?:(?:the|el|la)\s+)?(?:back|front|reverse|reverso|atr[aá]s|detr[aá]s|frente|enfrente)`;
/** "código" alone: only before its number ("código 123"), never after one ("1204 código" is too often a room's). */
const CODE_ALONE = String.raw`c[oó]d(?:igo|\.)`;
const NAME = `${ABBREVIATION}|${ENGLISH_NAME}|${SPANISH_NAME}`;
/** Signs around a number or a name: colons, brackets, quotes of every kind, guillemets, marks of a question or an exclamation. */
const SIGN = String.raw`[\s:=#.,;/<>\u2192()\[\]'"\u2018\u2019\u201C\u201D\u00AB\u00BB*?!\u00BF\u00A1\p{Pd}]`;
/** The card itself named after the code's name: "cvv de la tarjeta", "code for this card", "CVV on the card". */
const OF_THE_CARD = String.raw`(?:(?:de|del|of|for|on|en)\s+(?:(?:la|the|this|esta|su|tu|your|my|mi)\s+)?(?:tarjeta|card)(?!\p{L})${SIGN}{0,4})?`;
/** Signs and small words between the name and its number: "cvv: es el 123", "the CVV is 741", "CVC (963)", "cvv de la tarjeta es 123". */
const FILLER = String.raw`${SIGN}{0,8}${OF_THE_CARD}(?:(?:is|es|are|son|was|era|number|n[uú]mero|no\.?|el|la|the)[\s:=#.]{1,4}){0,3}`;
/** 3 or 4 digits, maybe spaced ("1 2 3"), not part of a longer number ("123-456", "123.45"). */
const VALUE = String.raw`(\d(?:[ .\p{Pd}]?\d){2,3})(?!\d|[.,/\p{Pd}]\d)`;
const CVV_AFTER_NAME = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(?:${NAME}|${BACK_OF_THE_CARD}|${CODE_ALONE})(?!\p{L})${FILLER}${VALUE}`,
  'giu',
);
const CVV_BEFORE_NAME = new RegExp(
  String.raw`(?<![\p{L}\p{N}]|\d[.,/\p{Pd}])(\d{3,4})(?!\d)[\s:=#,;()\[\]'"\u2018\u2019\u201C\u201D\u00AB\u00BB<>*\p{Pd}]{0,6}(?:(?:es|is|was|era)\s+)?(?:(?:el|la|the|my|mi|su|its|your)\s+)?(?:${NAME})(?![\p{L}\p{N}])`,
  'giu',
);

export function findSecurityCodes(text: string): { start: number; end: number }[] {
  const found: { start: number; end: number }[] = [];
  for (const match of text.matchAll(CVV_AFTER_NAME)) {
    const value = match[1] ?? '';
    const end = match.index + match[0].length;
    found.push({ start: end - value.length, end });
  }
  for (const match of text.matchAll(CVV_BEFORE_NAME)) {
    const value = match[1] ?? '';
    found.push({ start: match.index, end: match.index + value.length });
  }
  return found;
}
