// Keeps the simulator fixture required: a test starts the simulator only through test/support/simulator.ts; importing
// startSimulator from main/sandbox anywhere else in test/ (but the simulator's own tests) must fail lint.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURE = 'test/support/simulator.ts';

// The project's real eslint.config.js, minus type-aware rules (the snippets are virtual files no tsconfig lists).
const eslint = new ESLint({ cwd: root, overrideConfig: tseslint.configs.disableTypeChecked });

async function restrictions(filePath: string, code: string): Promise<string[]> {
  const results = await eslint.lintText(code, { filePath, warnIgnored: true });
  expect(results).toHaveLength(1);
  const messages = results[0]?.messages ?? [];
  // A fatal message (parse error, ignored file) would make an "allowed" case pass vacuously.
  expect(messages.filter((message) => message.fatal === true)).toEqual([]);
  return messages.flatMap((message) =>
    message.ruleId === 'no-restricted-imports' || message.ruleId === 'no-restricted-syntax'
      ? [`${message.ruleId}: ${message.message}`]
      : [],
  );
}

describe('the simulator fixture is required (no-restricted-imports, no-restricted-syntax)', () => {
  it.each([
    [
      'test/main/app/probe.test.ts',
      "import { startSimulator } from '../../../main/sandbox';\nexport const s = startSimulator;",
    ],
    [
      'test/main/payments/probe.test.ts',
      "import { startSimulator as start } from '../../../main/sandbox/index';\nexport const s = start;",
    ],
    [
      'test/e2e/probe.spec.ts',
      "import { startSimulator, type RunningSimulator } from '../../main/sandbox';\nexport const s = startSimulator;",
    ],
    ['test/bench/probe.bench.ts', "import * as sandbox from '../../main/sandbox';\nexport const s = sandbox;"],
    ['test/support/probe.ts', "export { startSimulator } from '../../main/sandbox';"],
  ])('%s: %s is rejected', async (filePath, code) => {
    expect(await restrictions(filePath, code)).toEqual([expect.stringContaining('test/support/simulator.ts')]);
  });

  it('a dynamic import of main/sandbox in a test is rejected', async () => {
    expect(
      await restrictions('test/main/app/probe.test.ts', "export const load = () => import('../../../main/sandbox');"),
    ).toEqual([expect.stringMatching(/^no-restricted-syntax: .*test\/support\/simulator\.ts/)]);
  });

  it.each([
    [FIXTURE, readFileSync(join(root, FIXTURE), 'utf8')],
    [
      'test/main/sandbox/probe.test.ts',
      "import { startSimulator } from '../../../main/sandbox';\nexport const s = startSimulator;",
    ],
    [
      'test/main/app/probe.test.ts',
      "import { useSimulator } from '../../support/simulator';\nexport const sim = useSimulator();",
    ],
    [
      'test/e2e/probe.spec.ts',
      "import { launchSimulator } from '../support/simulator';\nexport const s = launchSimulator;",
    ],
    [
      'test/main/app/probe.test.ts',
      "import type { RunningSimulator } from '../../../main/sandbox';\nexport type R = RunningSimulator;",
    ],
    [
      'test/main/sandbox/probe.test.ts',
      "import { optionsFromArgs } from '../../../main/sandbox';\nexport const o = optionsFromArgs;",
    ],
    ['main/payments/probe.ts', "import { startSimulator } from '../sandbox';\nexport const s = startSimulator;"],
  ])('%s is allowed', async (filePath, code) => {
    expect(await restrictions(filePath, code)).toEqual([]);
  });
});

describe('every test that runs a simulator goes through the fixture', () => {
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? files(join(dir, entry.name)) : /\.tsx?$/.test(entry.name) ? [join(dir, entry.name)] : [],
    );

  it('startSimulator is named only by the fixture and the simulator’s own tests', () => {
    const naming = files(join(root, 'test'))
      .map((file) => relative(root, file).split('\\').join('/'))
      .filter(
        (file) => file !== FIXTURE && file !== 'test/lint/fixtures.test.ts' && !file.startsWith('test/main/sandbox/'),
      )
      .filter((file) => readFileSync(join(root, file), 'utf8').includes('startSimulator'));
    expect(naming).toEqual([]);
  });
});
