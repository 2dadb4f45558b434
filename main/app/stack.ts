/** The main process without Electron: service, journal, operators, engine and the IPC door, over one data folder. */
import { join } from 'node:path';
import { EVENTS, type EventName, type EventPayload } from '../../shared/ipc';
import type { Language } from '../../shared/language';
import { createDispatcher, createHandlers, type Dispatch, type PreferencesPort, type SenderInfo, type SessionPort } from '../ipc';
import { createMessenger, MessagingError, type MessagingSecrets } from '../messaging';
import { BuiltinReservationStore, createReservationSource, ReservationError, type SecretGetter } from '../reservations';
import { SettingsError } from '../settings/errors';
import { OperatorDirectory, SessionGuard } from '../operators';
import { connectService, Journal, PaymentEngine, type EngineLogger, type RecoveryReport, type SecretStore, type ServiceSettings } from '../payments';

export interface MainStackOptions {
  /** Electron's userData in the app; a temporary folder in tests. */
  dataDir: string;
  version: string;
  isTrustedSender: (sender: SenderInfo) => boolean;
  /** Training (the built-in simulator) when not given. */
  service?: ServiceSettings;
  secrets?: SecretStore;
  idleTimeoutMs?: number;
  logger?: EngineLogger;
  onUnexpectedError?: (channel: string, error: unknown) => void;
  /** The desk's language and whether IT locked it; in memory (es-MX) when not given. */
  preferences?: PreferencesPort;
  /** The `reservations` setting (undefined: the built-in store; demo guests in training). */
  reservations?: unknown;
  /** The `messaging` setting (undefined: no provider; training always uses the outbox). */
  messaging?: unknown;
  /** The messaging providers' secrets (the secret store in the app). */
  messagingSecrets?: MessagingSecrets;
  /** The REST reservation source's auth header value. */
  reservationsSecret?: SecretGetter;
  /** Electron's content protection for the window that asks; tests record the calls. */
  protectCardData?: (webContentsId: number, active: boolean) => void;
}

export interface MainStack {
  /** Every renderer call goes through the door; those the operator makes count as activity for the idle lock. */
  dispatch: Dispatch;
  /** Events for the windows, already parsed by the contract. */
  onEvent(listener: <E extends EventName>(event: E, payload: EventPayload<E>) => void): () => void;
  directory: OperatorDirectory;
  /** Training only: the simulator's control endpoint. */
  training: { controlUrl: string } | undefined;
  recover(): Promise<RecoveryReport>;
  close(): Promise<void>;
}

/**
 * Calls the screens make by themselves (polling, refreshing after an event, the card form's protection switch):
 * they are not the operator at work, so they do not postpone the idle lock.
 */
const BACKGROUND_CHANNELS: ReadonlySet<string> = new Set([
  'app:info',
  'session:status',
  'window:protectCardData',
  'payments:get',
  'reservations:overview',
  'messaging:outbox',
  'messaging:channels',
  'messaging:history',
]);

const noSecrets: SecretStore = { read: () => Promise.resolve(undefined) };

function memoryPreferences(initial: Language = 'es-MX'): PreferencesPort {
  let language = initial;
  return {
    language: () => ({ language, locked: false }),
    setLanguage: (next) => {
      language = next;
      return Promise.resolve(language);
    },
  };
}

export async function createMainStack(options: MainStackOptions): Promise<MainStack> {
  const service = await connectService(options.service ?? { environment: 'training' }, options.secrets ?? noSecrets);
  const journal = new Journal(join(options.dataDir, 'journal.db'));
  const directory = new OperatorDirectory(join(options.dataDir, 'operators.db'));
  const reservationSource = createReservationSource(options.reservations, {
    dataDir: options.dataDir,
    training: service.config.environment === 'training',
    ...(options.reservationsSecret ? { secret: options.reservationsSecret } : {}),
  });
  const listeners = new Set<(event: EventName, payload: unknown) => void>();
  const emit = <E extends EventName>(event: E, payload: EventPayload<E>): void => {
    const checked: unknown = EVENTS[event].parse(payload);
    for (const listener of listeners) listener(event, checked);
  };

  const messenger = createMessenger({
    config: options.messaging,
    environment: service.config.environment,
    secrets: options.messagingSecrets ?? { read: () => Promise.resolve(undefined) },
    dataDir: options.dataDir,
    ...(options.logger ? { logger: options.logger } : {}),
  });
  const guard = new SessionGuard({ directory, ...(options.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: options.idleTimeoutMs }), onLock: () => emit('session:locked', {}) });
  const session: SessionPort = {
    status: () => guard.status(),
    signIn: (id, password) => guard.signIn(id, password),
    signOut: () => guard.signOut(),
    createFirstAdmin: async (input) => {
      await directory.createFirstAdmin(input);
      return guard.signIn(input.id, input.password);
    },
  };
  const engine = new PaymentEngine({ config: service.config, secrets: service.secrets, journal, ...(options.logger ? { logger: options.logger } : {}) });
  engine.on((event) => emit('payments:changed', event.payment));

  const door = createDispatcher({
    handlers: createHandlers({
      engine,
      session,
      app: { environment: service.config.environment, version: options.version },
      preferences: options.preferences ?? memoryPreferences(),
      messaging: messenger,
      reservations: {
        search: (query) => reservationSource.search(query),
        get: (id) => reservationSource.get(id),
        importCsv: (csv) => {
          if (!(reservationSource instanceof BuiltinReservationStore)) {
            throw new ReservationError('configuration', 'Reservations come from the partner system here: there is nothing to import. Tell IT if this is wrong.');
          }
          return reservationSource.importCsv(csv);
        },
      },
      follow: (paymentId) => {
        engine.follow(paymentId);
      },
      protectCardData: options.protectCardData ?? (() => undefined),
    }),
    currentOperator: () => guard.current(),
    isTrustedSender: options.isTrustedSender,
    // Settings errors are written for people (a setting IT locked, a bad value).
    explain: (error) =>
      error instanceof SettingsError || error instanceof ReservationError || error instanceof MessagingError
        ? { code: error.code, message: error.message }
        : undefined,
    ...(options.onUnexpectedError ? { onUnexpectedError: options.onUnexpectedError } : {}),
  });

  return {
    dispatch: (channel, sender, input) => {
      if (!BACKGROUND_CHANNELS.has(channel)) guard.touch();
      return door(channel, sender, input);
    },
    onEvent(listener) {
      const wrapped = listener as (event: EventName, payload: unknown) => void;
      listeners.add(wrapped);
      return () => listeners.delete(wrapped);
    },
    directory,
    training: service.training,
    recover: () => engine.recover(),
    async close() {
      engine.close();
      guard.signOut();
      journal.close();
      directory.close();
      await reservationSource.close();
      messenger.close();
      await service.close();
    },
  };
}
