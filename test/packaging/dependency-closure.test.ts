// package-check's closure check (scripts/lib/dependency-closure.mjs): every production dependency of the app, transitively,
// must be in app.asar where Node's resolution finds it, at the version the project's node_modules resolves to. A throw-away
// project on disk plays node_modules; a map of folders to versions plays app.asar's listing.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

type ClosureCheck = (options: { root: string; packagedVersion: (dir: string) => string | undefined }) => string[];
const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
const { dependencyClosureProblems } = (await import(
  pathToFileURL(path.join(projectRoot, 'scripts/lib/dependency-closure.mjs')).href
)) as {
  dependencyClosureProblems: ClosureCheck;
};

let root: string;

function writePackage(dir: string, content: Record<string, unknown>): void {
  mkdirSync(path.join(root, dir), { recursive: true });
  writeFileSync(path.join(root, dir, 'package.json'), JSON.stringify(content));
}

/** The app needs a@1 (which needs b@2) and c@1 (which needs b at the top, b@1, a development package too). */
function project(): void {
  writePackage('', { name: 'app', dependencies: { a: '^1', c: '^1' }, devDependencies: { b: '^1' } });
  writePackage('node_modules/a', {
    name: 'a',
    version: '1.0.0',
    dependencies: { b: '^2' },
    optionalDependencies: { fsevents: '^2' },
  });
  writePackage('node_modules/a/node_modules/b', { name: 'b', version: '2.0.0' });
  writePackage('node_modules/b', { name: 'b', version: '1.0.0' });
  writePackage('node_modules/c', { name: 'c', version: '1.0.0', dependencies: { b: '^1', '@s/d': '^3' } });
  writePackage('node_modules/@s/d', { name: '@s/d', version: '3.0.0' });
}

const packaged = (entries: Record<string, string>) => (dir: string) => entries[dir];

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'closure-'));
  project();
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('dependencyClosureProblems', () => {
  it('none when every package resolves as on disk (the layout may differ: electron-builder hoists)', () => {
    const asIs = {
      'node_modules/a': '1.0.0',
      'node_modules/a/node_modules/b': '2.0.0',
      'node_modules/b': '1.0.0',
      'node_modules/c': '1.0.0',
      'node_modules/@s/d': '3.0.0',
    };
    expect(dependencyClosureProblems({ root, packagedVersion: packaged(asIs) })).toEqual([]);
    // c nests its own b@1; a's b@2 is hoisted: every require still lands on the right version.
    const hoisted = {
      'node_modules/a': '1.0.0',
      'node_modules/b': '2.0.0',
      'node_modules/c': '1.0.0',
      'node_modules/c/node_modules/b': '1.0.0',
      'node_modules/@s/d': '3.0.0',
    };
    expect(dependencyClosureProblems({ root, packagedVersion: packaged(hoisted) })).toEqual([]);
  });

  it('names a package missing from app.asar, and who needs it', () => {
    const problems = dependencyClosureProblems({
      root,
      packagedVersion: packaged({
        'node_modules/a': '1.0.0',
        'node_modules/a/node_modules/b': '2.0.0',
        'node_modules/b': '1.0.0',
        'node_modules/c': '1.0.0',
      }),
    });
    expect(problems).toEqual(['app.asar lacks @s/d@3.0.0 (needed by c@1.0.0)']);
  });

  it('names a require that would land on another version (a nested copy left out, its namesake above it)', () => {
    const problems = dependencyClosureProblems({
      root,
      packagedVersion: packaged({
        'node_modules/a': '1.0.0',
        'node_modules/b': '1.0.0',
        'node_modules/c': '1.0.0',
        'node_modules/@s/d': '3.0.0',
      }),
    });
    expect(problems).toEqual(['in app.asar, a@1.0.0 would load b@1.0.0 from node_modules/b, not b@2.0.0']);
  });

  it('a dependency not installed is named too; an optional one that is absent is not', () => {
    rmSync(path.join(root, 'node_modules/@s'), { recursive: true });
    const problems = dependencyClosureProblems({
      root,
      packagedVersion: packaged({
        'node_modules/a': '1.0.0',
        'node_modules/a/node_modules/b': '2.0.0',
        'node_modules/b': '1.0.0',
        'node_modules/c': '1.0.0',
      }),
    });
    expect(problems).toEqual(['@s/d (needed by c@1.0.0) is not installed: run npm install']);
  });
});
