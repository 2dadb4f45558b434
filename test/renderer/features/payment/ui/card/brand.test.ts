// Brand names as people write them, from card-validator's types and from the service's brand words.
import { describe, expect, it } from 'vitest';
import { brandName, lastFour } from '../../../../../../renderer/src/features/payment/ui/card/brand';
import { cardBrand } from '../../../../../../shared/payments/card';

describe('brandName', () => {
  it.each([
    ['visa', 'Visa'],
    ['mastercard', 'Mastercard'],
    ['american-express', 'American Express'],
    ['amex', 'American Express'],
    ['diners', 'Diners Club'],
    ['VISA', 'Visa'],
    ['carnet', 'Carnet'],
    ['newbrand', 'Newbrand'],
  ])('%s → %s', (brand, name) => {
    expect(brandName(brand)).toBe(name);
  });

  it('has no name for an unknown brand', () => {
    expect(brandName('unknown')).toBeUndefined();
    expect(brandName('')).toBeUndefined();
  });

  it('names the brands card-validator detects from the first digits', () => {
    expect(brandName(cardBrand('42'))).toBe('Visa');
    expect(brandName(cardBrand('55'))).toBe('Mastercard');
    expect(brandName(cardBrand('37'))).toBe('American Express');
    expect(brandName(cardBrand('7'))).toBeUndefined();
  });
});

describe('lastFour', () => {
  it('keeps the last four digits only', () => {
    expect(lastFour('4242424242424242')).toBe('4242');
    expect(lastFour('378282246310005')).toBe('0005');
  });
});
