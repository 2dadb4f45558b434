/** The IPC layer: the one narrow, typed, validated door between the renderer and main. */
export {
  createDispatcher,
  isAppUrl,
  type CallContext,
  type Dispatch,
  type DispatcherDeps,
  type DoorCall,
  type Handlers,
  type SenderInfo,
} from './dispatch';
export { publish, registerIpc } from './register';
export {
  createHandlers,
  type AccountsPort,
  type DeskPort,
  type HandlerDeps,
  type MessagingPort,
  type PreferencesPort,
  type RefundsPort,
  type ReservationsPort,
  type SessionPort,
  type UpdatesPort,
} from './handlers';
