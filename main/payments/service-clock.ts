/**
 * The service's own clock, as its HTTP `Date` header says it (interface-decisions §4): the one its 24-hour
 * Idempotency-Key window follows. A reading is carried forward by a monotonic clock (never a wall clock, which the OS
 * or a person may move), and read in the direction that makes an operation look older, never younger: its start
 * as early as the service may have seen it, now as late as the service may be.
 */

/** How fine the header is: RFC 9110's HTTP-date counts whole seconds (it is truncated, never rounded up). */
const DATE_RESOLUTION_MS = 1000;

interface Reading {
  /** The header's time. */
  serviceMs: number;
  /** The monotonic time the request was sent: the service answered after it. */
  sentAt: number;
  /** The monotonic time the answer arrived: the service answered before it. */
  receivedAt: number;
  /** The desk's wall clock then: set against the monotonic one, it says whether the monotonic one missed time since (a sleep). */
  deskAt: number;
}

export class ServiceClock {
  private last: Reading | undefined;

  constructor(
    private readonly monotonic: () => number = () => performance.now(),
    private readonly wall: () => number = Date.now,
    /** How far the wall clock and the monotonic one may disagree on the time since the reading before it is not used to stamp. */
    private readonly driftMs = 60_000,
  ) {}

  /** Takes the `Date` of an answer to a request sent at `sentAt` (monotonic); an absent or unreadable header is ignored. */
  observe(date: string | null | undefined, sentAt: number): void {
    if (date === null || date === undefined) return;
    const serviceMs = Date.parse(date);
    if (!Number.isFinite(serviceMs)) return;
    const receivedAt = this.monotonic();
    // The newest answer wins; an answer to an older request that arrives late does not set the clock back.
    if (this.last !== undefined && sentAt < this.last.sentAt) return;
    this.last = { serviceMs, sentAt: Math.min(sentAt, receivedAt), receivedAt, deskAt: this.wall() };
  }

  /** The monotonic time of the last reading's request, or undefined before any. */
  readAt(): number | undefined {
    return this.last?.sentAt;
  }

  /**
   * Whether the desk's wall clock and the monotonic clock disagree on the time since the last reading: the monotonic one
   * missed a sleep, or the wall clock was set. The reading then says nothing sure of now until it is taken again.
   */
  drifted(): boolean {
    const last = this.last;
    return (
      last !== undefined && Math.abs(this.wall() - last.deskAt - (this.monotonic() - last.receivedAt)) > this.driftMs
    );
  }

  /**
   * The earliest the service's clock may read now (to stamp when an operation began), or undefined before any reading and
   * while the desk's clocks disagree since it (drifted): a start stamped too early would age its operation past the window.
   */
  earliest(): number | undefined {
    const last = this.last;
    if (last === undefined || this.drifted()) return undefined;
    return Math.floor(last.serviceMs + (this.monotonic() - last.receivedAt));
  }

  /** The latest the service's clock may read now (to age an operation), or undefined before any reading. */
  latest(): number | undefined {
    const last = this.last;
    return last && Math.ceil(last.serviceMs + DATE_RESOLUTION_MS + (this.monotonic() - last.sentAt));
  }
}
