/** The app's composition root, free of Electron: what the Electron shell and the e2e harness both run. */
export { createMainStack, type MainStack, type MainStackOptions } from './stack';
export { createStartup, type Startup, type StartupOptions } from './startup';
