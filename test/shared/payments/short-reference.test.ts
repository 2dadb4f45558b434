// The short reference read to the guest, and the key a search compares it by.
import { describe, expect, it } from 'vitest';
import { shortReference, shortReferenceKey } from '../../../shared/payments';

const ID = 'pay_0123456789abcdef01234567' + '9d21f5a0';

describe('short reference', () => {
  it('is the last 8 characters of the payment id, upper case, in two groups of 4', () => {
    expect(shortReference(ID)).toBe('9D21-F5A0');
  });

  it.each(['9D21-F5A0', '9d21-f5a0', '9D21F5A0', ' 9d21 f5a0 ', '9D21–F5A0', '９D21-F5A0'])(
    '%s gives the key of the payment id’s tail',
    (text) => {
      expect(shortReferenceKey(text)).toBe('9d21f5a0');
    },
  );

  it.each(['9D21-F5', '9D21-F5A0X', 'CUN-6B3D8F', 'GZ21-F5A0', 'sofia nunez'])(
    '%s is not a short reference',
    (text) => {
      expect(shortReferenceKey(text)).toBeUndefined();
    },
  );
});
