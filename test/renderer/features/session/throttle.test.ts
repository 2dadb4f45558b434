// The activity report's throttle: the first activity is reported at once, then at most once per interval.
import { describe, expect, it } from 'vitest';
import { throttledActivity } from '../../../../renderer/src/features/session/throttle';

describe('throttledActivity', () => {
  it('reports the first activity, then once per interval however much is typed', () => {
    let now = 1_000;
    const reports: number[] = [];
    const onActivity = throttledActivity(
      () => reports.push(now),
      () => now,
      30_000,
    );
    onActivity();
    for (let i = 0; i < 70; i++) {
      now += 500;
      onActivity();
    }
    expect(reports).toEqual([1_000, 31_000]);
    now += 60_000;
    onActivity();
    expect(reports).toEqual([1_000, 31_000, 96_000]);
  });
});
