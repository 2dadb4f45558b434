/** Which renderer calls the audit trail records, and how: who, what, on what, with what outcome — never a card, secret or token. */
import type { Channel, Result } from '../../shared/ipc';
import type { OperatorView } from '../../shared/operators';
import type { AuditEntry, AuditOutcome } from './trail';

/** What main knows that a refused call's answer cannot say. */
export interface AuditLookup {
  /** The payment a refund request is for. */
  paymentOfRequest(requestId: string): string | undefined;
}

/** What a call becomes in the trail; `input` is already checked by the contract, `value` is what main answered. */
interface CallRecord {
  action: string;
  /** The operator for calls made before sign-in (the id typed). */
  actor?: (input: Record<string, unknown>) => string;
  resource?: (input: Record<string, unknown>, value: Record<string, unknown> | undefined, lookup: AuditLookup) => string | undefined;
  /** Only ids, amounts, statuses and choices: the card form's data never reaches a recorded channel's details. */
  details?: (input: Record<string, unknown>, value: Record<string, unknown> | undefined) => Record<string, unknown>;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const defined = (record: Record<string, unknown>): Record<string, unknown> => Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined));
const paymentOf = (input: Record<string, unknown>): string | undefined => str(input['paymentId']);
/** A request's payment: from the answer, or (a refusal has none) from the request itself. */
const requestPayment = (input: Record<string, unknown>, value: Record<string, unknown> | undefined, lookup: AuditLookup): string | undefined => {
  const requestId = str(input['requestId']);
  return str(requestOf(value)?.['paymentId']) ?? (requestId === undefined ? undefined : lookup.paymentOfRequest(requestId));
};
const requestOf = (value: Record<string, unknown> | undefined): Record<string, unknown> | undefined => {
  const request = value?.['request'] ?? value;
  return typeof request === 'object' && request !== null ? (request as Record<string, unknown>) : undefined;
};

