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
    // Vitest's default in a run is one worker fewer than the cores, one on CI's two-core machine. The files wait on disk,
    // scrypt's thread pool and PostgreSQL as much as on the CPU: on two cores, three workers take the run from 21 minutes
    // (one) or 10 (two) to 8, the slowest test under a default timeout still at about half of it.
    maxWorkers: 3,
    globalSetup: ['test/support/postgres.global.ts'],
  },
});
