// The e2e harness every screen uses: the built renderer in Chromium, `window.api` made by the preload's bridge factory and
// wired with page.exposeBinding to the real main-process stack (IPC door, engine, journal in a temp folder, operators,
// in-process simulator). Nothing of the service is mocked; only Electron itself is absent. The simulator is started here
// and outlives a restart of the app (restart(): main's stack closed and made again over the same data folder, the page
// loaded again), as the real service would. Main's door is wired as main/index.ts wires it: the start-up door
// (main/app/startup.ts) until the stack serves, its `app:startup` events sent to the page; a held restart shows the
// start-up screen step by step (the stack opening, each unanswered operation recovery completes).
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test as base, type Page } from '@playwright/test';
import { build } from 'vite';
import { createMainStack, createStartup, type MainStack } from '../../../main/app';
import { simulatorConfig } from '../../../main/payments';
import { launchSimulator, type RunningSimulator } from '../../support/simulator';
import type { Storage } from '../../../main/storage';
import type { MessagingSecrets } from '../../../main/messaging';
import type { RefundLimits } from '../../../shared/desk';
import type { UpdateStatus } from '../../../shared/ipc';
import { isAppUrl, type SenderInfo } from '../../../main/ipc';
import { startStaticServer } from './static-server';
import { MIN_COST } from '../../../main/operators';

const root = fileURLToPath(new URL('../../..', import.meta.url));

let bridgeScript: Promise<string> | undefined;

/** test/e2e/support/page-bridge.ts bundled for the page (once per worker). */
function pageBridge(): Promise<string> {
  bridgeScript ??= build({
    configFile: false,
    logLevel: 'silent',
    build: {
      write: false,
      minify: false,
      lib: { entry: path.join(root, 'test/e2e/support/page-bridge.ts'), formats: ['iife'], name: 'cpdPageBridge' },
    },
  }).then((result) => {
    const outputs = Array.isArray(result) ? result : [result];
    for (const out of outputs) {
      if ('output' in out) {
        const chunk = out.output.find((o) => o.type === 'chunk');
        if (chunk && 'code' in chunk) return chunk.code;
      }
    }
    throw new Error('the page bridge did not bundle');
  });
  return bridgeScript;
}

export interface AppHarness {
  /** The renderer's URL: the app's origin for the sender check. */
  url: string;
  stack: MainStack;
  /** The simulator's control endpoint (clock, faults): tests steer the service through it, as simulator.md says. */
  controlUrl: string;
  /** Every content-protection switch the card form asked main for, in order (Electron's own call cannot run here). */
  protection: boolean[];
  /** Main's data folder (journal.db…): what main keeps that never crosses to the renderer, such as a 3DS link. */
  dataDir: string;
  /**
   * Every English sentence main sent to the page (an error's `message`, and any `message` inside an answer or an
   * event), so that a test in Spanish can check that none of them is on screen.
   */
  mainMessages: Set<string>;
  /**
   * A restart of the app: main's stack closed and started again over the same data folder, the page loaded again.
   * `held`: the page is loaded first, on the start-up screen, and the start goes on in the background as main/index.ts
   * runs it (the stack opened, recover() with its count, then ready), each step waiting for `held.next()`.
   */
  restart(how?: { held?: boolean }): Promise<void>;
  /** The steps of a held restart: opening the stack, then each service request that recovery re-sends (Idempotency-Key). */
  held: HeldStart;
}

export interface HeldStart {
  /** Lets the next step go (or the one to come, when none waits yet). */
  next(): void;
  /** Lets every step go from now on, and waits until the desk is ready. */
  finish(): Promise<void>;
}

/** Steps that wait until the test lets them go, one `next()` each; none waits once `open` is false. */
function createGate() {
  let open = true;
  let permits = 0;
  const waiting: (() => void)[] = [];
  return {
    hold() {
      open = false;
      permits = 0;
    },
    pass(): Promise<void> {
      if (open) return Promise.resolve();
      if (permits > 0) {
        permits -= 1;
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => waiting.push(resolve));
    },
    next() {
      const first = waiting.shift();
      if (first === undefined) permits += 1;
      else first();
    },
    release() {
      open = true;
      for (const resolve of waiting.splice(0)) resolve();
    },
  };
}

