/** Card brands as people write them, from card-validator's type names or the service's brand words. */
const NAMES: Readonly<Record<string, string>> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  'american-express': 'American Express',
  amex: 'American Express',
  'diners-club': 'Diners Club',
  diners: 'Diners Club',
  discover: 'Discover',
  jcb: 'JCB',
  unionpay: 'UnionPay',
  maestro: 'Maestro',
  elo: 'Elo',
  mir: 'Mir',
  hiper: 'Hiper',
  hipercard: 'Hipercard',
  troy: 'Troy',
  naranja: 'Naranja',
  verve: 'Verve',
  carnet: 'Carnet',
};

/** The brand as a card is labelled on screen next to its last 4 ("Visa", "Amex"). */
export function brandLabel(brand: string): string {
  return brand === 'amex' || brand === 'american-express' ? 'Amex' : brand.charAt(0).toUpperCase() + brand.slice(1);
}

/** The brand's name ("Visa", "American Express"), or undefined when the brand is not known. */
export function brandName(brand: string): string | undefined {
  const word = brand.trim().toLowerCase();
  if (word === '' || word === 'unknown' || word === 'card') return undefined;
  return NAMES[word] ?? word.charAt(0).toUpperCase() + word.slice(1);
}

/** The last four digits, and nothing more, of a number. */
export const lastFour = (digits: string): string => digits.slice(-4);
