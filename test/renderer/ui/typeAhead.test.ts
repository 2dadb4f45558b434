// @vitest-environment happy-dom
// Type-ahead across a screen change: keys typed while the next field is not drawn yet are held, typed into it when it
// comes (in order, with keys typed meanwhile after them), never into the search box; dropped when no field comes.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HOLD_MS, holdTypeAhead, releaseTypeAhead } from '../../../renderer/src/ui/typeAhead';

const press = (key: string, target: EventTarget = document.activeElement ?? document.body): boolean =>
  target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));

afterEach(() => {
  document.body.innerHTML = '';
  vi.useRealTimers();
});

describe('type-ahead', () => {
  it('takes the focus off the search box, holds the keys, and types them into the field that comes', async () => {
    document.body.innerHTML = '<input id="search" value="CUN-6B3D8F"><div id="later"></div>';
    const search = document.getElementById('search') as HTMLInputElement;
    search.focus();
    holdTypeAhead();
    expect(document.activeElement).not.toBe(search);
    for (const key of '4242') expect(press(key)).toBe(false);
    press('Backspace');
    press('1');
    expect(search.value).toBe('CUN-6B3D8F');

    const number = document.createElement('input');
    const typed: string[] = [];
    number.addEventListener('input', () => typed.push(number.value));
    document.getElementById('later')?.append(number);
    number.focus();
    releaseTypeAhead();
    press('9', number); // typed after the form came, before the held keys were typed: comes after them
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(number.value).toBe('42419');
    expect(typed).toEqual(['4', '42', '424', '4241', '42419']);
    // Holding is over: a key now is the field's own.
    expect(press('5', number)).toBe(true);
  });

  it('drops the held keys when no field comes in time', async () => {
    vi.useFakeTimers();
    document.body.innerHTML = '<input id="search">';
    (document.getElementById('search') as HTMLInputElement).focus();
    holdTypeAhead();
    press('4');
    vi.advanceTimersByTime(HOLD_MS + 1);
    expect(press('2')).toBe(true);
    const number = document.createElement('input');
    document.body.append(number);
    number.focus();
    releaseTypeAhead();
    await vi.runAllTimersAsync();
    expect(number.value).toBe('');
  });
});
