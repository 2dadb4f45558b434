// The operation ledger's one table of states: where each state may go, which take a late answer, which refuse a resume.
import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../../../main/payments';
import { isOpen, mayMove, TRANSITIONS } from '../../../../main/payments/ledger';
import { isDefinitive, RESUME_REFUSED } from '../../../../main/payments/ledger/states';

describe('operation states', () => {
  it('only a pending operation may fail; an answer is still taken while a supervisor has not resolved it', () => {
    expect(mayMove('pending', 'failed')).toBe(true);
    expect(mayMove('reconcile', 'failed')).toBe(false);
    expect(mayMove('reconcile', 'done')).toBe(true);
    expect(['pending', 'reconcile'].every((state) => isOpen(state as 'pending' | 'reconcile'))).toBe(true);
  });

  it('done, failed and abandoned are final: nothing moves them', () => {
    for (const state of ['done', 'failed', 'abandoned'] as const) {
      expect(TRANSITIONS[state]).toEqual([]);
      expect(isOpen(state)).toBe(false);
    }
  });

  it('an operation waiting for a supervisor, or closed at a restart, is not resumed; the others are', () => {
    expect(RESUME_REFUSED).toEqual({ reconcile: 'operation_needs_reconciliation', abandoned: 'operation_closed' });
  });

  it('a 4xx closes an operation for good, but not a 401, 408, 429 or a request still in progress', () => {
    const http = (status: number, code = 'card_declined'): ServiceError => new ServiceError('http', code, { status });
    expect(isDefinitive(http(402))).toBe(true);
    expect(isDefinitive(http(422, 'invalid_state'))).toBe(true);
    for (const status of [401, 408, 429, 500, 503]) expect(isDefinitive(http(status))).toBe(false);
    expect(isDefinitive(http(409, 'idempotency_in_progress'))).toBe(false);
    expect(isDefinitive(new ServiceError('timeout', 'timeout'))).toBe(false);
  });
});
