// Build configuration: bundles main (out/main), the sandboxed preload (out/preload) and the React renderer (out/renderer).
import { resolve } from 'node:path';

import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';

const root = import.meta.dirname;

/**
 * Dev server only: Vite injects CSS as <style> elements (for hot reload), which `style-src 'self'` blocks.
 * Builds keep the strict policy from renderer/index.html untouched.
 */
function allowInjectedStylesInDev(): Plugin {
  const strict = "style-src 'self';";
  return {
    name: 'card-payments-desk:dev-style-csp',
    apply: 'serve',
    transformIndexHtml(html) {
      if (!html.includes(strict)) {
        throw new Error(`renderer/index.html CSP no longer contains "${strict}"; update the dev-only relaxation.`);
      }
      return html.replace(strict, "style-src 'self' 'unsafe-inline';");
    },
  };
}

export default defineConfig({
  main: {
    build: {
      outDir: resolve(root, 'out/main'),
      lib: { entry: resolve(root, 'main/index.ts') },
      // Runtime dependencies stay external (electron-vite's default) and ship in node_modules.
      externalizeDeps: true,
    },
  },
  preload: {
    build: {
      outDir: resolve(root, 'out/preload'),
      lib: {
        entry: resolve(root, 'preload/index.ts'),
        formats: ['cjs'],
        fileName: () => 'index.cjs',
      },
      // A sandboxed preload cannot require() node_modules: bundle everything into one file.
      // Only `electron` (and Node built-ins, which the layer lint forbids in preload/) stay external.
      externalizeDeps: false,
      rolldownOptions: {
        output: { codeSplitting: false },
      },
    },
  },
  renderer: {
    root: resolve(root, 'renderer'),
    plugins: [react(), allowInjectedStylesInDev()],
    build: {
      outDir: resolve(root, 'out/renderer'),
      // electron-vite leaves the renderer unminified by default; the budget (bench:renderer) is on the minified size.
      minify: true,
      rolldownOptions: {
        input: resolve(root, 'renderer/index.html'),
        output: {
          // zod and its configuration (jitless: the CSP forbids eval) in one chunk: the configuration then runs before
          // any schema is built, in whichever chunk the code splitting puts the shared schemas (zod decides at
          // construction whether to probe eval, and a probe is reported as a CSP violation).
          codeSplitting: {
            groups: [{ name: 'zod', test: /[\\/]node_modules[\\/]zod[\\/]|[\\/]renderer[\\/]src[\\/]zod-config\.ts$/ }],
          },
        },
      },
    },
  },
});