/**
 * The app's one fetch, where a held start waits before each request that carries an Idempotency-Key (what recovery
 * re-sends): the service has not answered it yet. The hold must stay shorter than the request's own timeout (30 s).
 */
function heldFetch(gate: { pass(): Promise<void> }): typeof fetch {
  return async (input, init) => {
    const headers = new Headers(init?.headers);
    if (headers.has('Idempotency-Key')) await gate.pass();
    return fetch(input, init);
  };
}

/** Every string under a `message` key, anywhere in a value main sent. */
function collectMessages(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) for (const item of value) collectMessages(item, into);
  else if (typeof value === 'object' && value !== null) {
    for (const [key, child] of Object.entries(value)) {
      if (key === 'message' && typeof child === 'string' && child.trim() !== '') into.add(child.trim());
      else collectMessages(child, into);
    }
  }
}

export interface HarnessOptions {
  /** The desk's language at start (the app's default is es-MX; most tests read English labels). */
  language: 'es-MX' | 'en-US';
  /** The simulator's time from processing to the outcome; short so that tests do not wait. */
  processingDelayMs: number;
  /** The idle lock; the app's default is 15 minutes. */
  idleTimeoutMs: number | undefined;
  /** The refundLimits setting; the app's default is supervisors 10,000 MXN / 500 USD, admins without limit. */
  refundLimits?: RefundLimits | undefined;
  /**
   * The `messaging` setting and its secrets. With them the training links go through these providers (a Twilio-shaped
   * server on this computer, test/main/messaging/twilio-server.ts) instead of the training outbox.
   */
  messaging?: { config: unknown; secrets: MessagingSecrets } | undefined;
  /** Added to every answer of main's door: a busy desk, where the screen lags behind the keyboard. */
  doorDelayMs?: number | undefined;
  /** Main's delays between reads of a payment not yet final (MainStackOptions.pollScheduleMs); the spec's backoff when not given. */
  pollScheduleMs?: readonly number[] | undefined;
  /** A simulator shared with another desk (kept running by its owner); the harness starts its own when not given. */
  simulator?: RunningSimulator | undefined;
  /** Where main keeps its records, made again at each start: a center's PostgreSQL for a desk of a center; its own files when not given. */
  storage?: (() => Storage) | undefined;
  /**
   * What main's auto-update says (electron-updater runs only in Electron and reaches a release server: it cannot run
   * here, so a fixed status stands in for it); the app's default without it is "disabled".
   */
  updateStatus?: UpdateStatus | undefined;
}

