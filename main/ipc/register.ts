/** The only user of ipcMain: wires every contract channel to the dispatcher, and sends contract events to the app's windows. */
import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { CHANNEL_NAMES, EVENTS, type EventName, type EventPayload } from '../../shared/ipc';
import type { Dispatch, SenderInfo } from './dispatch';

function senderOf(event: IpcMainInvokeEvent): SenderInfo {
  const frame = event.senderFrame;
  return {
    url: frame?.url ?? '',
    isMainFrame: frame !== null && frame === event.sender.mainFrame,
    webContentsId: event.sender.id,
  };
}

/** Registers one handler per channel of the contract (nothing generic), and answers the unregister. */
export function registerIpc(ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>, dispatch: Dispatch): () => void {
  for (const channel of CHANNEL_NAMES) {
    ipcMain.handle(channel, (event, input: unknown) => dispatch(channel, senderOf(event), input));
  }
  return () => {
    for (const channel of CHANNEL_NAMES) ipcMain.removeHandler(channel);
  };
}

/** Sends an event to the given windows, its payload parsed by the contract first. */
export function publish<E extends EventName>(
  targets: readonly Pick<WebContents, 'send' | 'isDestroyed'>[],
  event: E,
  payload: EventPayload<E>,
): void {
  const checked: unknown = EVENTS[event].parse(payload);
  for (const target of targets) if (!target.isDestroyed()) target.send(event, checked);
}
