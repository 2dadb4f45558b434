// MSI arithmetic: the monthly amount as the service rounds it, and the countdown to the confirmation deadline.
import { describe, expect, it } from 'vitest';
import { mmss, perInstallment, secondsLeft } from '../../../../renderer/src/features/payment/plans';

describe('perInstallment', () => {
  it('is amount / count rounded to the cent (interface decisions §8), in cents', () => {
    expect(perInstallment(100000, 3)).toBe(33333);
    expect(perInstallment(100000, 6)).toBe(16667);
    expect(perInstallment(240000, 24)).toBe(10000);
    expect(perInstallment(1245050, 12)).toBe(103754);
  });
});

describe('countdown', () => {
  it('counts whole seconds down to zero and never below', () => {
    const now = Date.parse('2026-11-23T10:00:00.000Z');
    expect(secondsLeft('2026-11-23T10:15:00.000Z', now)).toBe(900);
    expect(secondsLeft('2026-11-23T10:00:00.500Z', now)).toBe(1);
    expect(secondsLeft('2026-11-23T09:59:00.000Z', now)).toBe(0);
    expect(mmss(900)).toBe('15:00');
    expect(mmss(61)).toBe('01:01');
    expect(mmss(0)).toBe('00:00');
  });
});
