/**
 * Whether this desk is busy (no update restarts it then): a payment of its may still change or an operation is
 * unanswered, as the journal said at its last write (read again after each), or it is running an operation now.
 */
import type { LevelLogger } from '../logging';

/** After a write, how long the desk waits before reading its busy state again (one read for the writes of one call). */
const BUSY_READ_DELAY_MS = 250;

export interface DeskStateDeps {
  /** Whether the journal holds this desk's unanswered operations or unsettled payments. */
  hasUnfinished: () => Promise<boolean>;
  /** Busy for another reason the engine knows of (an answer kept while the center is down). */
  alsoBusy: () => boolean;
  logger?: LevelLogger<'warn'> | undefined;
}

export class DeskState {
  /** What busy() answers between two reads of the journal. */
  private unfinished = false;
  private reading: Promise<void> | undefined;
  private readAgain = false;
  /**
   * A write of this desk not read back yet: busy until the read after it (one read for a burst of writes, BUSY_READ_DELAY_MS
   * after the first, off the door's path: on a center every query waits for the desk's one connection). Busy until the
   * journal has been read once: what the last run left unanswered is not known before (recover re-sends it).
   */
  private stale = true;
  private writes = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Operations running now (begun or about to be): busy whatever the last read said. */
  private working = 0;
  private stopped = false;

  constructor(private readonly deps: DeskStateDeps) {
    this.readSoon();
  }

  busy(): boolean {
    return this.working > 0 || this.deps.alsoBusy() || this.stale || this.unfinished;
  }

  /** The journal wrote: busy until it has been read again, once for every write made until then. */
  wrote(): void {
    this.writes += 1;
    this.stale = true;
    this.readSoon();
  }

  /** Busy while `fn` runs; its writes leave the desk busy until the journal is read again (never a moment of "idle"). */
  async during<T>(fn: () => Promise<T>): Promise<T> {
    this.working++;
    try {
      return await fn();
    } finally {
      this.working--;
    }
  }

  /** One read BUSY_READ_DELAY_MS from now (none more while it waits); again after it while a write came during it. */
  private readSoon(): void {
    if (this.timer !== undefined || this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.read().then(() => {
        if (this.stale) this.readSoon();
      });
    }, BUSY_READ_DELAY_MS);
    this.timer.unref?.();
  }

  /** Reads again whether this desk is busy (after a write; the reads never overlap, the last write is always read). */
  read(): Promise<void> {
    if (this.reading !== undefined) {
      this.readAgain = true;
      return this.reading;
    }
    const read = async (): Promise<void> => {
      let writes: number;
      do {
        this.readAgain = false;
        writes = this.writes;
        try {
          this.unfinished = await this.deps.hasUnfinished();
        } catch (error) {
          // The journal closed or the center is down: still busy, to be safe, until a read says otherwise.
          this.unfinished = true;
          this.deps.logger?.warn({ code: error instanceof Error ? error.name : 'unknown' }, 'busy state not read');
        }
      } while (this.readAgain);
      // Every write made before this read is in it: no longer stale (a write during it may not be: stale still).
      if (writes === this.writes) this.stale = false;
    };
    this.reading = read().finally(() => (this.reading = undefined));
    return this.reading;
  }

  /** No read is scheduled any more. */
  stop(): void {
    this.stopped = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Waits for the read under way, if any. */
  async settled(): Promise<void> {
    await this.reading;
  }
}
