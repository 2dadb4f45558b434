/** What the desk's stack is given (MainStackOptions) and what it offers the shell and the e2e harness (MainStack). */
import type { RefundLimits } from '../../shared/desk';
import type { EventName, EventPayload, UpdateStatus } from '../../shared/ipc';
import type { CenterSettings } from '../center';
import type { AuditTrail } from '../audit';
import type { Dispatch, PreferencesPort, SenderInfo, UpdatesPort } from '../ipc';
import type { MessagingSecrets } from '../messaging';
import type { SecretGetter } from '../reservations';
import type { Storage } from '../storage';
import type { OperatorDirectory, ScryptCost } from '../operators';
import type {
  ConnectedService,
  EngineLogger,
  RecoveryProgress,
  RecoveryReport,
  SecretStore,
  ServiceSettings,
} from '../payments';

export interface MainStackOptions {
  /** Electron's userData in the app; a temporary folder in tests. */
  dataDir: string;
  version: string;
  isTrustedSender: (sender: SenderInfo) => boolean;
  /**
   * Every outbound request of main goes through this one fetch: the payment service, its tokens, the messaging
   * providers and the partner's reservation system. The app passes Electron's net.fetch (the OS proxy settings, PAC
   * files and certificate store, as electron-updater uses); tests pass Node's. No module of main calls the global one.
   */
  fetch: typeof fetch;
  /** Training (the built-in simulator) when not given. */
  service?: ServiceSettings;
  /**
   * How the service is reached from the settings (connectService: training starts the simulator in this process).
   * Tests give a running simulator here, one that outlives a restart of the stack as the real service would.
   */
  connect?: (settings: ServiceSettings, secrets: SecretStore) => Promise<ConnectedService>;
  secrets?: SecretStore;
  idleTimeoutMs?: number;
  /** The scrypt cost of new password hashes (the directory's default when not given; never below MIN_COST). */
  passwordCost?: ScryptCost;
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
  /**
   * Training only, tests only: false sends training links through the `messaging` providers instead of the training
   * outbox (the end-to-end tests point them at a Twilio-shaped server on this computer). The app never sets it.
   */
  trainingOutbox?: boolean;
  /** The REST reservation source's auth header value. */
  reservationsSecret?: SecretGetter;
  /** Electron's content protection for the window that asks; tests record the calls. */
  protectCardData?: (webContentsId: number, active: boolean) => void;
  /** The `refundLimits` setting: per role and currency, the largest single refund and the day's total (default: supervisors 10,000 MXN / 500 USD, each). */
  refundLimits?: RefundLimits;
  /**
   * The `center` setting: the center's shared PostgreSQL, described by app:info. The stores follow `storage`, which the
   * app makes from this setting (main/index.ts).
   */
  center?: CenterSettings | undefined;
  /**
   * Where the stores keep their records: the embedded SQLite files of `dataDir` when not given; the center's PostgreSQL
   * (main/storage centerStorage, as the app role) when the `center` setting is. Closed with the stack.
   */
  storage?: Storage;
  /** The auto-update (main/updates in the app); "disabled" when not given. */
  updates?: UpdatesPort & { onChange?(listener: (status: UpdateStatus) => void): () => void };
  /** The desk's time zone for reports and date filters (the system's when not given). */
  timeZone?: string;
  /**
   * The settings in effect at this start (no secrets: those are in the secret store). When they differ from the
   * last start's, the audit trail records which changed (IT's managed file, the user's file).
   */
  settingsInEffect?: Record<string, unknown>;
  /** Policy settings found in the user's settings.json and not applied (only IT sets them): recorded by `system` at each start. */
  settingsIgnored?: readonly { field: string }[];
  /**
   * Tests only: the delays between main's reads of a payment that is not final (the spec's backoff, 1 s … 30 s, when not
   * given). An end-to-end test of something only the service learns (a cardholder answering 3-D Secure on their phone)
   * waits for main's next read; here it can come within a second. The app never sets it.
   */
  pollScheduleMs?: readonly number[];
}

export interface MainStack {
  /** Every renderer call goes through the door; those the operator makes count as activity for the idle lock. */
  dispatch: Dispatch;
  /** Events for the windows, already parsed by the contract. */
  onEvent(listener: <E extends EventName>(event: E, payload: EventPayload<E>) => void): () => void;
  directory: OperatorDirectory;
  /** The audit trail (append-only, hash-chained): audit.db in the data folder. */
  audit: AuditTrail;
  /** A window was closed: it watches nothing any more (the center's LISTEN connection closes when nobody watches). */
  windowClosed(windowId: number): void;
  /** True while a payment may still change or an operation is unanswered: no update restarts the app then. */
  paymentInProgress(): boolean;
  /**
   * The window's page was lost (it crashed, was killed, or hung and was ended) and reloaded, or not reloaded again (a crash
   * loop): a `window.recovered` row by the app, with Electron's reason. No card data: main never has any.
   */
  windowRecovered(recovery: { reason: string; reloaded: boolean; exitCode?: number }): void;
  /** Training only: the simulator's control endpoint. */
  training: { controlUrl: string } | undefined;
  /**
   * Completes what the last run left unanswered (re-sent with its key, closed, or marked for reconciliation);
   * `onProgress`: how many of them, before the first, then after each (the start-up screen's count).
   */
  recover(progress?: RecoveryProgress): Promise<RecoveryReport>;
  close(): Promise<void>;
}
