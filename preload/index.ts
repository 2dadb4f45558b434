// Preload: the only bridge from the sandboxed renderer to main — `window.api`, built from the IPC contract.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { createBridge } from './bridge';

contextBridge.exposeInMainWorld(
  'api',
  createBridge({
    invoke: (channel, input) => ipcRenderer.invoke(channel, input),
    subscribe: (event, listener) => {
      const forward = (_event: IpcRendererEvent, payload: unknown): void => listener(payload);
      ipcRenderer.on(event, forward);
      return () => {
        ipcRenderer.removeListener(event, forward);
      };
    },
  }),
);
