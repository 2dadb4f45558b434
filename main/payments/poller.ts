/** The main process's single owner of payment polling: one backoff schedule per followed payment, reads never overlap, updates only on visible change. */
import { isFinalPayment, isFinalRefund, isKnownPaymentStatus } from '../../shared/payments';
import type { PaymentResource } from './resources';

/** The spec's backoff (§1 rule 4), in ms; the last value repeats. */
export const DEFAULT_SCHEDULE: readonly number[] = [1000, 2000, 4000, 8000, 16000, 30000];

export interface PollerDeps {
  read: (paymentId: string) => Promise<PaymentResource>;
  /** May be async (the journal): awaited before this read ends, its failure reported as a read's. */
  onUpdate: (payment: PaymentResource) => void | Promise<void>;
  onError?: (paymentId: string, error: unknown) => void;
  /** Delays in ms between reads, each counted from the end of the previous read; the last value repeats. */
  schedule?: readonly number[];
  now?: () => number;
}

/** Nothing more will change without the agent acting: a final status, and every refund final (shared vocabulary). */
export function isSettled(payment: { status: string; refunds: readonly { status: string }[] }): boolean {
  return isFinalPayment(payment.status) && payment.refunds.every((refund) => isFinalRefund(refund.status));
}

/** A status this app does not know, of the payment or of a refund still open: followed at the longest interval. */
const hasUnknownStatus = (payment: PaymentResource): boolean =>
  !isKnownPaymentStatus(payment.status) ||
  payment.refunds.some((refund) => !isFinalRefund(refund.status) && refund.status !== 'pending');

/** What the agent sees of a payment; a read reports only when this changes. */
function signatureOf(payment: PaymentResource): string {
  return JSON.stringify([
    payment.status,
    payment.amount,
    payment.installments ? [payment.installments.count, payment.installments.perInstallment] : null,
    payment.nextAction?.url ?? null,
    payment.failure?.code ?? null,
    payment.refunds.map((refund) => [refund.id, refund.status]),
  ]);
}

interface Followed {
  /** Index into the schedule of the delay before the next read (clamped to the last). */
  step: number;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** When the next read is due; while a read is in flight, when that read was due. */
  nextAt: number;
  reading: boolean;
  /** restartSoon() arrived during a read: after it, start the schedule again and do not stop. */
  restart: boolean;
  /** Signature of the last known state; undefined until the first read when no state was given. */
  signature: string | undefined;
}

export class Poller {
  private readonly schedule: readonly number[];
  private readonly now: () => number;
  private readonly entries = new Map<string, Followed>();
  /** Reads still running per payment, including ones whose follow was stopped since: a new read waits for them. */
  private readonly inFlight = new Map<string, Promise<void>>();

  constructor(private readonly deps: PollerDeps) {
    const schedule = deps.schedule ?? DEFAULT_SCHEDULE;
    if (schedule.length === 0 || schedule.some((ms) => !Number.isFinite(ms) || ms < 0)) {
      throw new RangeError('The polling schedule needs at least one delay, each a finite number of ms >= 0.');
    }
    this.schedule = [...schedule];
    this.now = deps.now ?? Date.now;
  }

  /** Starts polling the payment unless it is already followed, or `known` shows it settled. */
  follow(paymentId: string, known?: PaymentResource): void {
    if (this.entries.has(paymentId)) return;
    if (known !== undefined && isSettled(known)) return;
    const entry: Followed = {
      step: 0,
      timer: undefined,
      nextAt: 0,
      reading: false,
      restart: false,
      signature: known === undefined ? undefined : signatureOf(known),
    };
    this.entries.set(paymentId, entry);
    this.arm(paymentId, entry);
  }

  /** Epoch ms of the next read (while a read runs: when it was due); undefined when not followed. */
  nextCheckAt(paymentId: string): number | undefined {
    return this.entries.get(paymentId)?.nextAt;
  }

  /** The agent acted on the payment: check it again soon, starting the schedule over. Follows it if needed. */
  restartSoon(paymentId: string): void {
    const entry = this.entries.get(paymentId);
    if (entry === undefined) {
      this.follow(paymentId);
      return;
    }
    entry.step = 0;
    if (entry.reading) {
      entry.restart = true;
      return;
    }
    clearTimeout(entry.timer);
    this.arm(paymentId, entry);
  }

  stop(paymentId: string): void {
    const entry = this.entries.get(paymentId);
    if (entry === undefined) return;
    clearTimeout(entry.timer);
    this.entries.delete(paymentId);
  }

  /** Clears every timer (shutdown); reads already running finish without reporting. */
  stopAll(): void {
    for (const entry of this.entries.values()) clearTimeout(entry.timer);
    this.entries.clear();
  }

  followed(): string[] {
    return [...this.entries.keys()];
  }

  private arm(paymentId: string, entry: Followed): void {
    const delay = this.schedule[Math.min(entry.step, this.schedule.length - 1)] ?? 0;
    entry.nextAt = this.now() + delay;
    entry.timer = setTimeout(() => void this.tick(paymentId, entry), delay);
  }

  private current(paymentId: string, entry: Followed): boolean {
    return this.entries.get(paymentId) === entry;
  }

  private async tick(paymentId: string, entry: Followed): Promise<void> {
    entry.timer = undefined;
    if (!this.current(paymentId, entry)) return;
    entry.reading = true;
    // A read begun before stop() and follow() again may still run: never two reads of one payment at once.
    for (let earlier = this.inFlight.get(paymentId); earlier !== undefined; earlier = this.inFlight.get(paymentId)) {
      await earlier;
    }
    if (!this.current(paymentId, entry)) return;
    const run = this.readOnce(paymentId, entry);
    this.inFlight.set(paymentId, run);
    await run;
    if (this.inFlight.get(paymentId) === run) this.inFlight.delete(paymentId);
  }

  private async readOnce(paymentId: string, entry: Followed): Promise<void> {
    let payment: PaymentResource;
    try {
      payment = await this.deps.read(paymentId);
    } catch (error) {
      if (!this.current(paymentId, entry)) return;
      this.afterRead(paymentId, entry, false);
      this.report(paymentId, error);
      return;
    }
    if (!this.current(paymentId, entry)) return;
    const signature = signatureOf(payment);
    const changed = signature !== entry.signature;
    entry.signature = signature;
    const restarted = entry.restart;
    if (!restarted && isSettled(payment)) {
      this.entries.delete(paymentId);
    } else {
      this.afterRead(paymentId, entry, hasUnknownStatus(payment));
    }
    if (!changed) return;
    try {
      await this.deps.onUpdate(payment);
    } catch (error) {
      this.report(paymentId, error);
    }
  }

  /** Schedules the read after this one: from the start after restartSoon(), at the longest delay for an unknown status. */
  private afterRead(paymentId: string, entry: Followed, unknownStatus: boolean): void {
    entry.reading = false;
    if (entry.restart) {
      entry.restart = false;
      entry.step = 0;
    } else if (unknownStatus) {
      entry.step = this.schedule.length - 1;
    } else {
      entry.step = Math.min(entry.step + 1, this.schedule.length - 1);
    }
    this.arm(paymentId, entry);
  }

  private report(paymentId: string, error: unknown): void {
    try {
      this.deps.onError?.(paymentId, error);
    } catch {
      // onError is the last resort; a timer never throws.
    }
  }
}
