// The Linux package: the deb alone, because it is the one that starts with Chromium's sandbox on Ubuntu 23.10 and later
// (unprivileged user namespaces need an AppArmor profile there, which the deb installs); never --no-sandbox.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const require = createRequire(import.meta.url);
/** js-yaml, as scripts/package-check.mjs reads the file (it ships no types). */
const yaml = require('js-yaml') as { load(text: string): unknown };

interface Config {
  linux?: { target?: unknown; executableArgs?: string[] };
  deb?: { recommends?: string[]; afterInstall?: string; appArmorProfile?: string };
}
const config = yaml.load(readFileSync(path.join(root, 'electron-builder.yml'), 'utf8')) as Config;
const targetNames = (targets: unknown): unknown[] =>
  (Array.isArray(targets) ? targets : [targets]).map((target: unknown) =>
    typeof target === 'object' && target !== null ? (target as { target?: unknown }).target : target,
  );

/** electron-builder's own deb scripts (app-builder-lib/templates/linux), which the deb runs when it is installed. */
const templates = path.join(path.dirname(require.resolve('app-builder-lib/package.json')), 'templates/linux');

describe('the Linux package', () => {
  it('is the deb alone: no AppImage, which could start on current Ubuntu only without the sandbox', () => {
    expect(targetNames(config.linux?.target)).toEqual(['deb']);
    expect(JSON.stringify(config)).not.toMatch(/AppImage/i);
  });

  it('never turns the sandbox off', () => {
    expect(JSON.stringify(config)).not.toMatch(/no-sandbox/);
    expect(config.linux?.executableArgs ?? []).not.toContain('--no-sandbox');
  });

  it("keeps electron-builder's own install scripts, which install the AppArmor profile that lets the sandbox use user namespaces", () => {
    // Our own scripts or profile would replace electron-builder's: the deb must keep its after-install and profile.
    expect(config.deb?.afterInstall).toBeUndefined();
    expect(config.deb?.appArmorProfile).toBeUndefined();
    const afterInstall = readFileSync(path.join(templates, 'after-install.tpl'), 'utf8');
    expect(afterInstall).toMatch(/APPARMOR_PROFILE_TARGET='\/etc\/apparmor\.d\/\$\{executable\}'/);
    expect(afterInstall).toMatch(/apparmor_parser --replace/);
    expect(afterInstall).toMatch(/chmod 4755 '\/opt\/\$\{sanitizedProductName\}\/chrome-sandbox'/);
    const profile = readFileSync(path.join(templates, 'apparmor-profile.tpl'), 'utf8');
    expect(profile).toMatch(/"\/opt\/\$\{sanitizedProductName\}\/\$\{executable\}"/);
    expect(profile).toMatch(/^\s*userns,$/m);
  });

  it('recommends a keyring: the secrets are refused without one', () => {
    expect(config.deb?.recommends).toContain('gnome-keyring');
  });

  it('IT.md and the README name the deb as the Linux package, and no AppImage', () => {
    for (const file of ['docs/IT.md', 'README.md']) {
      const text = readFileSync(path.join(root, file), 'utf8');
      expect(text, file).toMatch(/card-payments-desk_<version>_amd64\.deb/);
      expect(
        text.split('\n').filter((line) => /\.AppImage\b/.test(line) && !/not|no AppImage|cannot/i.test(line)),
        file,
      ).toEqual([]);
    }
  });
});
