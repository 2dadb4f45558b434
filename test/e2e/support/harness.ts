// The e2e harness every screen uses: the built renderer in Chromium, `window.api` made by the preload's bridge factory and
// wired with page.exposeBinding to the real main-process stack (IPC door, engine, journal in a temp folder, operators,
// in-process simulator). Nothing of the service is mocked; only Electron itself is absent. The simulator is started here
// and outlives a restart of the app (restart(): main's stack closed and made again over the same data folder, the page
// loaded again), as the real service would.
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test as base, type Page } from '@playwright/test';
import { build } from 'vite';
import { createMainStack, type MainStack } from '../../../main/app';
import { simulatorConfig } from '../../../main/payments';
import { startSimulator, type RunningSimulator } from '../../../main/sandbox';
import type { Storage } from '../../../main/storage';
import type { MessagingSecrets } from '../../../main/messaging';
import type { RefundLimits } from '../../../shared/desk';
import type { UpdateStatus } from '../../../shared/ipc';
import { isAppUrl } from '../../../main/ipc';
import { startStaticServer } from './static-server';

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
  /** A restart of the app: main's stack closed and started again over the same data folder, the page loaded again. */
  restart(): Promise<void>;
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
export async function startHarness(page: Page, options: HarnessOptions): Promise<AppHarness & { stop(): Promise<void> }> {
  const server = await startStaticServer(path.join(root, 'out/renderer'));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cpd-e2e-'));
  const protection: boolean[] = [];
  let current = options.language;
  const sim = options.simulator ?? (await startSimulator({ processingDelayMs: options.processingDelayMs, refundDelayMs: 300 }));
  const start = () =>
    createMainStack({
      dataDir,
      version: 'e2e',
      fetch,
      service: { environment: 'training', simulator: { processingDelayMs: options.processingDelayMs, refundDelayMs: 300 } },
      connect: () =>
        Promise.resolve({
          config: simulatorConfig(sim),
          secrets: { read: () => Promise.resolve(sim.clientSecret) },
          training: { controlUrl: sim.controlUrl },
          close: () => Promise.resolve(),
        }),
      isTrustedSender: (sender) => sender.isMainFrame && isAppUrl(sender.url, url),
      preferences: {
        language: () => ({ language: current, locked: false }),
        setLanguage: (next) => Promise.resolve((current = next)),
      },
      protectCardData: (_id, active) => protection.push(active),
      ...(options.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: options.idleTimeoutMs }),
      ...(options.storage === undefined ? {} : { storage: options.storage() }),
      ...(options.refundLimits === undefined ? {} : { refundLimits: options.refundLimits }),
      ...(options.pollScheduleMs === undefined ? {} : { pollScheduleMs: options.pollScheduleMs }),
      ...(options.updateStatus === undefined ? {} : { updates: { status: () => options.updateStatus ?? { state: 'disabled' as const }, restart: () => undefined } }),
      ...(options.messaging === undefined ? {} : { messaging: options.messaging.config, messagingSecrets: options.messaging.secrets, trainingOutbox: false }),
    });
  let stack = await start();
  const controlUrl = stack.training?.controlUrl;
  if (controlUrl === undefined) throw new Error('the harness runs the app in training mode');
  const mainMessages = new Set<string>();
  await page.exposeBinding('__cpdInvoke', async (source, channel: string, input: unknown) => {
    if (options.doorDelayMs) await new Promise((resolve) => setTimeout(resolve, options.doorDelayMs));
    const result = await stack.dispatch(channel, { url: source.frame.url(), isMainFrame: source.frame === source.page.mainFrame(), webContentsId: 1 }, input);
    collectMessages(result, mainMessages);
    return result;
  });
  await page.addInitScript({ content: await pageBridge() });
  const forwardEvents = (from: MainStack) =>
    from.onEvent((event, payload) => {
      collectMessages(payload, mainMessages);
      page
        .evaluate(
          ([name, value]) => {
            (globalThis as unknown as { __cpdEmit?: (e: string, p: unknown) => void }).__cpdEmit?.(name, value);
          },
          [event, payload] as const,
        )
        .catch(() => undefined);
    });
  let stopEvents = forwardEvents(stack);
  const harness = {
    url,
    get stack() {
      return stack;
    },
    controlUrl,
    protection,
    dataDir,
    mainMessages,
    async restart() {
      stopEvents();
      await stack.close();
      stack = await start();
      stopEvents = forwardEvents(stack);
      await page.goto(url);
    },
    async stop() {
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
  app: async ({ page, language, processingDelayMs, idleTimeoutMs, refundLimits, doorDelayMs, pollScheduleMs, updateStatus }, use) => {
    const harness = await startHarness(page, { language, processingDelayMs, idleTimeoutMs, refundLimits, doorDelayMs, pollScheduleMs, updateStatus });
    try {
      await use(harness);
    } finally {
      await harness.stop();
    }
  },
});

export { expect } from '@playwright/test';
