/** Binds the IPC door to Electron's own ipcMain; kept apart from index.ts so plain-Node tests never load Electron. */
import { ipcMain } from 'electron';
import type { Dispatch } from './dispatch';
import { registerIpc } from './register';

export function connectIpc(dispatch: Dispatch): () => void {
  return registerIpc(ipcMain, dispatch);
}
