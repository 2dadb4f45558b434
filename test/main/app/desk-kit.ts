// A training desk through the real door (createMainStack over a temporary folder, the simulator in this process):
// an admin, an agent and a supervisor, and helpers to call channels as the renderer does. Nothing is mocked.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { createMainStack, type MainStack, type MainStackOptions } from '../../../main/app';
import { simulatorConfig, type ConnectedService } from '../../../main/payments';
import type { RunningSimulator } from '../../../main/sandbox';
import type { SenderInfo } from '../../../main/ipc';
import { centerStorage, type CenterConnectionOptions, type Storage } from '../../../main/storage';
import type { IpcError, Output } from '../../../shared/ipc';
import type { TestCenter } from '../../support/center';
import { asTheScreen } from '../../support/screen';
import { simulatorControl, type SimulatorControl } from '../../support/simulator';
import { MIN_COST } from '../../../main/operators';

export { asTheScreen };

export const sender: SenderInfo = { url: 'app://app/index.html', isMainFrame: true, webContentsId: 1 };
export const AGENT = { id: 'ana', password: 'agent password 1234' };
export const SUPERVISOR = { id: 'sam', password: 'supervisor pass 1234' };
export const YEAR = new Date().getUTCFullYear() + 2;

export interface Desk {
  stack: MainStack;
  dir: string;
  /** On a center: this desk's own login (as IT made it with docs/center/add-desk.sql). */
  login: CenterConnectionOptions | undefined;
  call(channel: string, input: unknown): Promise<{ ok: true; value: unknown } | { ok: false; error: IpcError }>;
  ok<T>(channel: string, input: unknown): Promise<T>;
  refused(channel: string, input: unknown): Promise<IpcError>;
  signIn(who: { id: string; password: string }): Promise<void>;
  /** Tokenizes a test card for the reservation: its method id. */
  card(reservationId: string, number?: string): Promise<string>;
  /** A restart of the app: the stack closed and started again over the same data folder (nobody signed in). */
  restart(): Promise<void>;
  /** The control endpoints of the simulator the desk talks to (its training service, or the one it is attached to). */
  simulator(): SimulatorControl;
  /** Reads the payment until `done` says so (the engine follows it by itself). */
  until(paymentId: string, done: (status: string) => boolean): Promise<Output<'payments:get'>>;
  close(): Promise<void>;
}

export interface DeskKitOptions {
  /** Where the desk keeps its records, made again at each start (closed with the stack): its own files when not given. */
  storage?: () => Storage;
  /**
   * The desk on this center with a login of its own (docs/center/add-desk.sql, as IT makes one per desk), the same one
   * at every start of its data folder: its id is bound to it at its first start. Instead of `storage`.
   */
  center?: TestCenter;
  /** Creates the admin 'ada', the agent and the supervisor (default true; false for a desk joining a center that has them). */
  seed?: boolean;
  /** The desk's data folder (its desk id, its files): a new temporary one when not given. */
  dataDir?: string;
}

/** A test desk's stack options in `dataDir`: this process's fetch, every sender trusted, the weakest accepted scrypt cost. */
export function stackOptions(dataDir: string): MainStackOptions {
  return { passwordCost: MIN_COST, dataDir, version: 'test', fetch, isTrustedSender: () => true };
}

/** Each data folder's own login on each center: a desk keeps its login across restarts, as on a real desk. */
const logins = new WeakMap<TestCenter, Map<string, CenterConnectionOptions>>();

async function loginOf(center: TestCenter, dir: string): Promise<CenterConnectionOptions> {
  const known = logins.get(center) ?? new Map<string, CenterConnectionOptions>();
  logins.set(center, known);
  const login = known.get(dir) ?? (await center.addDesk());
  known.set(dir, login);
  return login;
}

export async function openDesk(options: Partial<MainStackOptions> = {}, kit: DeskKitOptions = {}): Promise<Desk> {
  const dir = kit.dataDir ?? mkdtempSync(join(tmpdir(), 'desk-'));
  const login = kit.center === undefined ? undefined : await loginOf(kit.center, dir);
  const storage = login === undefined ? kit.storage : () => centerStorage(login);
  const start = () =>
    createMainStack({
      ...stackOptions(dir),
      service: { environment: 'training', simulator: { processingDelayMs: 0, refundDelayMs: 0 } },
      ...options,
      ...(storage === undefined ? {} : { storage: storage() }),
    });
  let stack = await start();
  if (kit.seed ?? true) {
    await stack.directory.createFirstAdmin({ id: 'ada', displayName: 'Ada', password: 'a long password 42' });
    // The admin acts through a session of this desk, as on the screen (on a center, the only way it is accepted); the
    // session is closed after, as a sign-out would.
    await stack.directory.signIn('ada', 'a long password 42');
    const admin = await stack.directory.openSession('ada');
    await stack.directory.createOperator('ada', {
      id: AGENT.id,
      displayName: 'Ana',
      role: 'agent',
      password: AGENT.password,
    });
    await stack.directory.createOperator('ada', {
      id: SUPERVISOR.id,
      displayName: 'Sam',
      role: 'supervisor',
      password: SUPERVISOR.password,
    });
    if (admin.ok) await stack.directory.closeSession(admin.sessionId);
  }
  const call: Desk['call'] = (channel, input) =>
    asTheScreen((c, i) => desk.stack.dispatch(c, sender, i), channel, input);
  const ok = async <T>(channel: string, input: unknown): Promise<T> => {
    const result = await call(channel, input);
    if (!result.ok) throw new Error(`${channel}: ${result.error.code} ${result.error.message}`);
    return result.value as T;
  };
  const desk: Desk = {
    stack,
    dir,
    login,
    async restart() {
      await desk.stack.close();
      stack = await start();
      desk.stack = stack;
    },
    call,
    ok,
    async refused(channel, input) {
      const result = await call(channel, input);
      expect(result.ok).toBe(false);
      if (result.ok) throw new Error(`${channel} was accepted`);
      return result.error;
    },
    async signIn(who) {
      await call('session:signOut', {});
      await ok('session:signIn', who);
    },
    async card(reservationId, number = '4242424242424242') {
      const method = await ok<{ id: string }>('payments:tokenize', {
        operationId: randomUUID(),
        card: { number, expMonth: 12, expYear: YEAR, cvv: /^3[47]/.test(number) ? '1234' : '123' },
        reservationId,
      });
      return method.id;
    },
    simulator() {
      const controlUrl = desk.stack.training?.controlUrl;
      if (controlUrl === undefined) throw new Error('the desk is not in training mode');
      return simulatorControl(controlUrl);
    },
    async until(paymentId, done) {
      for (let i = 0; i < 100; i += 1) {
        const payment = await ok<Output<'payments:get'>>('payments:get', { paymentId });
        if (done(payment.status)) return payment;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`payment ${paymentId} never reached the expected status`);
    },
    async close() {
      await desk.stack.close().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return desk;
}

/** The `connect` option for a desk on a simulator running in this process: it outlives the desk's restarts, as the service would. */
export const attachedTo = (sim: RunningSimulator) => (): Promise<ConnectedService> =>
  Promise.resolve({
    config: simulatorConfig(sim),
    secrets: { read: () => Promise.resolve(sim.clientSecret) },
    training: { controlUrl: sim.controlUrl },
    close: () => Promise.resolve(),
  });
