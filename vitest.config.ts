// Unit-test configuration: plain Node, everything under test/ except the Playwright suites in test/e2e. The renderer's
// component tests (*.test.tsx) say `@vitest-environment happy-dom` in their first comment: they run in a DOM. A real
// PostgreSQL server is started for the run when a test file first asks for it (test/support/pg.ts), and stopped after.
import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    include: ['test/**/*.test.{ts,tsx}'],
    exclude: [...configDefaults.exclude, 'test/e2e/**'],
    testTimeout: 20_000,
    // More workers than cores: the files wait on disk, scrypt's thread pool and PostgreSQL as much as on the CPU. Vitest's
    // default in a run is one fewer than the cores, a single worker on two; a percentage is capped at the cores.
    maxWorkers: Math.ceil(availableParallelism() * 1.5),
    globalSetup: ['test/support/postgres.global.ts'],
  },
});
