/** The desk's audit trail as the stack writes it: opened on the stores, and the rows `system` records (settings, results, recoveries, windows). */
import { join } from 'node:path';
import { isFinalPayment, isFinalRefund, centsFromWire } from '../../shared/payments';
import { AuditTrail, type AuditEntry } from '../audit';
import type { DeskIdentity } from '../center';
import type { PaymentEngine, RecoveryReport } from '../payments';
import type { Storage } from '../storage';
import type { MainStack, MainStackOptions } from './options';

export type RecordRow = (entry: AuditEntry) => void;

/**
 * Rows are appended in order through the trail's own queue, never thrown at the caller. On a center, those it cannot
 * write while the center is down are kept in the data folder and written, in order, when it is back (or at the next start).
 */
export function openAudit(
  storage: Storage,
  identity: DeskIdentity,
  options: Pick<MainStackOptions, 'dataDir' | 'onUnexpectedError'>,
): Promise<AuditTrail> {
  return AuditTrail.open(storage, identity, {
    headFile: join(options.dataDir, 'audit-head.json'),
    spoolDir: options.dataDir,
    onError: (error) => options.onUnexpectedError?.('audit', error),
  });
}

/** At start-up: a `settings.change` row by `system` when the settings differ from those this desk's last start recorded. */
async function recordSettingsChange(
  audit: AuditTrail,
  current: Record<string, unknown>,
  record: RecordRow,
): Promise<void> {
  const values = JSON.parse(JSON.stringify(current)) as Record<string, unknown>;
  const previousRow = (await audit.query({ deskId: audit.deskId, action: 'settings.change', actor: 'system' }, 1))[0];
  const previous = (previousRow?.details['values'] ?? undefined) as Record<string, unknown> | undefined;
  const keys = [...new Set([...Object.keys(values), ...Object.keys(previous ?? {})])].sort();
  const changed = keys.filter((key) => JSON.stringify(values[key]) !== JSON.stringify(previous?.[key]));
  if (previous !== undefined && changed.length === 0) return;
  record({
    actor: 'system',
    action: 'settings.change',
    outcome: 'ok',
    resource: 'settings',
    details: { changed, values },
  });
}

/** The settings of this start: what changed since the last (when known), and the policy settings the user's file may not set. */
export async function recordStartSettings(
  audit: AuditTrail,
  options: Pick<MainStackOptions, 'settingsInEffect' | 'settingsIgnored'>,
  record: RecordRow,
): Promise<void> {
  if (options.settingsInEffect) await recordSettingsChange(audit, options.settingsInEffect, record);
  if (options.settingsIgnored && options.settingsIgnored.length > 0) {
    const settings = options.settingsIgnored.map((issue) => issue.field);
    record({
      actor: 'system',
      action: 'settings.ignored',
      outcome: 'refused',
      resource: 'settings',
      details: { file: 'user', settings },
    });
  }
}

/**
 * Results arrive later (the poller): each final payment and refund status is written once. The trail remembers a result
 * once it is written or found (no statement for it again); one whose row could not be written is asked for again at the
 * next read of its payment.
 */
export function recordResults(engine: PaymentEngine, audit: AuditTrail): void {
  /** A final status, recorded as the system's: ok when it succeeded, failed otherwise. */
  const recordResultOnce = (action: string, resource: string, status: string, details: AuditEntry['details']): void => {
    const outcome = status === 'succeeded' ? 'ok' : 'failed';
    // Not when the trail has it already (an earlier run, or another desk that followed the same payment).
    audit.record({ actor: 'system', action, outcome, resource, details }, { once: true });
  };
  engine.on(({ payment }) => {
    if (isFinalPayment(payment.status)) {
      recordResultOnce('payment.result', payment.id, payment.status, {
        status: payment.status,
        amountCents: payment.amountCents,
        currency: payment.currency,
        ...(payment.failure ? { failure: payment.failure.code } : {}),
      });
    }
    for (const refund of payment.refunds) {
      if (!isFinalRefund(refund.status)) continue;
      recordResultOnce('refund.result', refund.id, refund.status, {
        paymentId: payment.id,
        status: refund.status,
        ...(refund.amountCents === undefined ? {} : { amountCents: refund.amountCents }),
        currency: refund.currency,
      });
    }
  });
}

/** What recovery completed is shown on its reservation (the journal) and recorded as recovered here. */
export async function recordRecovered(engine: PaymentEngine, report: RecoveryReport, record: RecordRow): Promise<void> {
  for (const operationId of report.resent) {
    const op = await engine.operation(operationId);
    if (op?.state !== 'done' || op.resultId === undefined) continue;
    const payload = op.payload as { amount?: unknown; currency?: unknown };
    const money = typeof payload.amount === 'number' ? { amountCents: centsFromWire(payload.amount) } : {};
    record({
      actor: 'system',
      action: op.kind === 'refund' ? 'refund.recovered' : 'payment.recovered',
      outcome: 'ok',
      resource: op.kind === 'refund' ? (op.paymentId ?? op.resultId) : op.resultId,
      details: {
        operationId,
        reservationId: op.reservationId,
        operatorId: op.operatorId,
        ...money,
        ...(typeof payload.currency === 'string' ? { currency: payload.currency } : {}),
        ...(op.kind === 'refund' ? { refundId: op.resultId } : {}),
      },
    });
  }
}

/** A `window.recovered` row by the app, with Electron's reason. */
export function windowRecovered(record: RecordRow): MainStack['windowRecovered'] {
  return ({ reason, reloaded, exitCode }) => {
    record({
      actor: 'system',
      action: 'window.recovered',
      outcome: reloaded ? 'ok' : 'failed',
      details: { reason, reloaded, ...(exitCode === undefined ? {} : { exitCode }) },
    });
  };
}
