// Unit-test configuration: plain Node, everything under test/ except the Playwright suites in test/e2e.
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    include: ['test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, 'test/e2e/**'],
    testTimeout: 20_000,
  },
});
