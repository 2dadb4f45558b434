// End-to-end configuration: test/e2e against the built renderer in Debian's Chromium (Playwright cannot download browsers
// here), and test/electron against the real app where an Electron binary exists (skipped, and said so, where not).
import { availableParallelism } from 'node:os';
import { defineConfig } from '@playwright/test';

export default defineConfig({
  outputDir: 'test-results',
  forbidOnly: Boolean(process.env['CI']),
  retries: 0,
  // Half again the cores: each test waits on its page and main's stack as much as on the CPU (three on CI's two cores).
  workers: Math.ceil(availableParallelism() * 1.5),
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  use: {
    headless: true,
  },
  projects: [
    {
      name: 'chromium',
      testDir: 'test/e2e',
      use: {
        browserName: 'chromium',
        launchOptions: {
          executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--no-first-run',
          ],
        },
      },
    },
    {
      // The Electron build of better-sqlite3 that the unpackaged app loads.
      name: 'electron-setup',
      testDir: 'test/electron',
      testMatch: '**/*.setup.ts',
      timeout: 10 * 60_000,
    },
    {
      // Playwright's _electron drives the built app (out/main/index.js); each test starts it on a fresh data folder.
      name: 'electron',
      testDir: 'test/electron',
      testMatch: '**/*.spec.ts',
      dependencies: ['electron-setup'],
      timeout: 60_000,
    },
  ],
});
