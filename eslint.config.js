// Lint configuration: type-checked TypeScript rules plus the layer and Electron-API boundaries of the app.
import { readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';

import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const root = import.meta.dirname;

// --- Layers: which top-level folder may import which (resolved paths, so `../..` tricks do not help). ---
const layerZones = [
  {
    target: './shared',
    from: ['./main', './preload', './renderer', './test'],
    message: 'shared/ is the bottom layer: it imports nothing from main/, preload/, renderer/ or test/.',
  },
  {
    target: './renderer',
    from: ['./main', './preload', './test'],
    message: 'renderer/ reaches main only through the preload bridge, never by import.',
  },
  {
    target: './preload',
    from: ['./main', './renderer', './test'],
    message: 'preload/ may import only shared/ (and electron).',
  },
  {
    target: './main',
    from: ['./renderer', './preload', './test'],
    message: 'main/ never imports renderer/ or preload/ code; share types through shared/.',
  },
];

// --- Main's tiers: each imports only the tiers below it (resolved paths). The kernel holds what everything needs; a
// capability is one job (any folder not named here is one), reached from another capability or the door only through its
// index.ts; the door is the renderer's way in; composition (and main/index.ts) wires it all and may import any file below,
// and nothing below imports it. ---
const kernel = ['errors', 'logging', 'storage'];
const door = ['ipc', 'window'];
const composition = ['app', 'center', 'cli', 'shell'];
const capabilities = readdirSync(`${root}/main`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && ![...kernel, ...door, ...composition].includes(entry.name))
  .map((entry) => entry.name);
const folders = (names) => names.map((name) => `./main/${name}`);
const inside = (names) => names.map((name) => `./${name}`);
const tierZones = [
  {
    target: folders(kernel),
    from: './main',
    except: inside(kernel),
    message: 'main/errors, logging and storage are the kernel: they import nothing else of main/.',
  },
  {
    target: folders(capabilities),
    from: './main',
    except: inside([...kernel, ...capabilities]),
    message:
      'A capability imports the kernel and other capabilities only: never the door (ipc, window) nor composition (app, center, cli, shell, main/index.ts).',
  },
  {
    target: folders(door),
    from: './main',
    except: inside([...kernel, ...capabilities, ...door]),
    message:
      'The door (ipc, window) imports the kernel and the capabilities only: never app, center, cli, shell or main/index.ts.',
  },
  // The door's two folders are one tier and may use each other's files (window/trust.ts checks senders as ipc does).
  ...capabilities.map((name) => ({
    target: folders([...capabilities.filter((other) => other !== name), ...door]),
    from: `./main/${name}`,
    except: ['./index.ts'],
    message: `Reach main/${name} through its index.ts (export what you need there), never one of its files.`,
  })),
];

// --- The renderer's door to main: only the features' api.ts files (and app/api.ts) import the bridge client; components
// and everything else use their hooks, so that operation ids, invalidation and events live in one place per feature. ---
const bridgeZone = {
  target: './renderer/src',
  from: './renderer/src/bridge/client.ts',
  message: "Only a feature's api.ts (or app/api.ts) imports the bridge client: use that feature's hooks.",
};
const bridgeClientUsers = ['renderer/src/**/api.ts', 'renderer/src/bridge/**'];

// --- Electron APIs: where `electron`, `ipcMain` and `ipcRenderer` may appear. ---
const electronMessage =
  "'electron' may be imported only in main/index.ts, main/shell/**, main/cli/desk.ts, main/ipc/** and preload/**; " +
  'the payment engine must run under plain Node.';
const electronSpecifier = '/^electron(\\x2F.*)?$/';
const noElectronImports = {
  patterns: [{ regex: '^electron(/.*)?$', message: electronMessage }],
};
const noDynamicElectron = [
  { selector: `ImportExpression[source.value=${electronSpecifier}]`, message: electronMessage },
  {
    selector: `CallExpression[callee.name='require'][arguments.0.value=${electronSpecifier}]`,
    message: electronMessage,
  },
];
const noIpcMain = ['Identifier', 'Literal'].map((node) => ({
  selector: `${node}[${node === 'Identifier' ? 'name' : 'value'}='ipcMain']`,
  message: 'ipcMain may be used only in main/ipc/**.',
}));
const noIpcRenderer = ['Identifier', 'Literal'].map((node) => ({
  selector: `${node}[${node === 'Identifier' ? 'name' : 'value'}='ipcRenderer']`,
  message: 'ipcRenderer may be used only in preload/**.',
}));

// A sandboxed preload can require() only electron (plus a few polyfilled modules): no Node built-ins.
const noNodeBuiltins = {
  paths: builtinModules.map((name) => ({
    name,
    message: 'A sandboxed preload cannot use Node built-ins.',
  })),
  patterns: [{ regex: '^node:', message: 'A sandboxed preload cannot use Node built-ins.' }],
};

// --- One fetch for main: every outbound request goes through the fetch the stack is given (Electron's net.fetch in the
// app: the OS proxy settings, PAC files and certificate store). Node's global fetch ignores all three. ---
const oneFetchMessage =
  "main/ never calls the global fetch: take the `fetch` your caller passes (MainStackOptions.fetch, Electron's net.fetch in the app).";
const noGlobalFetch = [{ name: 'fetch', message: oneFetchMessage }];
const noGlobalFetchProperty = ['globalThis', 'global', 'self', 'window'].map((object) => ({
  object,
  property: 'fetch',
  message: oneFetchMessage,
}));
// Nor an HTTP client of its own (only the training simulator serves on node:http, on 127.0.0.1). nodemailer's SMTP is
// not HTTP and keeps its own sockets (README, "Network").
const httpClientMessage = `${oneFetchMessage} An HTTP client module of its own would bypass it the same way.`;
const httpClientPaths = [
  'http',
  'https',
  'http2',
  'undici',
  'node-fetch',
  'axios',
  'got',
  'cross-fetch',
  'superagent',
  'request',
]
  .flatMap((name) => (builtinModules.includes(name) ? [name, `node:${name}`] : [name]))
  .map((name) => ({ name, message: httpClientMessage }));
const mainFiles = ['main/**/*.{ts,tsx,mts,cts,js,mjs,cjs}'];
const simulatorFiles = ['main/sandbox/**'];

// --- One simulator fixture for tests: test/support/simulator.ts starts, resets, faults and clocks the simulator; only it
// (and the simulator's own tests in test/main/sandbox) may start one from main/sandbox. ---
const simulatorFixtureMessage =
  'Tests start the simulator through test/support/simulator.ts (useSimulator, or launchSimulator where no vitest hook ' +
  'fits), never startSimulator from main/sandbox.';
const sandboxSpecifier = '(^|/)main/sandbox(/index(\\.ts)?)?$';
const noStartSimulator = {
  regex: sandboxSpecifier,
  importNames: ['startSimulator'],
  message: simulatorFixtureMessage,
};
const noDynamicSandbox = [
  {
    selector: `ImportExpression[source.value=/${sandboxSpecifier.replaceAll('/', '\\x2F')}/]`,
    message: simulatorFixtureMessage,
  },
];
const testFiles = ['test/**/*.{ts,tsx,mts,cts,js,mjs,cjs}'];
const simulatorFixtureFiles = ['test/support/simulator.ts', 'test/main/sandbox/**'];

// main/cli/desk.ts: the desk's own command-line modes, run by Electron (the other CLIs run under plain Node).
const electronEntryFiles = ['main/index.ts', 'main/shell/**', 'main/cli/desk.ts'];
const ipcMainFiles = ['main/ipc/**'];
const preloadFiles = ['preload/**'];

export default defineConfig(
  globalIgnores(['out/', 'dist/', 'build/', 'node_modules/', 'test-results/', 'playwright-report/']),

  js.configs.recommended,

  {
    files: ['**/*.{ts,tsx,mts,cts}'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: root,
      },
    },
  },

  {
    files: ['**/*.{js,mjs,cjs}'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: globals.node },
  },

  {
    files: ['main/**', 'preload/**', 'test/**', '*.config.ts'],
    languageOptions: { globals: globals.node },
  },

  {
    files: ['renderer/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat['recommended-latest']],
    languageOptions: { globals: globals.browser },
  },

  // One fetch: no module of main reaches for the global one (types such as `typeof fetch` are fine).
  {
    files: ['main/**/*.{ts,tsx,mts,cts,js,mjs,cjs}'],
    rules: {
      'no-restricted-globals': ['error', ...noGlobalFetch],
      'no-restricted-properties': ['error', ...noGlobalFetchProperty],
    },
  },

  // Layer boundaries, checked on resolved import paths.
  {
    files: ['**/*.{ts,tsx,mts,cts,js,mjs,cjs}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        // The root tsconfig.json is a solution file: the resolver follows its project references.
        createTypeScriptImportResolver({ project: `${root}/tsconfig.json` }),
      ],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: root, zones: layerZones }],
    },
  },
  {
    files: mainFiles,
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: root, zones: [...layerZones, ...tierZones] }],
    },
  },
  {
    files: ['renderer/src/**/*.{ts,tsx}'],
    ignores: bridgeClientUsers,
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: root, zones: [...layerZones, bridgeZone] }],
    },
  },

  // Electron boundaries (and main's one fetch). ESLint applies the last matching options, so each group states its full set.
  {
    files: ['**/*.{ts,tsx,mts,cts,js,mjs,cjs}'],
    rules: {
      'no-restricted-imports': ['error', noElectronImports],
      'no-restricted-syntax': ['error', ...noDynamicElectron, ...noIpcMain, ...noIpcRenderer],
    },
  },
  {
    files: testFiles,
    ignores: simulatorFixtureFiles,
    rules: {
      'no-restricted-imports': ['error', { patterns: [...noElectronImports.patterns, noStartSimulator] }],
      'no-restricted-syntax': ['error', ...noDynamicElectron, ...noIpcMain, ...noIpcRenderer, ...noDynamicSandbox],
    },
  },
  {
    files: mainFiles,
    rules: {
      'no-restricted-imports': ['error', { ...noElectronImports, paths: httpClientPaths }],
    },
  },
  {
    files: simulatorFiles,
    rules: {
      'no-restricted-imports': ['error', noElectronImports],
    },
  },
  {
    files: electronEntryFiles,
    rules: {
      'no-restricted-imports': ['error', { paths: httpClientPaths }],
      'no-restricted-syntax': ['error', ...noIpcMain, ...noIpcRenderer],
    },
  },
  {
    files: ipcMainFiles,
    rules: {
      'no-restricted-imports': ['error', { paths: httpClientPaths }],
      'no-restricted-syntax': ['error', ...noIpcRenderer],
    },
  },
  {
    files: preloadFiles,
    rules: {
      'no-restricted-imports': ['error', noNodeBuiltins],
      'no-restricted-syntax': ['error', ...noIpcMain],
    },
  },
);
