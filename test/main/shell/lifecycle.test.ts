import { afterEach, describe, expect, it, vi } from 'vitest';

import { languageOfLocale, SHELL_WORDS, withDeadline } from '../../../main/shell/lifecycle';

afterEach(() => {
  vi.useRealTimers();
});

describe('withDeadline', () => {
  it('resolves when the work ends in time, without calling onLate', async () => {
    const onLate = vi.fn();
    await withDeadline(Promise.resolve('done'), 1_000, { onLate });
    expect(onLate).not.toHaveBeenCalled();
  });

  it('resolves at the deadline when the work never ends, and says so', async () => {
    vi.useFakeTimers();
    const onLate = vi.fn();
    let settled = false;
    const bounded = withDeadline(new Promise(() => undefined), 5_000, { onLate }).then(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(4_999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await bounded;
    expect(settled).toBe(true);
    expect(onLate).toHaveBeenCalledOnce();
  });

  it('never rejects: a failed close is handed to onError and the shutdown goes on', async () => {
    const onError = vi.fn();
    await expect(withDeadline(Promise.reject(new Error('pool refused')), 1_000, { onError })).resolves.toBeUndefined();
    expect(onError).toHaveBeenCalledWith(new Error('pool refused'));
  });
});

describe('languageOfLocale', () => {
  it('English systems get en-US; every other system the desk’s default, es-MX', () => {
    expect(['en', 'en-US', 'en-GB', 'es', 'es-MX', 'es-419', 'fr-FR', ''].map(languageOfLocale)).toEqual([
      'en-US',
      'en-US',
      'en-US',
      'es-MX',
      'es-MX',
      'es-MX',
      'es-MX',
      'es-MX',
    ]);
  });

  it('every dialog main shows is worded in both languages', () => {
    expect(Object.keys(SHELL_WORDS['es-MX'])).toEqual(Object.keys(SHELL_WORDS['en-US']));
  });
});
