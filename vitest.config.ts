// Unit-test configuration: plain Node, everything under test/ except the Playwright suites in test/e2e. The renderer's
// component tests (*.test.tsx) say `@vitest-environment happy-dom` in their first comment: they run in a DOM. A real
// PostgreSQL server is started for the run when a test file first asks for it (test/support/pg.ts), and stopped after.
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    include: ['test/**/*.test.{ts,tsx}'],
    exclude: [...configDefaults.exclude, 'test/e2e/**'],
    testTimeout: 20_000,
    // Vitest's default in a run is one worker fewer than the cores, which is one on CI's two-core machines; the files
    // wait on disk, scrypt and PostgreSQL as much as on the CPU, so two workers halve the run (21 min to 12 there).
    maxWorkers: 2,
    globalSetup: ['test/support/postgres.global.ts'],
  },
});
