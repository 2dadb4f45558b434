/** What each call through the door writes to the audit trail, by the contract's per-channel rule — never raw input, a card, secret or token. */
import { CHANNELS, type AuditLookup, type AuditRule, type ChannelSpec, type IpcError } from '../../shared/ipc';
import type { OperatorView } from '../../shared/operators';
import type { AuditEntry, AuditOutcome } from './store';

/** One call as the door saw it: the door's own record of a call (main/ipc's DoorCall) is this and more. */
export interface RecordedCall {
  channel: string;
  /** The input as the contract parsed it; undefined when the call was refused before (sender, channel, input). */
  input: unknown;
  /** What the renderer sent, for the bounded summary of a call refused before its input was parsed. */
  raw: unknown;
  operator: OperatorView | undefined;
  /** The answer, or the refusal, main sent back. */
  error: IpcError | undefined;
  output: unknown;
  /** Where the door stopped it: sender, channel, input or access (before any handler), or handler (answered). */
  stage: 'sender' | 'channel' | 'input' | 'access' | 'handler';
}

/** Failures of the app, the network or the desk's secret store; every other refusal (role, input, limits, the service's "no") is `refused`. */
const FAILED_CODES = new Set([
  'internal',
  'network_error',
  'timeout',
  'unexpected_response',
  'missing_secret',
  // main/secrets: the OS key store or the store file cannot be used.
  'encryption_unavailable',
  'insecure_backend',
  'encryption_failed',
  'needs_reprovisioning',
  'store_unreadable',
]);

export function outcomeOf(error: IpcError | undefined): AuditOutcome {
  if (error === undefined) return 'ok';
  return FAILED_CODES.has(error.code) ? 'failed' : 'refused';
}

/** At most this much of a refused call's summary is kept. */
export const MAX_SUMMARY_BYTES = 1024;
const MAX_SUMMARY_KEYS = 20;
const MAX_KEY_LENGTH = 40;
/** The field a refusal names: the contract's own names are short; a longer one was made up by the caller. */
const MAX_FIELD_LENGTH = 64;

/** The shape of what was sent, never its values: `{note: "string(4194304)", amount: "number"}`, at most 1 KB. */
export function summarize(raw: unknown): string {
  const kind = (value: unknown): string => {
    if (value === null) return 'null';
    if (Array.isArray(value)) return `array(${value.length})`;
    if (typeof value === 'string') return `string(${value.length})`;
    return typeof value;
  };
  let summary: string;
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
    const keys = Object.keys(raw);
    const shown = keys
      .slice(0, MAX_SUMMARY_KEYS)
      .map((key) => [key.slice(0, MAX_KEY_LENGTH), kind((raw as Record<string, unknown>)[key])]);
    summary =
      JSON.stringify(Object.fromEntries(shown)) +
      (keys.length > MAX_SUMMARY_KEYS ? ` +${keys.length - MAX_SUMMARY_KEYS} keys` : '');
  } else {
    summary = kind(raw);
  }
  return Buffer.byteLength(summary) <= MAX_SUMMARY_BYTES ? summary : `${summary.slice(0, MAX_SUMMARY_BYTES - 3)}...`;
}

const specOf = (channel: string): ChannelSpec | undefined =>
  Object.hasOwn(CHANNELS, channel) ? CHANNELS[channel as keyof typeof CHANNELS] : undefined;
const bounded = (text: string, max: number): string => (text.length <= max ? text : text.slice(0, max));

/**
 * The audit entry for one call, or undefined for none: a channel's own rule when its input was parsed (answered
 * or refused by role), `call.refused` with a bounded summary when the call never got that far.
 */
export function auditEntryFor(
  call: RecordedCall,
  requestIds: readonly string[],
  lookup: AuditLookup,
): AuditEntry | undefined {
  const spec = specOf(call.channel);
  const failure =
    call.error === undefined
      ? {}
      : { code: call.error.code, ...(call.error.field ? { field: bounded(call.error.field, MAX_FIELD_LENGTH) } : {}) };
  const rule: AuditRule<unknown, unknown> | undefined =
    spec === undefined || spec.audit === 'none' ? undefined : spec.audit;
  // Refused at the door before its input was read (who is signed in could not be known: the center down) is a refusal too.
  const unread = call.stage === 'access' && call.input === undefined;
  if (
    call.stage === 'sender' ||
    call.stage === 'channel' ||
    call.stage === 'input' ||
    (call.stage === 'access' && (rule === undefined || unread))
  ) {
    // Nothing of the input is kept but its shape: a 4 MB note, or a card number typed in the wrong field, stays out.
    return {
      actor: call.operator?.id ?? 'anonymous',
      action: 'call.refused',
      outcome: 'refused',
      resource: bounded(call.channel, 64),
      details: {
        channel: bounded(call.channel, 64),
        stage: call.stage,
        ...failure,
        ...(call.stage === 'access' ? {} : { summary: summarize(call.raw) }),
      },
    };
  }
  if (rule === undefined) return undefined;
  const output = call.error === undefined ? call.output : undefined;
  const actor = !call.operator && rule.actor ? rule.actor(call.input) : (call.operator?.id ?? 'anonymous');
  const resource = rule.resource?.(call.input, output, lookup);
  const details = rule.details?.(call.input, output) ?? {};
  return {
    actor: bounded(actor, 64),
    action: rule.action,
    outcome: outcomeOf(call.error),
    ...(resource === undefined ? {} : { resource: bounded(resource, 128) }),
    ...(requestIds.length > 0 ? { requestId: [...new Set(requestIds)].join(' ') } : {}),
    details: { ...details, ...failure },
  };
}

/** The same refusal (channel, caller, reason) within this window is written once: a loop of bad calls cannot flood the trail. */
export const REFUSAL_REPEAT_MS = 60_000;

/**
 * Writes each call's entry. The same refusal before the handler (same channel, caller, stage, reason and field — and for a
 * role refusal, what the audit rule records of it) is kept once a minute, whatever was sent — the shape is not part of it, or a loop sending a note one character longer each time would
 * write a row per call; a background channel's `signed_out` (a screen still polling behind the lock screen) is not a
 * security event.
 */
export function createCallRecorder(deps: {
  record: (entry: AuditEntry) => void;
  lookup: AuditLookup;
  now?: () => number;
}): (call: RecordedCall, requestIds: readonly string[]) => void {
  const now = deps.now ?? Date.now;
  const lastSeen = new Map<string, number>();
  return (call, requestIds) => {
    const entry = auditEntryFor(call, requestIds, deps.lookup);
    if (!entry) return;
    if (call.stage !== 'handler') {
      if (call.error?.code === 'signed_out' && specOf(call.channel)?.activity === 'background') return;
      // A signed-in caller refused for its role is told apart by what the channel's audit rule records (which payment,
      // which amount): each attempt at another payment or amount is its own row. The raw input's shape never is.
      const what = call.stage === 'access' ? [entry.resource, entry.details] : [];
      const key = JSON.stringify([call.channel, entry.actor, call.stage, call.error?.code, call.error?.field, ...what]);
      const at = now();
      const seen = lastSeen.get(key);
      if (seen !== undefined && at - seen < REFUSAL_REPEAT_MS) return;
      if (lastSeen.size > 1000) lastSeen.clear();
      lastSeen.set(key, at);
    }
    deps.record(entry);
  };
}
