/**
 * `npm run bench:renderer` (after `electron-vite build`): the renderer in Debian's Chromium through the e2e harness
 * (real IPC door, engine, journal, simulator), measured three ways:
 * - initial_js_gzip_kb: the JavaScript index.html loads at start (its module script and modulepreloads), gzipped;
 * - interactive_ms: navigation start to the first usable screen (the sign-in id field focused), in the page's own
 *   clock (performance.now(), read by a MutationObserver installed before any app code), median of 5 loads;
 * - keystrokes_beyond_data and steps: flow A from the keyboard, from a found reservation in the search results to
 *   the result. Every key press goes through `press()`, which counts it unless it is card data (number, expiry,
 *   CVC) or the amount; steps are the distinct screens of the payment column the agent passes through.
 * Prints one line: `renderer-bench initial_js_gzip_kb=<x> interactive_ms=<y> keystrokes_beyond_data=<k> steps=<s>`.
 * Budget: ≤ 250 KB, ≤ 500 ms, ≤ 12 keystrokes, ≤ 4 steps; the exit code is 1 when one is missed.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { startHarness } from '../e2e/support/harness';

const root = fileURLToPath(new URL('../..', import.meta.url));
const rendererDir = path.join(root, 'out/renderer');

function initialJsGzipKb(): number {
  const html = readFileSync(path.join(rendererDir, 'index.html'), 'utf8');
  const sources = [...html.matchAll(/<script[^>]+src="([^"]+)"|<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g)].map(
    (m) => m[1] ?? m[2] ?? '',
  );
  const bytes = sources.reduce(
    (sum, src) => sum + gzipSync(readFileSync(path.join(rendererDir, src.replace(/^\.?\//, '')))).length,
    0,
  );
  return Math.round((bytes / 1024) * 10) / 10;
}

const READY_PROBE = `
  new MutationObserver((_, observer) => {
    const field = document.getElementById('sign-in-id');
    if (field && document.activeElement === field) {
      globalThis.__cpdReadyAt = performance.now();
      observer.disconnect();
    }
  }).observe(document, { subtree: true, childList: true, attributes: true });
`;

const STEPS_PROBE = `
  globalThis.__cpdScreens = [];
  const record = () => {
    const heading = document.querySelector('.columns > .stack:last-child section:last-of-type h2');
    const text = heading ? heading.textContent.trim() : '';
    const screens = globalThis.__cpdScreens;
    if (text !== '' && screens[screens.length - 1] !== text) screens.push(text);
  };
  new MutationObserver(record).observe(document.body, { subtree: true, childList: true, characterData: true });
  record();
`;

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

async function main(): Promise<void> {
  const browser = await chromium.launch({
    executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  try {
    const page = await browser.newPage();
    const app = await startHarness(page, { language: 'en-US', processingDelayMs: 300, idleTimeoutMs: undefined });
    try {
      await app.stack.directory.createFirstAdmin({
        id: 'ada',
        displayName: 'Ada Admin',
        password: 'a long password 42',
      });
      await app.stack.directory.createOperator('ada', {
        id: 'ana',
        displayName: 'Ana Agent',
        role: 'agent',
        password: 'agent password 1234',
      });
      await page.addInitScript({ content: READY_PROBE });

      const loads: number[] = [];
      for (let i = 0; i < 5; i++) {
        await page.goto(app.url);
        await page.waitForFunction(() => (globalThis as { __cpdReadyAt?: number }).__cpdReadyAt !== undefined);
        loads.push(await page.evaluate(() => (globalThis as unknown as { __cpdReadyAt: number }).__cpdReadyAt));
      }

      // Signing in and searching are before "a found reservation": not counted.
      await page.locator('#sign-in-id').fill('ana');
      await page.locator('#sign-in-password').fill('agent password 1234');
      await page.keyboard.press('Enter');
      await page.locator('#lookup-input').fill('CUN-6B3D8F');
      await page.getByRole('button', { name: /Zoë Anderson/ }).waitFor();

      let beyondData = 0;
      const press = async (key: string): Promise<void> => {
        beyondData++;
        await page.keyboard.press(key);
      };
      const data = (text: string): Promise<void> => page.keyboard.type(text);

      await press('Enter');
      await page.getByLabel('Card number').waitFor();
      await page.evaluate(STEPS_PROBE);
      await data('4242424242424242');
      await data(`12${String((new Date().getUTCFullYear() + 3) % 100).padStart(2, '0')}`);
      await data('123');
      await press('Enter');
      await page.getByRole('heading', { name: 'Payment approved' }).waitFor({ timeout: 20_000 });
      const screens = await page.evaluate(() => (globalThis as unknown as { __cpdScreens: string[] }).__cpdScreens);

      const result = {
        initial_js_gzip_kb: initialJsGzipKb(),
        interactive_ms: Math.round(median(loads)),
        keystrokes_beyond_data: beyondData,
        steps: screens.length,
      };
      console.log(
        `renderer-bench ${Object.entries(result)
          .map(([k, v]) => `${k}=${v}`)
          .join(' ')}`,
      );
      if (process.env['BENCH_DEBUG'])
        console.error(`screens: ${screens.join(' → ')}; loads: ${loads.map(Math.round).join(', ')}`);
      const within =
        result.initial_js_gzip_kb <= 250 &&
        result.interactive_ms <= 500 &&
        result.keystrokes_beyond_data <= 12 &&
        result.steps <= 4;
      if (!within) process.exitCode = 1;
    } finally {
      await app.stop();
    }
  } finally {
    await browser.close();
  }
}

await main();
