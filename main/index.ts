// Main process: owns the window, the secrets and every call to the payment service; the renderer never sees them.
import path from 'node:path';

import { app, BrowserWindow, session } from 'electron';

import type { Environment } from '../shared';
import { startSimulator } from './sandbox';

type Simulator = Awaited<ReturnType<typeof startSimulator>>;

/** Training (the built-in simulator) is the only mode until configuration arrives in a later issue. */
const environment: Environment = 'training';

let mainWindow: BrowserWindow | null = null;
let simulator: Simulator | null = null;
let shuttingDown = false;

function describe(error: unknown): string {
  // Only the message: error objects can carry request options, headers or bodies.
  return error instanceof Error ? error.message : 'unknown error';
}

function hardenWebContents(): void {
  // Applies to every WebContents, including any created later: no pop-ups, no navigation, no webviews.
  app.on('web-contents-created', (_event, contents) => {
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
    contents.on('will-navigate', (event) => {
      event.preventDefault();
    });
    contents.on('will-redirect', (event) => {
      event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => {
      event.preventDefault();
    });
  });
}

async function createMainWindow(): Promise<BrowserWindow> {
  const window = new BrowserWindow({
    width: 1200,
    height: 800,
    show: false,
    title: 'Card Payments Desk',
    webPreferences: {
      preload: path.join(import.meta.dirname, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    },
  });
  window.once('ready-to-show', () => {
    window.show();
  });
  window.on('closed', () => {
    mainWindow = null;
  });

  // electron-vite sets ELECTRON_RENDERER_URL for `electron-vite dev`; a custom protocol replaces file:// later.
  const devServerUrl = process.env['ELECTRON_RENDERER_URL'];
  if (!app.isPackaged && devServerUrl !== undefined && devServerUrl !== '') {
    await window.loadURL(devServerUrl);
  } else {
    await window.loadFile(path.join(import.meta.dirname, '../renderer/index.html'));
  }
  return window;
}

async function start(): Promise<void> {
  await app.whenReady();
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => {
    callback(false);
  });
  if (environment === 'training') {
    simulator = await startSimulator();
  }
  mainWindow = await createMainWindow();
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  hardenWebContents();

  app.on('second-instance', () => {
    if (mainWindow === null) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });

  app.on('window-all-closed', () => {
    app.quit();
  });

  app.on('will-quit', (event) => {
    const running = simulator;
    if (running === null || shuttingDown) return;
    // Hold the quit until the simulator has released its port, then quit for real.
    event.preventDefault();
    shuttingDown = true;
    simulator = null;
    running
      .close()
      .catch((error: unknown) => {
        console.error(`Training simulator did not close cleanly: ${describe(error)}`);
      })
      .finally(() => {
        app.quit();
      });
  });

  start().catch((error: unknown) => {
    console.error(`Card Payments Desk failed to start: ${describe(error)}`);
    app.exit(1);
  });
}