/** The app in a page: main's stack over a temp folder, the built renderer served locally, window.api wired to the door. */
export async function startHarness(
  page: Page,
  options: HarnessOptions,
): Promise<AppHarness & { stop(): Promise<void> }> {
  const server = await startStaticServer(path.join(root, 'out/renderer'));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cpd-e2e-'));
  const protection: boolean[] = [];
  let current = options.language;
  const sim =
    options.simulator ?? (await launchSimulator({ processingDelayMs: options.processingDelayMs, refundDelayMs: 300 }));
  const gate = createGate();
  const start = () =>
    createMainStack({
      passwordCost: MIN_COST,
      dataDir,
      version: 'e2e',
      fetch: heldFetch(gate),
      service: {
        environment: 'training',
        simulator: { processingDelayMs: options.processingDelayMs, refundDelayMs: 300 },
      },
      connect: () =>
        Promise.resolve({
          config: simulatorConfig(sim),
          secrets: { read: () => Promise.resolve(sim.clientSecret) },
          training: { controlUrl: sim.controlUrl },
          close: () => Promise.resolve(),
        }),
      isTrustedSender,
      preferences: {
        language: () => ({ language: current, locked: false }),
        setLanguage: (next) => Promise.resolve((current = next)),
      },
      protectCardData: (_id, active) => protection.push(active),
      ...(options.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: options.idleTimeoutMs }),
      ...(options.storage === undefined ? {} : { storage: options.storage() }),
      ...(options.refundLimits === undefined ? {} : { refundLimits: options.refundLimits }),
      ...(options.pollScheduleMs === undefined ? {} : { pollScheduleMs: options.pollScheduleMs }),
      ...(options.updateStatus === undefined
        ? {}
        : {
            updates: { status: () => options.updateStatus ?? { state: 'disabled' as const }, restart: () => undefined },
          }),
      ...(options.messaging === undefined
        ? {}
        : { messaging: options.messaging.config, messagingSecrets: options.messaging.secrets, trainingOutbox: false }),
    });
  const isTrustedSender = (sender: SenderInfo): boolean => sender.isMainFrame && isAppUrl(sender.url, url);
  const startup = createStartup({ language: () => current, isTrustedSender });
  let stack = await start();
  // The stack serves: main's door is the stack's own from now on (main/index.ts: `ready ? stack.dispatch : startup.door`).
  let ready = true;
  startup.set('ready');
  const controlUrl = stack.training?.controlUrl;
  if (controlUrl === undefined) throw new Error('the harness runs the app in training mode');
  const mainMessages = new Set<string>();
  await page.exposeBinding('__cpdInvoke', async (source, channel: string, input: unknown) => {
    if (options.doorDelayMs) await new Promise((resolve) => setTimeout(resolve, options.doorDelayMs));
    const sender = { url: source.frame.url(), isMainFrame: source.frame === source.page.mainFrame(), webContentsId: 1 };
    const result = ready ? await stack.dispatch(channel, sender, input) : await startup.door(channel, sender, input);
    collectMessages(result, mainMessages);
    return result;
  });
  await page.addInitScript({ content: await pageBridge() });
  const emitToPage = (event: string, payload: unknown): void => {
    collectMessages(payload, mainMessages);
    page
      .evaluate(
        ([name, value]) => {
          (globalThis as unknown as { __cpdEmit?: (e: string, p: unknown) => void }).__cpdEmit?.(name, value);
        },
        [event, payload] as const,
      )
      .catch(() => undefined);
  };
  startup.onChange((status) => emitToPage('app:startup', status));
  const forwardEvents = (from: MainStack) => from.onEvent((event, payload) => emitToPage(event, payload));
  let stopEvents = forwardEvents(stack);
  /** The start going on in the background after a held restart. */
  let starting: Promise<void> = Promise.resolve();
  const harness = {
    url,
    get stack() {
      return stack;
    },
    controlUrl,
    protection,
    dataDir,
    mainMessages,
    async restart(how: { held?: boolean } = {}) {
      stopEvents();
      ready = false;
      startup.set('starting');
      await stack.close();
      if (how.held !== true) {
        stack = await start();
        stopEvents = forwardEvents(stack);
        ready = true;
        startup.set('ready');
        await page.goto(url);
        return;
      }
      gate.hold();
      // The window at once, on the start-up screen; then what main/index.ts does, step by step.
      await page.goto(url);
      starting = (async () => {
        await gate.pass();
        stack = await start();
        stopEvents = forwardEvents(stack);
        await stack.recover({ onProgress: (done, total) => startup.progress(done, total) });
        ready = true;
        startup.set('ready');
      })();
    },
    held: {
      next: () => gate.next(),
      async finish() {
        gate.release();
        await starting;
      },
    },
    async stop() {
      gate.release();
      await starting.catch(() => undefined);
      stopEvents();
      await stack.close();
      if (options.simulator === undefined) await sim.close();
      server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return harness;
}

export const test = base.extend<{ app: AppHarness } & HarnessOptions>({
  language: ['en-US', { option: true }],
  processingDelayMs: [300, { option: true }],
  idleTimeoutMs: [undefined, { option: true }],
  refundLimits: [undefined, { option: true }],
  doorDelayMs: [undefined, { option: true }],
  pollScheduleMs: [undefined, { option: true }],
  updateStatus: [undefined, { option: true }],
  app: async (
    { page, language, processingDelayMs, idleTimeoutMs, refundLimits, doorDelayMs, pollScheduleMs, updateStatus },
    use,
  ) => {
    const harness = await startHarness(page, {
      language,
      processingDelayMs,
      idleTimeoutMs,
      refundLimits,
      doorDelayMs,
      pollScheduleMs,
      updateStatus,
    });
    try {
      await use(harness);
    } finally {
      await harness.stop();
    }
  },
});

export { expect } from '@playwright/test';
