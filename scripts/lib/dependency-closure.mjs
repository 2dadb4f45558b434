// Whether a packaged app (app.asar) holds every production dependency of the project, transitively, each where Node's
// resolution finds it and at the version the project's own node_modules resolves to. Used by scripts/package-check.mjs:
// electron-builder rebuilds the node_modules layout when it packs (hoisting nested copies whose top-level namesake is a
// development package), so "the same package names" is not enough: each require must land on the right version.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

function readPackage(dir) {
  try {
    return JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
  } catch {
    return undefined;
  }
}

/** What a package needs at run time: its dependencies, and the optional ones it has (absent ones were left out on purpose). */
function runtimeDependencies(pkg) {
  return [
    ...Object.keys(pkg.dependencies ?? {}).map((name) => ({ name, optional: false })),
    ...Object.keys(pkg.optionalDependencies ?? {}).map((name) => ({ name, optional: true })),
  ];
}

/** Node's lookup of `name` from a package folder: its own node_modules, then each enclosing one up to `top`. */
function resolveFrom(dir, name, top, exists) {
  let current = dir;
  for (;;) {
    const candidate = current === '' ? `node_modules/${name}` : `${current}/node_modules/${name}`;
    if (exists(candidate)) return candidate;
    if (current === top) return undefined;
    const at = current.lastIndexOf('/node_modules/');
    current = at === -1 ? '' : current.slice(0, at);
  }
}

/**
 * The problems (empty when none): each production dependency, from the project's package.json down, resolved on disk
 * (under `root`) and in the package (`packagedVersion(dir)`: the version of the package at that folder, relative and with
 * forward slashes like "node_modules/a/node_modules/b", or undefined when there is none).
 */
export function dependencyClosureProblems({ root, packagedVersion }) {
  const onDisk = (relative) => existsSync(path.join(root, ...relative.split('/'), 'package.json'));
  const inPackage = (relative) => packagedVersion(relative) !== undefined;
  const problems = [];
  const seen = new Set();
  const queue = [{ disk: '', packaged: '', label: 'the app' }];
  while (queue.length > 0) {
    const { disk, packaged, label } = queue.shift();
    const pkg = readPackage(path.join(root, ...disk.split('/').filter(Boolean)));
    if (pkg === undefined) continue;
    for (const { name, optional } of runtimeDependencies(pkg)) {
      const diskChild = resolveFrom(disk, name, '', onDisk);
      if (diskChild === undefined) {
        if (!optional) problems.push(`${name} (needed by ${label}) is not installed: run npm install`);
        continue;
      }
      const version = readPackage(path.join(root, ...diskChild.split('/')))?.version;
      const packagedChild = resolveFrom(packaged, name, '', inPackage);
      if (packagedChild === undefined) {
        problems.push(`app.asar lacks ${name}@${version} (needed by ${label})`);
        continue;
      }
      const packagedChildVersion = packagedVersion(packagedChild);
      if (packagedChildVersion !== version) {
        problems.push(
          `in app.asar, ${label} would load ${name}@${packagedChildVersion} from ${packagedChild}, not ${name}@${version}`,
        );
        continue;
      }
      if (seen.has(packagedChild)) continue;
      seen.add(packagedChild);
      queue.push({ disk: diskChild, packaged: packagedChild, label: `${name}@${version}` });
    }
  }
  return problems;
}
