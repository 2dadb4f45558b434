// The simulator as every test meets it (the one place a test starts one; lint holds the rest of test/ to it): one per
// test file, started before its tests, reset after each and closed after the last (useSimulator), or one a caller
// starts and closes itself (launchSimulator: Playwright specs, benches, a test that needs a simulator of its own). Either
// way it is steered through its control endpoints (../shared/spec/simulator.md): faults, clock, tenants, reset.
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startSimulator, type RunningSimulator, type SimulatorOptions } from '../../main/sandbox';

export type { RunningSimulator, SimulatorOptions };

/** What the next requests of an operation get instead of their answer (simulator.md, `POST {controlUrl}/faults`). */
export type SimulatorFault =
  | 'error_500'
  | 'error_503'
  | 'error_429'
  | 'delay'
  | 'drop_before_commit'
  | 'drop_after_commit';

/** The simulator's control endpoints (loopback only, no token); each throws when the simulator refuses the call. */
export interface SimulatorControl {
  /**
   * The next `count` requests of `operation` (method and path template, e.g. `GET /payments/{id}`) get `fault`;
   * `delay` answers after `delayMs`.
   */
  fault(operation: string, fault: SimulatorFault, count?: number, delayMs?: number): Promise<void>;
  /** Moves the simulator's clock forward by whole or partial seconds (expiries, token lifetimes and idempotency windows
   * follow it); answers the simulator's time after the move. */
  advanceClock(seconds: number): Promise<Date>;
  /** Registers another tenant: its credentials. */
  addClient(): Promise<{ clientId: string; clientSecret: string }>;
  /** Forgets all state (payments, methods, tokens, faults, idempotency keys, the clock); the first tenant stays. */
  reset(): Promise<void>;
}

/** A running simulator with its control endpoints at hand. */
export interface TestSimulator extends RunningSimulator, SimulatorControl {}

async function post(controlUrl: string, path: string, body: unknown): Promise<unknown> {
  const response = await fetch(`${controlUrl}/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`simulator control ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** The control endpoints of the simulator at `controlUrl` (one started by the app's stack in training mode, too). */
export function simulatorControl(controlUrl: string): SimulatorControl {
  return {
    async fault(operation, fault, count = 1, delayMs) {
      await post(controlUrl, 'faults', { operation, fault, count, ...(delayMs === undefined ? {} : { delayMs }) });
    },
    async advanceClock(seconds) {
      const { now } = (await post(controlUrl, 'clock', { advanceSeconds: seconds })) as { now: string };
      return new Date(now);
    },
    async addClient() {
      return (await post(controlUrl, 'clients', {})) as { clientId: string; clientSecret: string };
    },
    async reset() {
      await post(controlUrl, 'reset', {});
    },
  };
}

/** Starts a simulator on 127.0.0.1 that the caller closes. */
export async function launchSimulator(options: SimulatorOptions = {}): Promise<TestSimulator> {
  const running = await startSimulator(options);
  return { ...running, ...simulatorControl(running.controlUrl) };
}

export interface UseSimulatorOptions {
  /**
   * Reset after each test (default true). False only where the file's tests share what the simulator holds: a stack
   * or payment opened in a beforeAll and used by several tests.
   */
  resetAfterEach?: boolean;
}

/**
 * Registers the hooks of one simulator for the tests of this file (or of the describe it is called in): started
 * before them, reset after each, closed after the last. The handle reads the running simulator, so use it inside
 * hooks and tests; after-hooks run in reverse order, so what the file closes in its own after-hooks closes first.
 */
export function useSimulator(
  options: SimulatorOptions = {},
  { resetAfterEach = true }: UseSimulatorOptions = {},
): TestSimulator {
  let running: TestSimulator | undefined;
  const sim = (): TestSimulator => {
    if (running === undefined) throw new Error('The simulator starts in beforeAll: use it inside a hook or a test.');
    return running;
  };
  beforeAll(async () => {
    running = await launchSimulator(options);
  });
  afterEach(async () => {
    if (resetAfterEach) await running?.reset();
  });
  afterAll(async () => {
    await running?.close();
    running = undefined;
  });
  const handle: TestSimulator = {
    get authUrl() {
      return sim().authUrl;
    },
    get cdeUrl() {
      return sim().cdeUrl;
    },
    get baseUrl() {
      return sim().baseUrl;
    },
    get controlUrl() {
      return sim().controlUrl;
    },
    get clientId() {
      return sim().clientId;
    },
    get clientSecret() {
      return sim().clientSecret;
    },
    get publishableKey() {
      return sim().publishableKey;
    },
    close: () => sim().close(),
    fault: (...args) => sim().fault(...args),
    advanceClock: (seconds) => sim().advanceClock(seconds),
    addClient: () => sim().addClient(),
    reset: () => sim().reset(),
  };
  return handle;
}
