// End-to-end: the built renderer shell loads in Chromium under its CSP without errors (run after `electron-vite build`).
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { expect, test, type Page } from '@playwright/test';

import { startStaticServer } from './support/static-server';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
const rendererDir = path.join(projectRoot, 'out/renderer');
const preloadBundle = path.join(projectRoot, 'out/preload/index.cjs');

const expectedPolicy =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
  "connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'";

// Plain script text: the test project has no DOM typings, and this runs in the page before any app code.
const reportCspViolations = `
  document.addEventListener('securitypolicyviolation', (event) => {
    console.error('CSP violation: ' + event.violatedDirective + ' blocked ' + (event.blockedURI || 'inline'));
  });
`;

/** Collects console errors (CSP violations included) and uncaught page errors. */
async function watchForProblems(page: Page): Promise<string[]> {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => {
    problems.push(`page error: ${error.message}`);
  });
  await page.addInitScript({ content: reportCspViolations });
  return problems;
}

let server: Server | undefined;
let baseUrl = '';

test.beforeAll(async () => {
  if (!existsSync(path.join(rendererDir, 'index.html'))) {
    throw new Error('out/renderer is missing: run `electron-vite build` first (npm run test:e2e does).');
  }
  server = await startStaticServer(rendererDir);
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}/`;
});

test.afterAll(async () => {
  const running = server;
  if (running === undefined) return;
  await new Promise<void>((resolve, reject) => {
    running.close((error) => {
      if (error) reject(error);
      else resolve();
    });
  });
});

test('the app shell renders under its CSP with no console errors or violations', async ({ page }) => {
  const problems = await watchForProblems(page);
  await page.goto(baseUrl, { waitUntil: 'networkidle' });

  // The app's name and the window title in the desk's language (Spanish without the bridge, below).
  await expect(page.getByRole('heading', { level: 1, name: 'Escritorio de pagos con tarjeta' })).toBeVisible();
  await expect(page).toHaveTitle('Escritorio de pagos con tarjeta');
  // Without the bridge (a page outside the app) the desk's default language, Spanish (es-MX), is used.
  await expect(page.locator('html')).toHaveAttribute('lang', 'es-MX');
  await expect(page.locator('meta[http-equiv="Content-Security-Policy"]')).toHaveAttribute('content', expectedPolicy);
  expect(problems).toEqual([]);
});

test('the violation watcher itself notices a CSP violation', async ({ page }) => {
  // Negative control: without it, a broken watcher would make the test above pass vacuously.
  const problems = await watchForProblems(page);
  await page.goto(baseUrl, { waitUntil: 'networkidle' });
  await page.evaluate("document.body.setAttribute('style', 'color: red')");
  await expect.poll(() => problems.join('\n')).toContain('CSP violation');
});

test('the preload bundle is one self-contained file that requires only electron', async () => {
  const code = await readFile(preloadBundle, 'utf8');
  const required = new Set([...code.matchAll(/\brequire\(\s*(["'`])([^"'`]+)\1\s*\)/g)].map((match) => match[2]));
  required.delete('electron');
  expect([...required]).toEqual([]);
});
