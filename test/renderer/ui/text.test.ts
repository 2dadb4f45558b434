// The desks' text helpers: audit details on one line, the local calendar day, only the filters filled in.
import { describe, expect, it } from 'vitest';
import { compactDetails, filled, localIsoDate } from '../../../renderer/src/ui/text';

describe('compactDetails', () => {
  it('writes each detail as key=value in one line', () => {
    expect(
      compactDetails({
        requestedBy: 'ana',
        approvedBy: 'sam',
        amount: 500,
        override: true,
        extra: { a: 1 },
        none: null,
      }),
    ).toBe('requestedBy=ana · approvedBy=sam · amount=500 · override=true · extra={"a":1} · none=—');
    expect(compactDetails({})).toBe('');
  });
});

describe('text helpers', () => {
  it('the local calendar day, and only the filters filled in', () => {
    expect(localIsoDate(new Date(2026, 2, 4, 23, 59))).toBe('2026-03-04');
    expect(filled({ a: ' x ', b: '', c: '   ', d: undefined })).toEqual({ a: 'x' });
  });
});
