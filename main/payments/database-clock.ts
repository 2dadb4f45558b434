/**
 * The clock operations are stamped and aged by: the database's, read now and then and carried forward by a monotonic
 * clock, so that every desk of a center times them by one clock and no wall clock moved meanwhile (by a person, or by
 * the OS setting a desk right by a day) can age an operation. A desk taking another desk's fresh payment attempt for one
 * past the service's 24 h window would close it and charge the reservation again.
 */
import type { LevelLogger } from '../logging';

/** The desk's clock is measured against the database's again after this long (a clock set right by NTP meanwhile). */
const CLOCK_REMEASURE_MS = 10 * 60_000;
/** An offset beyond this is said in the log, for IT (the desk's clock needs setting). */
const CLOCK_WARN_MS = 60_000;
/**
 * When the desk's wall clock and the monotonic clock disagree by more than this on the time gone by since a reading, the
 * reading is taken again before it stamps or ages anything: the monotonic clock does not count a sleep (Linux, macOS),
 * and a wall clock set by the OS or a person has moved. Either way one of them is wrong, and only a new reading says which.
 */
export const CLOCK_DRIFT_MS = 60_000;

export interface DatabaseClockDeps {
  /** The database's clock, read once. */
  databaseNow: () => Promise<number>;
  /** The desk's wall clock: the time until the database's has been read once. */
  deskNow: () => number;
  /** A clock no one sets: carries a reading forward. */
  monotonic: () => number;
  logger?: LevelLogger<'warn'> | undefined;
}

export class DatabaseClock {
  /** The database's clock as last read, and the monotonic and wall times of that reading. */
  private anchor: { databaseMs: number; at: number; deskAt: number } | undefined;

  constructor(private readonly deps: DatabaseClockDeps) {}

  /** The database's clock carried forward monotonically (the desk's until it has been read once). */
  now(): number {
    const anchor = this.anchor;
    return anchor === undefined
      ? this.deps.deskNow()
      : Math.round(anchor.databaseMs + (this.deps.monotonic() - anchor.at));
  }

  /**
   * Reads the database's clock (half the round trip taken off). At start (forced) and before an operation is begun when
   * the last reading is older than CLOCK_REMEASURE_MS or the clocks drifted apart since; a failure keeps the last reading
   * (the operation's own statements then fail in words if the center is down).
   */
  async sync(force = false): Promise<void> {
    const { deskNow, monotonic, logger } = this.deps;
    const at = monotonic();
    const anchor = this.anchor;
    const drifted = anchor !== undefined && Math.abs(deskNow() - anchor.deskAt - (at - anchor.at)) > CLOCK_DRIFT_MS;
    if (!force && !drifted && anchor !== undefined && at - anchor.at < CLOCK_REMEASURE_MS) return;
    try {
      const deskBefore = deskNow();
      const database = await this.deps.databaseNow();
      const after = monotonic();
      this.anchor = { databaseMs: database, at: (at + after) / 2, deskAt: (deskBefore + deskNow()) / 2 };
      const offset = Math.round(database - deskNow());
      if (Math.abs(offset) > CLOCK_WARN_MS)
        logger?.warn(
          { offsetMs: offset },
          "this desk's clock is off from the center's: operations are timed by the center's",
        );
    } catch (error) {
      logger?.warn({ code: error instanceof Error ? error.name : 'unknown' }, "the center's clock could not be read");
    }
  }
}
