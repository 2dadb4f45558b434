/**
 * What each window watches (the approvals queue, the reservations it has open, word of its operator's refund requests),
 * and the center's changes at other desks
 * turned into the contract's events for them. The LISTEN connection is held only while some window watches something;
 * this desk's own changes reach its windows without it (the engine's events, the refund requests' own).
 */
import type { EventName, EventPayload, LiveState, PaymentView } from '../../shared/ipc';
import type { Change, ChangeListener, ListenState, Storage } from '../storage';

export interface LiveWatch {
  queue: boolean;
  reservations: readonly string[];
  /** Word of the refund requests asked at this desk (approved, made, rejected): `refunds:outcome`. */
  requests?: boolean | undefined;
}

export interface LiveFeedDeps {
  deskId: string;
  /** The center's LISTEN connection maker (Storage.listen); undefined on the embedded files. */
  listen: Storage['listen'];
  /** A payment as the journal holds it now (no service call, no engine event). */
  readPayment: (paymentId: string) => Promise<PaymentView | undefined>;
  /**
   * A refund request another desk wrote, as the alert this desk's windows are to show (a late success of a payment
   * abandoned here); undefined when it is none of this desk's.
   */
  readRequest?: (requestId: string) => Promise<EventPayload<'payments:lateSuccess'> | undefined>;
  /** What became of a refund request another desk decided or settled, when it was asked at this desk; undefined otherwise. */
  readOutcome?: (requestId: string) => Promise<EventPayload<'refunds:outcome'> | undefined>;
  /** How the contract reads a reservation number (main/payments reservationKey). */
  reservationKey: (reservationId: string) => string;
  emit: <E extends EventName>(event: E, payload: EventPayload<E>) => void;
  onError?: (error: unknown) => void;
}

interface Watching {
  queue: boolean;
  /** Reservation key → the number as the window gave it. */
  reservations: Map<string, string>;
}

export class LiveFeed {
  private readonly windows = new Map<number, Watching>();
  private readonly listener: ChangeListener | undefined;
  private release: (() => void) | undefined;
  private state: Exclude<LiveState, 'local'> = 'connecting';

  constructor(private readonly deps: LiveFeedDeps) {
    this.listener = deps.listen?.({
      onChange: (change) => void this.changed(change).catch((error: unknown) => deps.onError?.(error)),
      onState: (state) => this.stateChanged(state),
      onResync: () => deps.emit('live:resync', {}),
      ...(deps.onError ? { onError: deps.onError } : {}),
    });
  }

  /** Where the feed stands for the windows now. */
  current(): LiveState {
    if (this.listener === undefined) return 'local';
    return this.release === undefined ? 'connecting' : this.state;
  }

  /** A window's whole set (replacing its last); an empty one forgets it. */
  watch(windowId: number, watch: LiveWatch): LiveState {
    const reservations = new Map(watch.reservations.map((id) => [this.deps.reservationKey(id), id] as const));
    if (!watch.queue && reservations.size === 0 && watch.requests !== true) this.windows.delete(windowId);
    else this.windows.set(windowId, { queue: watch.queue, reservations });
    this.hold();
    return this.current();
  }

  /** A window closed, or its operator's session ended: it watches nothing any more. */
  forget(windowId?: number): void {
    if (windowId === undefined) this.windows.clear();
    else this.windows.delete(windowId);
    this.hold();
  }

  async close(): Promise<void> {
    this.windows.clear();
    this.release = undefined;
    await this.listener?.close();
  }

  /** The LISTEN connection is held while some window watches something, and only then. */
  private hold(): void {
    if (this.listener === undefined) return;
    if (this.windows.size > 0 && this.release === undefined) {
      this.state = 'connecting';
      this.release = this.listener.acquire();
    } else if (this.windows.size === 0 && this.release !== undefined) {
      this.release();
      this.release = undefined;
    }
  }

  private stateChanged(state: ListenState): void {
    if (this.release === undefined || this.state === state) return;
    this.state = state;
    this.deps.emit('live:status', { state });
  }

  /** The reservation number a window gave for this key, when one watches it. */
  private watched(reservationKey: string): string | undefined {
    for (const watching of this.windows.values()) {
      const id = watching.reservations.get(reservationKey);
      if (id !== undefined) return id;
    }
    return undefined;
  }

  private async changed(change: Change): Promise<void> {
    // This desk's own writes reach its windows without the center (and before it).
    if (change.deskId === this.deps.deskId || this.windows.size === 0) return;
    switch (change.kind) {
      case 'refundRequest': {
        this.deps.emit('refunds:changed', { requestId: change.requestId, paymentId: change.paymentId });
        // A notice naming the desks it concerns is read only there; one naming none (an earlier version's) is read.
        const named = change.askedAt !== undefined || change.alertAt !== undefined;
        if (named && change.askedAt !== this.deps.deskId && change.alertAt !== this.deps.deskId) return;
        const alert = await this.deps.readRequest?.(change.requestId);
        if (alert !== undefined) this.deps.emit('payments:lateSuccess', alert);
        const outcome = await this.deps.readOutcome?.(change.requestId);
        if (outcome !== undefined) this.deps.emit('refunds:outcome', outcome);
        return;
      }
      case 'operation': {
        const reservationId = this.watched(change.reservationKey);
        if (reservationId !== undefined) this.deps.emit('reservations:changed', { reservationId });
        return;
      }
      case 'payment': {
        // Read only what a window shows: the payload names the reservation (a refund saved on its own may not).
        if (change.reservationKey !== undefined && this.watched(change.reservationKey) === undefined) return;
        const payment = await this.deps.readPayment(change.paymentId);
        if (payment === undefined || this.watched(this.deps.reservationKey(payment.reservationId)) === undefined)
          return;
        this.deps.emit('payments:changed', payment);
        return;
      }
    }
  }
}
