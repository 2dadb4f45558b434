// End-to-end: the built renderer shell loads in Chromium under its CSP without errors (run after `electron-vite build`).
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { expect, test, type Page } from '@playwright/test';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
const rendererDir = path.join(projectRoot, 'out/renderer');
const preloadBundle = path.join(projectRoot, 'out/preload/index.cjs');

const expectedPolicy =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
  "connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'";

const contentTypes: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

/** Serves out/renderer read-only; anything outside it (or missing) is a 404. */
function startStaticServer(root: string): Promise<Server> {
  const server = createServer((request, response) => {
    const { pathname } = new URL(request.url ?? '/', 'http://localhost');
    if (pathname === '/favicon.ico') {
      // Chromium asks for it on its own; the Electron window never does.
      response.writeHead(204).end();
      return;
    }
    const relative = decodeURIComponent(pathname === '/' ? '/index.html' : pathname);
    const file = path.join(root, path.normalize(relative));
    const notFound = (): void => {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    };
    if (!file.startsWith(root + path.sep)) {
      notFound();
      return;
    }
    readFile(file).then(
      (body) => {
        const type = contentTypes[path.extname(file)] ?? 'application/octet-stream';
        response.writeHead(200, { 'content-type': type }).end(body);
      },
      notFound,
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      resolve(server);
    });
  });
}

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

  await expect(page.getByRole('heading', { level: 1, name: 'Card Payments Desk' })).toBeVisible();
  await expect(page).toHaveTitle('Card Payments Desk');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.locator('meta[http-equiv="Content-Security-Policy"]')).toHaveAttribute(
    'content',
    expectedPolicy,
  );
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
