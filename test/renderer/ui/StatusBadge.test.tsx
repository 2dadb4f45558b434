// @vitest-environment happy-dom
// A payment's status in words: refunded in full reads "Reembolsado"/"Refunded", not "Pagado"/"Paid"; in part, so; a
// pending refund changes nothing yet.
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { StatusBadge } from '../../../renderer/src/ui/StatusBadge';
import { paymentRefundState } from '../../../shared/payments';
import { renderIn } from '../support/render';

const paid = (refunds: { status: string; amountCents?: number }[]) => ({
  status: 'succeeded',
  amountCents: 89_999,
  refunds,
});

describe('StatusBadge', () => {
  it('reads a payment refunded in full as refunded, in both languages', () => {
    const { unmount } = renderIn(
      'es-MX',
      <StatusBadge payment={paid([{ status: 'succeeded', amountCents: 89_999 }])} />,
    );
    expect(screen.getByText('Reembolsado').className).toBe('badge badge--refunded');
    unmount();
    renderIn(
      'en-US',
      <StatusBadge
        payment={paid([
          { status: 'succeeded', amountCents: 50_000 },
          { status: 'succeeded', amountCents: 39_999 },
        ])}
      />,
    );
    expect(screen.getByText('Refunded')).toBeTruthy();
  });

  it('reads a payment refunded in part as such, and one whose refund is pending or failed as paid', () => {
    const { unmount } = renderIn(
      'es-MX',
      <StatusBadge payment={paid([{ status: 'succeeded', amountCents: 10_000 }])} />,
    );
    expect(screen.getByText('Reembolsado en parte')).toBeTruthy();
    unmount();
    renderIn(
      'es-MX',
      <StatusBadge
        payment={paid([
          { status: 'pending', amountCents: 89_999 },
          { status: 'failed', amountCents: 89_999 },
        ])}
      />,
    );
    expect(screen.getByText('Pagado')).toBeTruthy();
  });
});

describe('paymentRefundState', () => {
  it('is nothing for a payment that did not succeed or whose refunds have no known amount', () => {
    expect(
      paymentRefundState({ status: 'failed', amountCents: 100, refunds: [{ status: 'succeeded', amountCents: 100 }] }),
    ).toBeUndefined();
    expect(
      paymentRefundState({ status: 'succeeded', amountCents: 100, refunds: [{ status: 'succeeded' }] }),
    ).toBeUndefined();
    expect(
      paymentRefundState({
        status: 'succeeded',
        amountCents: 100,
        refunds: [{ status: 'succeeded', amountCents: 100 }],
      }),
    ).toBe('refunded');
  });
});
