// The call's store: one refund attempt id per slot until main answers it; the lock screen forgets them.
import { describe, expect, it } from 'vitest';
import { useCall } from '../../../../renderer/src/features/call/store';

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
