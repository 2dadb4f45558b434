// Which saved cards can be charged: not after the method's TTL, not after the card's own expiry month.
import { describe, expect, it } from 'vitest';
import { isMethodUsable } from '../../../../../renderer/src/features/payment/ui/SavedMethods';

const method = {
  id: `mth_${'b'.repeat(32)}`,
  brand: 'visa',
  last4: '4242',
  expMonth: 12,
  expYear: 2026,
  createdAt: '2026-01-01T00:00:00.000Z',
};

describe('isMethodUsable', () => {
  it('is usable to the end of the expiry month, and not from the first day after it', () => {
    expect(isMethodUsable(method, Date.parse('2026-12-31T23:59:59.000Z'))).toBe(true);
    expect(isMethodUsable(method, Date.parse('2027-01-01T00:00:00.000Z'))).toBe(false);
  });

  it('is not usable once the saved method itself has expired (expiresAt)', () => {
    const saved = { ...method, expiresAt: '2026-11-23T10:00:00.000Z' };
    expect(isMethodUsable(saved, Date.parse('2026-11-23T09:59:59.000Z'))).toBe(true);
    expect(isMethodUsable(saved, Date.parse('2026-11-23T10:00:00.000Z'))).toBe(false);
  });
});
