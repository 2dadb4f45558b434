// A refund draft's checks: all that is left or a partial amount to the cent, over-refund and a missing reason refused
// before any request.
import { describe, expect, it } from 'vitest';
import { checkDraft } from '../../../../renderer/src/features/refunds/draft';

describe('checkDraft', () => {
  it('a full refund sends no amount (all that is left)', () => {
    expect(checkDraft({ scope: 'full', amount: '', reason: 'cancellation' }, 98000)).toEqual({
      ok: true,
      amountCents: undefined,
      reason: 'cancellation',
    });
  });

  it('a partial refund up to what is left, to the cent', () => {
    expect(checkDraft({ scope: 'partial', amount: '1,000.50', reason: 'duplicate' }, 100050)).toEqual({
      ok: true,
      amountCents: 100050,
      reason: 'duplicate',
    });
  });

  it('more than what is left is refused before any request', () => {
    expect(checkDraft({ scope: 'partial', amount: '1000.51', reason: 'duplicate' }, 100050)).toEqual({
      ok: false,
      amount: 'refund.overLeft',
      reason: undefined,
    });
  });

  it('nothing left: even a full refund is refused', () => {
    expect(checkDraft({ scope: 'full', amount: '', reason: 'duplicate' }, 0)).toMatchObject({
      ok: false,
      amount: 'refund.overLeft',
    });
  });

  it('an amount that is not one, and a missing reason', () => {
    expect(checkDraft({ scope: 'partial', amount: 'abc', reason: '' }, 1000)).toEqual({
      ok: false,
      amount: 'amount.notNumber',
      reason: 'refund.reason.missing',
    });
    expect(checkDraft({ scope: 'partial', amount: '0', reason: 'fraudulent' }, 1000)).toMatchObject({
      ok: false,
      amount: 'amount.tooSmall',
    });
  });
});
