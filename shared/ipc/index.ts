// The IPC contract shared by main (handlers), preload (bridge) and renderer (client).
export * from './contract';
export * from './views';
export type { Api, Transport } from './api';
export * from './errors';
