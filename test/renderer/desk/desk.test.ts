// The supervisor desk's pure logic: a refund draft's checks (over-refund before any request), which failures keep the
// attempt's id, refund attempt ids in the call store, audit details as text, the hour chart's series, local days.
import { describe, expect, it } from 'vitest';
import { hourSeries, hourText } from '../../../renderer/src/features/reports/hours';
import { compactDetails, filled, localIsoDate } from '../../../renderer/src/ui/text';

// The renderer's bridge module reads `window.api` when loaded: a page without the bridge, here.
(globalThis as { window?: object }).window ??= {};
const { ApiError, isRetryable } = await import('../../../renderer/src/bridge/errors');
const { useCall } = await import('../../../renderer/src/features/call/store');
const { checkDraft } = await import('../../../renderer/src/features/refunds/draft');

describe('checkDraft', () => {
  it('a full refund sends no amount (all that is left)', () => {
    expect(checkDraft({ scope: 'full', amount: '', reason: 'cancellation' }, 98000)).toEqual({ ok: true, amountCents: undefined, reason: 'cancellation' });
  });

  it('a partial refund up to what is left, to the cent', () => {
    expect(checkDraft({ scope: 'partial', amount: '1,000.50', reason: 'duplicate' }, 100050)).toEqual({ ok: true, amountCents: 100050, reason: 'duplicate' });
  });

  it('more than what is left is refused before any request', () => {
    expect(checkDraft({ scope: 'partial', amount: '1000.51', reason: 'duplicate' }, 100050)).toEqual({ ok: false, amount: 'refund.overLeft', reason: undefined });
  });

  it('nothing left: even a full refund is refused', () => {
    expect(checkDraft({ scope: 'full', amount: '', reason: 'duplicate' }, 0)).toMatchObject({ ok: false, amount: 'refund.overLeft' });
  });

  it('an amount that is not one, and a missing reason', () => {
    expect(checkDraft({ scope: 'partial', amount: 'abc', reason: '' }, 1000)).toEqual({ ok: false, amount: 'amount.notNumber', reason: 'refund.reason.missing' });
    expect(checkDraft({ scope: 'partial', amount: '0', reason: 'fraudulent' }, 1000)).toMatchObject({ ok: false, amount: 'amount.tooSmall' });
  });
});

describe('isRetryable', () => {
  it('a lost or late answer keeps the attempt open; a refusal ends it', () => {
    expect(isRetryable(new ApiError({ code: 'network_error', message: 'x' }))).toBe(true);
    expect(isRetryable(new ApiError({ code: 'timeout', message: 'x' }))).toBe(true);
    expect(isRetryable(new Error('bridge gone'))).toBe(true);
    expect(isRetryable(new ApiError({ code: 'refund_limit', message: 'x' }))).toBe(false);
    expect(isRetryable(new ApiError({ code: 'forbidden', message: 'x' }))).toBe(false);
    expect(isRetryable(new ApiError({ code: 'refund_exceeds_remaining', message: 'x' }))).toBe(false);
  });
});

describe('refund attempt ids', () => {
  it('one id per slot until answered; the next attempt gets a new one; reset forgets them', () => {
    const store = useCall.getState();
    const first = store.attemptId('refund:pay_1');
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(useCall.getState().attemptId('refund:pay_1')).toBe(first);
    expect(useCall.getState().attemptId('refund:pay_2')).not.toBe(first);
    useCall.getState().attemptAnswered('refund:pay_1');
    const second = useCall.getState().attemptId('refund:pay_1');
    expect(second).not.toBe(first);
    useCall.getState().reset();
    expect(useCall.getState().attempts).toEqual({});
  });
});

describe('compactDetails', () => {
  it('writes each detail as key=value in one line', () => {
    expect(compactDetails({ requestedBy: 'ana', approvedBy: 'sam', amount: 500, override: true, extra: { a: 1 }, none: null })).toBe(
      'requestedBy=ana · approvedBy=sam · amount=500 · override=true · extra={"a":1} · none=—',
    );
    expect(compactDetails({})).toBe('');
  });
});

describe('hourSeries', () => {
  it('24 slots per currency, the busiest hour and the totals', () => {
    const [mxn, usd] = hourSeries([
      { hour: 9, currency: 'mxn', payments: 1, totalCents: 60000 },
      { hour: 14, currency: 'mxn', payments: 2, totalCents: 90010 },
      { hour: 14, currency: 'usd', payments: 1, totalCents: 8000 },
    ]);
    expect(mxn?.hours).toHaveLength(24);
    expect(mxn).toMatchObject({ currency: 'mxn', payments: 3, total: 150010, busiest: 14 });
    expect(mxn?.hours[9]).toEqual({ hour: 9, payments: 1, total: 60000 });
    expect(usd).toMatchObject({ currency: 'usd', payments: 1, total: 8000, busiest: 14 });
    expect(hourSeries([])).toEqual([]);
    expect(hourText(7)).toBe('07:00');
  });
});

describe('text helpers', () => {
  it('the local calendar day, and only the filters filled in', () => {
    expect(localIsoDate(new Date(2026, 2, 4, 23, 59))).toBe('2026-03-04');
    expect(filled({ a: ' x ', b: '', c: '   ', d: undefined })).toEqual({ a: 'x' });
  });
});