/** The recorded channels; the others are reads (searches, lists, status) and the card form's own switches. */
export const AUDITED_CALLS: Partial<Record<Channel, CallRecord>> = {
  'session:signIn': { action: 'session.signIn', actor: (input) => String(input['id']).trim().toLowerCase(), resource: (input) => str(input['id'])?.toLowerCase() },
  'session:createFirstAdmin': {
    action: 'account.create',
    actor: (input) => String(input['id']).trim().toLowerCase(),
    resource: (input) => str(input['id'])?.toLowerCase(),
    details: () => ({ role: 'admin', firstAdmin: true }),
  },
  'session:signOut': { action: 'session.signOut' },
  'app:setLanguage': { action: 'settings.change', resource: () => 'language', details: (input) => ({ value: input['language'] }) },
  'payments:tokenize': {
    action: 'card.save',
    resource: (_input, value) => str(value?.['id']),
    details: (input, value) => defined({ reservationId: input['reservationId'], brand: value?.['brand'], last4: value?.['last4'], operationId: input['operationId'] }),
  },
  'payments:pay': {
    action: 'payment.create',
    resource: (_input, value) => str(value?.['id']),
    details: (input, value) =>
      defined({
        reservationId: input['reservationId'],
        amount: input['amount'],
        currency: input['currency'],
        installments: input['installments'] === true ? true : undefined,
        status: value?.['status'],
        operationId: input['operationId'],
      }),
  },
  'payments:updateAmount': { action: 'payment.updateAmount', resource: paymentOf, details: (input, value) => defined({ amount: input['amount'], previousAmount: value?.['originalAmount'] }) },
  'payments:confirm': { action: 'payment.confirm', resource: paymentOf, details: (input, value) => defined({ installmentsCount: input['installmentsCount'], status: value?.['status'] }) },
  'messaging:sendLink': { action: 'link.send', resource: paymentOf, details: (input, value) => defined({ channel: input['channel'], delivery: value?.['status'] }) },
  'refunds:create': {
    action: 'refund.create',
    resource: paymentOf,
    details: (input) => defined({ amount: input['amount'] ?? 'all left', reason: input['reason'], operationId: input['operationId'] }),
  },
  'refunds:request': {
    action: 'refund.request',
    resource: paymentOf,
    details: (input) => defined({ requestId: input['requestId'], amount: input['amount'] ?? 'all left', reason: input['reason'] }),
  },
  'refunds:override': {
    action: 'refund.approve',
    resource: requestPayment,
    details: (input, value) => {
      const request = requestOf(value);
      return defined({
        requestId: input['requestId'],
        override: true,
        requestedBy: request?.['requestedBy'],
        approverId: str(input['approverId'])?.toLowerCase(),
        approvedBy: request?.['decidedBy'],
        refundId: request?.['refundId'],
      });
    },
  },
  'refunds:approve': {
    action: 'refund.approve',
    resource: requestPayment,
    details: (input, value) => {
      const request = requestOf(value);
      return defined({ requestId: input['requestId'], override: false, requestedBy: request?.['requestedBy'], approvedBy: request?.['decidedBy'], refundId: request?.['refundId'] });
    },
  },
  'refunds:reject': {
    action: 'refund.reject',
    resource: requestPayment,
    details: (input, value) => defined({ requestId: input['requestId'], requestedBy: value?.['requestedBy'], note: input['note'] }),
  },
  'operators:create': { action: 'account.create', resource: (input) => str(input['id'])?.toLowerCase(), details: (input) => ({ role: input['role'] }) },
  'operators:update': { action: 'account.update', resource: (input) => str(input['id'])?.toLowerCase(), details: (input) => defined({ role: input['role'], disabled: input['disabled'] }) },
  'operators:resetPassword': { action: 'account.resetPassword', resource: (input) => str(input['id'])?.toLowerCase() },
  'reservations:importCsv': {
    action: 'reservations.import',
    details: (_input, value) => defined({ created: value?.['created'], updated: value?.['updated'] }),
  },
  'audit:exportCsv': { action: 'audit.export', details: (input, value) => defined({ ...input, rows: value?.['rows'] }) },
  'updates:restart': { action: 'update.restart' },
};

/** Failures of the app or the network; every other refusal (role, input, limits, the service's "no") is `refused`. */
const FAILED_CODES = new Set(['internal', 'network_error', 'timeout', 'unexpected_response', 'missing_secret']);

export function outcomeOf(result: Result<unknown>): AuditOutcome {
  if (result.ok) return 'ok';
  return FAILED_CODES.has(result.error.code) ? 'failed' : 'refused';
}

/** The audit entry for one call through the door, or undefined for a channel that is not recorded. */
export function auditEntryFor(
  channel: string,
  input: unknown,
  operator: OperatorView | undefined,
  result: Result<unknown>,
  requestIds: readonly string[],
  lookup: AuditLookup = { paymentOfRequest: () => undefined },
): AuditEntry | undefined {
  const record = (AUDITED_CALLS as Partial<Record<string, CallRecord>>)[channel];
  if (!record) return undefined;
  const given = typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
  const value = result.ok && typeof result.value === 'object' && result.value !== null ? (result.value as Record<string, unknown>) : undefined;
  let actor = operator?.id ?? 'anonymous';
  let resource: string | undefined;
  let details: Record<string, unknown> = {};
  try {
    if (!operator && record.actor) actor = record.actor(given);
    resource = record.resource?.(given, value, lookup);
    details = record.details?.(given, value) ?? {};
  } catch {
    // Input the contract refused can be any shape: the row is still written, with what is known.
  }
  if (!result.ok) details = { ...details, code: result.error.code, ...(result.error.field ? { field: result.error.field } : {}) };
  return {
    actor: actor.slice(0, 64),
    action: record.action,
    outcome: outcomeOf(result),
    ...(resource === undefined ? {} : { resource: resource.slice(0, 128) }),
    ...(requestIds.length > 0 ? { requestId: [...new Set(requestIds)].join(' ') } : {}),
    details,
  };
}
