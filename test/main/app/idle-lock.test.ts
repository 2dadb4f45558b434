// The idle lock (PCI DSS 8.2.8) cannot be kept away by calls the operator did not make: generated from the contract, every
// channel marked `background`, every channel a screen re-runs by itself (a query, read again on a push, a timer, a refetch
// or the screen opening), and every refused call, is called in a loop through the real stack until the lock is due.
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { createMainStack, type MainStack } from '../../../main/app';
import type { SenderInfo } from '../../../main/ipc';
import { CHANNEL_NAMES, CHANNELS, type Channel } from '../../../shared/ipc';
import type { Role } from '../../../shared/operators';
import { VALID_INPUTS } from '../ipc/fixtures';
import { openDesk, SUPERVISOR } from './desk-kit';
import { MIN_COST } from '../../../main/operators';

const IDLE_MS = 1_000;
/** Calls keep coming for this long: well past the idle timeout. */
const LOOP_MS = 1_600;
const sender: SenderInfo = { url: 'app://app/index.html', isMainFrame: true, webContentsId: 1 };
const PASSWORD = 'a long password 42';

/** A real stack with a 1 s idle lock and an operator of `role` signed in, for the length of `use`. */
async function withDesk(role: Role, use: (stack: MainStack) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'idle-lock-'));
  const stack = await createMainStack({
    passwordCost: MIN_COST,
    dataDir: dir,
    version: 'test',
    // Only the app's own window may call; the loop of calls from another frame below is refused by this.
    isTrustedSender: (s) => s.isMainFrame && s.webContentsId === 1,
    service: { environment: 'training', simulator: { processingDelayMs: 0, refundDelayMs: 0 } },
    idleTimeoutMs: IDLE_MS,
    fetch,
  });
  try {
    await signInAs(stack, role);
    await use(stack);
  } finally {
    await stack.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function signInAs(stack: MainStack, role: Role): Promise<void> {
  await stack.directory.createFirstAdmin({ id: 'ada', displayName: 'Ada', password: PASSWORD });
  const id = { agent: 'ana', supervisor: 'sam', admin: 'ada' }[role];
  if (role !== 'admin') await stack.directory.createOperator('ada', { id, displayName: id, role, password: PASSWORD });
  const signedIn = await stack.dispatch('session:signIn', sender, { id, password: PASSWORD });
  expect(signedIn.ok).toBe(true);
}

async function locked(stack: MainStack): Promise<boolean> {
  const status = await stack.dispatch('session:status', sender, {});
  if (!status.ok) throw new Error(status.error.message);
  return (status.value as { locked: boolean }).locked;
}

/** Calls `once` every 100 ms for LOOP_MS. */
async function loop(once: () => Promise<unknown>): Promise<void> {
  const until = Date.now() + LOOP_MS;
  while (Date.now() < until) {
    await once();
    await sleep(100);
  }
}

/** Someone the contract lets call the channel (a public channel: the agent). */
function roleFor(channel: Channel): Role {
  const access = CHANNELS[channel].access;
  if (access === 'public') return 'agent';
  return (
    (['agent', 'supervisor', 'admin'] as const).find((role) => (access as readonly string[]).includes(role)) ?? 'admin'
  );
}

/** Where the renderer calls the bridge by itself: the options of a query (`queryFn`, `refetchInterval`), with the bridge calls (`x.domain.verb(`) made inside. */
interface Rerun {
  file: string;
  /** `refetchInterval`: polled; otherwise read again whenever the query is (a push marks it stale, a screen mounts…). */
  polls: boolean;
  channels: Channel[];
}

const rendererRoot = fileURLToPath(new URL('../../../renderer/src', import.meta.url));

/** Every object literal of renderer/src with a `queryFn` or a `refetchInterval` (useQuery, useInfiniteQuery, …). */
function rendererReruns(): Rerun[] {
  const files = (readdirSync(rendererRoot, { recursive: true }) as string[])
    .filter((f) => /\.tsx?$/.test(f))
    .map((f) => join(rendererRoot, f));
  const found: Rerun[] = [];
  const named = (node: ts.ObjectLiteralExpression, name: string): boolean =>
    node.properties.some((p) => p.name !== undefined && ts.isIdentifier(p.name) && p.name.text === name);
  for (const file of files) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isObjectLiteralExpression(node) && (named(node, 'queryFn') || named(node, 'refetchInterval'))) {
        const channels: Channel[] = [];
        const collect = (inner: ts.Node): void => {
          if (
            ts.isCallExpression(inner) &&
            ts.isPropertyAccessExpression(inner.expression) &&
            ts.isPropertyAccessExpression(inner.expression.expression)
          ) {
            const name = `${inner.expression.expression.name.text}:${inner.expression.name.text}`;
            if (Object.hasOwn(CHANNELS, name)) channels.push(name as Channel);
          }
          ts.forEachChild(inner, collect);
        };
        collect(node);
        found.push({ file: file.slice(rendererRoot.length + 1), polls: named(node, 'refetchInterval'), channels });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

const reruns = rendererReruns();
/** The channels a screen re-runs by itself, in the contract's order. */
const rerun = CHANNEL_NAMES.filter((channel) => reruns.some((r) => r.channels.includes(channel)));

const background = CHANNEL_NAMES.filter((channel) => CHANNELS[channel].activity === 'background');
const operatorChannels = CHANNEL_NAMES.filter((channel) => CHANNELS[channel].activity === 'operator');

/** Inputs for the real stack where the fixtures' would act (sign-in: another operator, refused while a session is open). */
const inputFor = (channel: Channel): unknown =>
  channel === 'session:signIn' ? { id: 'sam', password: PASSWORD } : VALID_INPUTS[channel];

describe('the contract marks every channel', () => {
  it('as the operator at work or as background, and the screens’ own reads as background', () => {
    expect(background.length + operatorChannels.length).toBe(CHANNEL_NAMES.length);
    for (const channel of [
      'payments:get',
      'reservations:overview',
      'messaging:outbox',
      'refunds:queue',
      'updates:status',
      'session:status',
    ] as const) {
      expect(CHANNELS[channel].activity, channel).toBe('background');
    }
  });

  it('background for every channel a screen re-runs by itself (a query or a poll of renderer/src)', () => {
    // The scan finds the screens' reads: the Payments screen's search among them.
    expect(reruns.length).toBeGreaterThan(5);
    expect(rerun).toContain('payments:search');
    for (const { file, channels } of reruns) {
      expect(channels.length, `${file}: a query whose bridge call was not found`).toBeGreaterThan(0);
      for (const channel of channels)
        expect(CHANNELS[channel].activity, `${file} re-runs ${channel}`).toBe('background');
    }
    expect(reruns.some((r) => r.polls)).toBe(true);
  });
});

/** The idle lock fired (the trail records each lock with its reason), and nobody is at work on the desk now. */
async function idleLocked(stack: MainStack): Promise<boolean> {
  const status = await stack.dispatch('session:status', sender, {});
  if (!status.ok) throw new Error(status.error.message);
  const locks = (await stack.audit.query({ action: 'session.lock' }, 10)).filter(
    (row) => row.details['reason'] === 'idle',
  );
  return locks.length === 1 && (status.value as { operator?: unknown }).operator === undefined;
}

/** Every channel of the contract that is background or that a screen re-runs (the two are one once the contract is right). */
const neverActivity = CHANNEL_NAMES.filter((channel) => background.includes(channel) || rerun.includes(channel));

describe('a background channel, or one a screen re-runs, called in a loop does not postpone the lock', () => {
  it.concurrent.each(neverActivity)('%s', async (channel) => {
    await withDesk(roleFor(channel), async (stack) => {
      await loop(() => stack.dispatch(channel, sender, inputFor(channel)));
      // Locked; or, for the lock screen's hand-over, locked and then ended by the next call of the loop.
      expect(await idleLocked(stack)).toBe(true);
      if (channel !== 'session:endLocked') expect(await locked(stack)).toBe(true);
    });
  });
});

describe('refused calls in a loop do not postpone the lock', () => {
  it.concurrent.each([
    [
      'invalid input on an operator channel',
      'agent',
      (s: MainStack) => s.dispatch('payments:pay', sender, { amount: 'lots' }),
    ],
    [
      'an operator channel the role may not call',
      'agent',
      (s: MainStack) => s.dispatch('refunds:create', sender, VALID_INPUTS['refunds:create']),
    ],
    ['a channel outside the contract', 'agent', (s: MainStack) => s.dispatch('shell:openExternal', sender, {})],
    [
      'a call from another frame',
      'agent',
      (s: MainStack) => s.dispatch('session:activity', { ...sender, isMainFrame: false }, {}),
    ],
  ] as const)('%s', async (_, role, call) => {
    await withDesk(role, async (stack) => {
      await loop(() => call(stack));
      expect(await locked(stack)).toBe(true);
    });
  });

  it('while the operator at work does postpone it (the loop above could fail)', async () => {
    await withDesk('agent', async (stack) => {
      await loop(() => stack.dispatch('session:activity', sender, {}));
      expect(await locked(stack)).toBe(false);
    });
  });
});

describe('the supervisor’s Payments screen, open while payments change', () => {
  it('re-runs payments:search on every payments:changed and every 100 ms: the idle lock still falls when due, after one warning', async () => {
    // The payment's result comes 400 ms after it is taken, read by main's poller and pushed: the quiet spell has pushes.
    const desk = await openDesk({
      idleTimeoutMs: IDLE_MS,
      service: { environment: 'training', simulator: { processingDelayMs: 400, refundDelayMs: 0 } },
      pollScheduleMs: [100],
    });
    const heard: string[] = [];
    /** Each of the screen's searches: answered or refused. */
    const searches: boolean[] = [];
    // The screen's search, as usePaymentSearch runs it: on opening, on each push (the cache marks it stale), on refetches.
    const search = async (): Promise<void> => {
      const result = await desk.call('payments:search', {});
      searches.push(result.ok);
    };
    const stop = desk.stack.onEvent((event) => {
      heard.push(event);
      if (event === 'payments:changed') void search();
    });
    try {
      await desk.signIn(SUPERVISOR);
      // The supervisor's last act: a payment taken at the desk. From here on only the screen calls.
      const methodId = await desk.card('CUN-6B3D8F');
      await desk.ok('payments:pay', {
        operationId: randomUUID(),
        methodId,
        amountCents: 20_000,
        currency: 'usd',
        reservationId: 'CUN-6B3D8F',
      });
      const quietFrom = heard.length;
      await loop(search);
      const quiet = heard.slice(quietFrom);
      // Pushes came and the screen read again while the session was open: the loop could have kept the lock away.
      expect(quiet).toContain('payments:changed');
      expect(searches.filter(Boolean).length).toBeGreaterThan(1);
      expect(await idleLocked(desk.stack)).toBe(true);
      // Never postponed: one warning for the quiet spell, then the lock; the screen's reads after it are refused.
      expect(quiet.filter((event) => event.startsWith('session:'))).toEqual(['session:idleWarning', 'session:locked']);
      expect(searches.at(-1)).toBe(false);
    } finally {
      stop();
      await desk.close();
    }
  });
});

describe('the warning before the idle lock', () => {
  it('goes out as session:idleWarning (half the 1 s timeout before it here; a minute with the real 15), with when the lock falls, before session:locked', async () => {
    await withDesk('agent', async (stack) => {
      const events: { event: string; at: number; payload: unknown }[] = [];
      const stop = stack.onEvent((event, payload) => events.push({ event, at: Date.now(), payload }));
      const signedInAt = Date.now();
      await sleep(IDLE_MS + 300);
      stop();
      const names = events.map((e) => e.event).filter((e) => e.startsWith('session:'));
      expect(names).toEqual(['session:idleWarning', 'session:locked']);
      const warning = events.find((e) => e.event === 'session:idleWarning');
      const locksAt = Date.parse((warning?.payload as { locksAt: string }).locksAt);
      expect(locksAt).toBeGreaterThanOrEqual(signedInAt - 200);
      expect(locksAt).toBeLessThanOrEqual(signedInAt + IDLE_MS + 200);
      expect(locksAt - (warning?.at ?? 0)).toBeGreaterThanOrEqual(IDLE_MS / 2 - 150);
    });
  });
});
