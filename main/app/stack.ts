/** The main process without Electron: service, journal, operators, engine and the IPC door, over one data folder. */
import { join } from 'node:path';
import { DEFAULT_REFUND_LIMITS, MAX_PAYMENT_RESULTS, type AuditQuery, type RefundLimits } from '../../shared/desk';
import {
  CHANNELS,
  EVENTS,
  type AuditLookup,
  type EventName,
  type EventPayload,
  type UpdateStatus,
} from '../../shared/ipc';
import type { Language } from '../../shared/language';
import { isFinalPayment, isFinalRefund } from '../../shared/payments';
import { deskIdentity, describeCenter, registerDesk, type CenterSettings } from '../center';
import { auditCsv, AuditTrail, createCallRecorder, type AuditEntry, type AuditFilter, withActorNames } from '../audit';
import {
  createDispatcher,
  createHandlers,
  type DeskPort,
  type Dispatch,
  type PreferencesPort,
  type SenderInfo,
  type SessionPort,
  type UpdatesPort,
} from '../ipc';
import { RefundDesk, RefundRequests, refundOutcome, systemRequestId, type StoredRequest } from '../refunds';
import { endOfDayReport, searchWindow } from '../reports';
import { createMessenger, MessagingAudit, type MessagingSecrets } from '../messaging';
import {
  BuiltinReservationStore,
  createReservationSource,
  ReservationError,
  searchWithShortReference,
  type SecretGetter,
} from '../reservations';
import { LiveFeed } from '../live';
import { embeddedStorage, holdDeskFolder, type Storage } from '../storage';
import { OperatorDirectory, SessionGuard, signInError } from '../operators';
import { centsFromWire, Currency, shortReferenceKey } from '../../shared/payments';
import { MAX_SEARCH_RESULTS } from '../../shared/reservations';
import {
  connectService,
  Journal,
  PaymentEngine,
  reservationKey,
  type ConnectedService,
  type EngineLogger,
  type RecoveryProgress,
  type RecoveryReport,
  type SecretStore,
  type ServiceSettings,
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

/** A local calendar day (YYYY-MM-DD) as the instant its midnight starts, in the desk's (the process's) time zone. */
function localMidnight(date: string, plusDays = 0): string {
  const [year, month, day] = date.split('-').map(Number);
  return new Date(year ?? 1970, (month ?? 1) - 1, (day ?? 1) + plusDays).toISOString();
}

/** At start-up: a `settings.change` row by `system` when the settings differ from those this desk's last start recorded. */
async function recordSettingsChange(
  audit: AuditTrail,
  current: Record<string, unknown>,
  record: (entry: AuditEntry) => void,
): Promise<void> {
  const values = JSON.parse(JSON.stringify(current)) as Record<string, unknown>;
  const previousRow = (await audit.query({ deskId: audit.deskId, action: 'settings.change', actor: 'system' }, 1))[0];
  const previous = (previousRow?.details['values'] ?? undefined) as Record<string, unknown> | undefined;
  const keys = [...new Set([...Object.keys(values), ...Object.keys(previous ?? {})])].sort();
  const changed = keys.filter((key) => JSON.stringify(values[key]) !== JSON.stringify(previous?.[key]));
  if (previous !== undefined && changed.length === 0) return;
  record({
    actor: 'system',
    action: 'settings.change',
    outcome: 'ok',
    resource: 'settings',
    details: { changed, values },
  });
}

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

/**
 * The desk's stack on its data folder. While it is open it holds the folder's desk.lock (main/storage/desk-lock.ts), which
 * IT's move-in checks so as never to copy the files of a running desk; the lock is dropped at close (or when the process
 * ends). A lock already held (a move of the folder in progress, or another copy of the app on it) refuses the start,
 * before any store is opened: nothing is written under the move.
 */
export async function createMainStack(options: MainStackOptions): Promise<MainStack> {
  const lock = holdDeskFolder(options.dataDir, (error) => options.onUnexpectedError?.('desk-lock', error));
  let stack: MainStack;
  try {
    stack = await openMainStack(options);
  } catch (error) {
    lock?.release();
    throw error;
  }
  const close = stack.close.bind(stack);
  stack.close = async () => {
    try {
      await close();
    } finally {
      lock?.release();
    }
  };
  return stack;
}

async function openMainStack(options: MainStackOptions): Promise<MainStack> {
  // Made at the first start, before any store: every record will name it.
  const identity = await deskIdentity(options.dataDir);
  const storage = options.storage ?? embeddedStorage(options.dataDir);
  // On the center, before any record is read or written: this computer is the only one using its desk id.
  if (storage.backend === 'postgres') await registerDesk(storage, identity, options.dataDir);
  const service = await (options.connect ?? connectService)(
    options.service ?? { environment: 'training' },
    options.secrets ?? noSecrets,
  );
  const journal = await Journal.open(storage, identity);
  const directory = await OperatorDirectory.open(storage, identity);
  // Sessions this desk left open when it stopped: nobody is signed in here now.
  await directory.closeDeskSessions();
  // Rows are appended in order through the trail's own queue, never thrown at the caller. On a center, those it cannot
  // write while the center is down are kept in the data folder and written, in order, when it is back (or at the next start).
  const audit = await AuditTrail.open(storage, identity, {
    headFile: join(options.dataDir, 'audit-head.json'),
    spoolDir: options.dataDir,
    onError: (error) => options.onUnexpectedError?.('audit', error),
  });
  const record = (entry: AuditEntry): void => audit.record(entry);
  const reservationSource = await createReservationSource(options.reservations, {
    dataDir: options.dataDir,
    storage,
    deskId: identity.deskId,
    training: service.config.environment === 'training',
    fetch: options.fetch,
    ...(options.reservationsSecret ? { secret: options.reservationsSecret } : {}),
  });
  const listeners = new Set<(event: EventName, payload: unknown) => void>();
  const emit = <E extends EventName>(event: E, payload: EventPayload<E>): void => {
    const checked: unknown = EVENTS[event].parse(payload);
    for (const listener of listeners) listener(event, checked);
  };

  const deliveries = await MessagingAudit.open(storage, identity);
  const messenger = createMessenger({
    deliveries,
    config: options.messaging,
    environment: service.config.environment,
    secrets: options.messagingSecrets ?? { read: () => Promise.resolve(undefined) },
    fetch: options.fetch,
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.trainingOutbox === undefined ? {} : { trainingOutbox: options.trainingOutbox }),
  });
  // Each status of a 3DS link as main follows it with the provider.
  messenger.onDelivery((result) => emit('messaging:delivery', result));
  // What the windows watch of the other desks' work (the center's LISTEN connection, held only while they do).
  const live = new LiveFeed({
    deskId: identity.deskId,
    listen: storage.listen?.bind(storage),
    readPayment: (paymentId) => engine.stored(paymentId),
    readRequest: async (requestId) => {
      // Its only write while pending is the one that put it in the queue: a decision on it later alerts nobody again.
      const request = await requests.get(requestId);
      return request && alertFor(request);
    },
    // Decided or settled at another desk: the agent who asked here hears what became of it.
    readOutcome: async (requestId) => {
      const request = await requests.get(requestId);
      return request && refundOutcome(request, await engine.stored(request.paymentId), identity.deskId);
    },
    reservationKey,
    emit,
    ...(options.onUnexpectedError ? { onError: (error: unknown) => options.onUnexpectedError?.('live', error) } : {}),
  });
  const guard = new SessionGuard({
    directory,
    ...(options.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: options.idleTimeoutMs }),
    onLock: ({ operator, reason, endedBy }) => {
      const where =
        endedBy === undefined ? {} : { deskId: endedBy.deskId, sinceAt: new Date(endedBy.since).toISOString() };
      record({ actor: operator.id, action: 'session.lock', outcome: 'ok', details: { reason, ...where } });
      emit('session:locked', reason === 'ended_elsewhere' ? { endedElsewhere: where } : {});
      // The screens that watched the others' work are gone with the session.
      live.forget();
    },
    onIdleWarning: ({ locksAt }) => emit('session:idleWarning', { locksAt: new Date(locksAt).toISOString() }),
    onTakeOver: ({ operator, ended }) =>
      record({
        actor: operator.id,
        action: 'session.takeOver',
        outcome: 'ok',
        resource: operator.id,
        details: { endedDeskId: ended.deskId, endedSessionSince: new Date(ended.since).toISOString() },
      }),
  });
  const session: SessionPort = {
    status: () => guard.status(),
    signIn: (id, password, signInOptions) => guard.signIn(id, password, signInOptions),
    signOut: () => guard.signOut(),
    lock: () => guard.lock(),
    endLocked: () => guard.endLocked(),
    touch: () => guard.touch(),
    createFirstAdmin: async (input) => {
      await directory.createFirstAdmin(input);
      return guard.signIn(input.id, input.password);
    },
  };
  const engine = new PaymentEngine({
    config: service.config,
    secrets: service.secrets,
    journal,
    fetch: options.fetch,
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.pollScheduleMs ? { pollSchedule: options.pollScheduleMs } : {}),
    // "Taken today" (the door's check before a new charge) is the desk's calendar day, as the screen's.
    ...(options.timeZone === undefined ? {} : { timeZone: options.timeZone }),
    // The refund desk below is made before any refund is sent again (recovery runs after the stack is built).
    mayResendRefund: async (op): Promise<boolean> => refunds.mayResend(op, await directory.view(op.operatorId)),
  });
  engine.on((event) => emit('payments:changed', event.payment));
  // Results arrive later (the poller): each final payment and refund status is written once. The trail remembers a result
  // once it is written or found (no statement for it again); one whose row could not be written is asked for again at the
  // next read of its payment.
  const recordResultOnce = (action: string, resource: string, entry: Omit<AuditEntry, 'action' | 'resource'>): void => {
    // Not when the trail has it already (an earlier run, or another desk that followed the same payment).
    audit.record({ ...entry, action, resource }, { once: true });
  };
  engine.on(({ payment }) => {
    if (isFinalPayment(payment.status)) {
      recordResultOnce('payment.result', payment.id, {
        actor: 'system',
        outcome: payment.status === 'succeeded' ? 'ok' : 'failed',
        details: {
          status: payment.status,
          amountCents: payment.amountCents,
          currency: payment.currency,
          ...(payment.failure ? { failure: payment.failure.code } : {}),
        },
      });
    }
    for (const refund of payment.refunds) {
      if (!isFinalRefund(refund.status)) continue;
      recordResultOnce('refund.result', refund.id, {
        actor: 'system',
        outcome: refund.status === 'succeeded' ? 'ok' : 'failed',
        details: {
          paymentId: payment.id,
          status: refund.status,
          ...(refund.amountCents === undefined ? {} : { amountCents: refund.amountCents }),
          currency: refund.currency,
        },
      });
    }
  });

  if (options.settingsInEffect) await recordSettingsChange(audit, options.settingsInEffect, record);
  if (options.settingsIgnored && options.settingsIgnored.length > 0) {
    const settings = options.settingsIgnored.map((issue) => issue.field);
    record({
      actor: 'system',
      action: 'settings.ignored',
      outcome: 'refused',
      resource: 'settings',
      details: { file: 'user', settings },
    });
  }

  const timeZone = options.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const requests = await RefundRequests.open(storage, identity);
  // A refund a request became, seen ended (made or failed) by this desk's engine: the desk that asked is told, once a process.
  const endedRefunds = new Set<string>();
  engine.on(({ payment }) => {
    for (const refund of payment.refunds) {
      if (!isFinalRefund(refund.status) || endedRefunds.has(refund.id)) continue;
      endedRefunds.add(refund.id);
      void requests
        .refundEnded(payment.id, refund.id)
        .catch((error: unknown) => options.onUnexpectedError?.('refunds', error));
    }
  });
  /** The alert this desk is to show for a request: a pending late success of a payment abandoned here; none otherwise. */
  const alertFor = async (request: StoredRequest): Promise<EventPayload<'payments:lateSuccess'> | undefined> => {
    if (request.origin !== 'late_success' || request.status !== 'pending' || request.alertDeskId !== identity.deskId)
      return undefined;
    const payment = await engine.stored(request.paymentId);
    return payment && lateSuccessAlert(request, payment.reservationId);
  };
  /** The alert of a late success's request (its amount is the whole payment's), on the payment's reservation. */
  const lateSuccessAlert = (request: StoredRequest, reservationId: string): EventPayload<'payments:lateSuccess'> => ({
    paymentId: request.paymentId,
    reservationId,
    amountCents: request.amountCents ?? 0,
    currency: request.currency,
    abandonedBy: request.requestedBy,
    ...(request.linkedPaymentId === undefined ? {} : { replacementPaymentId: request.linkedPaymentId }),
    requestId: request.id,
  });
  // Money the guest may be owed, found by this desk's engine: one request in the center's queue, whichever desk writes it.
  // The desk that abandoned a payment that succeeded after all is alerted once: by the write here, or by the center's feed.
  engine.whenRefundNeeded(async (needed) => {
    const written = await requests.addOnce({
      id: systemRequestId(needed.origin, needed.paymentId),
      paymentId: needed.paymentId,
      amountCents: needed.amountCents,
      currency: Currency.parse(needed.currency.toLowerCase()),
      // A late success is a second charge for what the replacement paid: `duplicate`. A difference confirmed is money the
      // guest never agreed to pay, owed back to them: not a duplicate, a fraud or a cancellation, so `requested_by_customer`.
      reason: needed.origin === 'late_success' ? 'duplicate' : 'requested_by_customer',
      note: undefined,
      requestedBy: needed.operatorId,
      requestedAt: new Date(engine.now()).toISOString(),
      origin: needed.origin,
      ...(needed.linkedPaymentId === undefined ? {} : { linkedPaymentId: needed.linkedPaymentId }),
      ...(needed.alertDeskId === undefined ? {} : { alertDeskId: needed.alertDeskId }),
    });
    if (written === undefined) return;
    record({
      actor: 'system',
      action: 'refund.request',
      outcome: 'ok',
      resource: needed.paymentId,
      details: {
        requestId: written.id,
        origin: needed.origin,
        amountCents: needed.amountCents,
        currency: needed.currency,
        reason: written.reason,
        ...(needed.linkedPaymentId === undefined ? {} : { linkedPaymentId: needed.linkedPaymentId }),
      },
    });
    if (written.origin !== 'late_success' || written.alertDeskId !== identity.deskId) return;
    emit('payments:lateSuccess', lateSuccessAlert(written, needed.reservationId));
  });
  // This desk's own requests reach its windows at once; the other desks' come through the center's live feed.
  const stopRequests = requests.onChange((change, request) => {
    emit('refunds:changed', change);
    // Decided or settled here: the agent who asked at this desk hears what became of it.
    if (request.status === 'pending' || request.deskId !== identity.deskId) return;
    void engine
      .stored(request.paymentId)
      .then((payment) => {
        const outcome = refundOutcome(request, payment, identity.deskId);
        if (outcome !== undefined) emit('refunds:outcome', outcome);
      })
      .catch((error: unknown) => options.onUnexpectedError?.('refunds', error));
  });
  const refundLimits = options.refundLimits ?? DEFAULT_REFUND_LIMITS;
  const refunds = new RefundDesk({
    engine,
    requests,
    limits: () => refundLimits,
    history: journal,
    timeZone,
    records: {
      payments: (ids) => journal.payments(ids),
      // A reservation source that cannot answer now leaves the guest unnamed; the queue is still shown.
      guestName: async (reservationId) =>
        (await reservationSource.get(reservationId).catch(() => undefined))?.guestName,
      operatorName: async (operatorId) => (await directory.view(operatorId))?.displayName,
    },
    // Counted per approver for the whole center, never on the supervisor's own sign-in.
    verifyApprover: async (id, password) => {
      const result = await directory.verifyOverride(id, password);
      if (result.ok) return { approver: result.operator };
      if (result.reason === 'override_paused') return { pausedForMs: result.pausedForMs };
      throw signInError(result);
    },
  });
  // The handler has just read the request: its payment is known without asking the store again.
  const auditLookup: AuditLookup = { paymentOfRequest: (requestId) => requests.paymentOfKnown(requestId) };
  const recordCall = createCallRecorder({ record, lookup: auditLookup });
  const auditFilter = (query: Omit<AuditQuery, 'beforeId' | 'limit'> & { beforeId?: number }): AuditFilter => ({
    ...(query.actor ? { actor: query.actor } : {}),
    ...(query.action ? { action: query.action } : {}),
    ...(query.outcome ? { outcome: query.outcome } : {}),
    ...(query.resource ? { resource: query.resource } : {}),
    ...(query.from ? { from: localMidnight(query.from) } : {}),
    ...(query.to ? { to: localMidnight(query.to, 1) } : {}),
    ...(query.beforeId === undefined ? {} : { beforeId: query.beforeId }),
  });
  const desk: DeskPort = {
    async searchPayments(query) {
      let reservationIds: string[] | undefined;
      if (query.guestName)
        reservationIds = (await reservationSource.search({ text: query.guestName })).map((r) => r.confirmationNumber);
      if (query.reservationId)
        reservationIds = reservationIds
          ? reservationIds.filter((id) => id.toLowerCase() === query.reservationId?.toLowerCase())
          : [query.reservationId];
      return engine.search({
        ...(reservationIds ? { reservationIds } : {}),
        ...(query.paymentId ? { paymentId: query.paymentId } : {}),
        ...(query.shortReference
          ? { shortReference: shortReferenceKey(query.shortReference) ?? query.shortReference }
          : {}),
        ...(query.last4 ? { last4: query.last4 } : {}),
        ...(query.operatorId ? { operatorId: query.operatorId } : {}),
        ...(query.from ? { createdFrom: localMidnight(query.from) } : {}),
        ...(query.to ? { createdTo: localMidnight(query.to, 1) } : {}),
        limit: MAX_PAYMENT_RESULTS,
      });
    },
    async auditList(query) {
      const limit = query.limit ?? 100;
      const found = await audit.query(auditFilter(query), limit);
      const rows = await withActorNames(found, async (id) => (await directory.view(id))?.displayName);
      const last = rows.at(-1);
      return rows.length === limit && last ? { rows, nextBeforeId: last.id } : { rows };
    },
    async auditCsv(query) {
      const rows = await audit.query(auditFilter(query), 1_000_000);
      return { csv: auditCsv(rows), rows: rows.length };
    },
    auditVerify: () => audit.verify(),
    async endOfDay(date) {
      const window = searchWindow(date);
      return endOfDayReport({
        date,
        timeZone,
        payments: await journal.paymentsCreatedBetween(window.from, window.to),
        refunds: await journal.refundsCreatedBetween(window.from, window.to),
      });
    },
  };
  const updates: NonNullable<MainStackOptions['updates']> = options.updates ?? {
    status: () => ({ state: 'disabled' }),
    restart: () => undefined,
  };
  const stopUpdates = updates.onChange?.((status) => emit('updates:changed', status));

  const door = createDispatcher({
    handlers: createHandlers({
      engine,
      session,
      app: {
        environment: service.config.environment,
        version: options.version,
        deskId: identity.deskId,
        storage: storage.backend === 'postgres' ? 'center' : 'embedded',
        center: options.center === undefined ? undefined : describeCenter(options.center),
      },
      preferences: options.preferences ?? memoryPreferences(),
      messaging: messenger,
      refunds,
      desk,
      updates,
      accounts: {
        list: (actorId) => directory.list(actorId),
        create: (actorId, input) => directory.createOperator(actorId, input),
        update: async (actorId, { id, role, disabled }) => {
          let view = role === undefined ? undefined : await directory.setRole(actorId, id, role);
          if (disabled !== undefined) view = await directory.setDisabled(actorId, id, disabled);
          return (
            view ??
            (await directory.list(actorId)).find((o) => o.id === id.trim().toLowerCase()) ??
            directory.setDisabled(actorId, id, false)
          );
        },
        resetPassword: (actorId, id, password) => directory.resetPassword(actorId, id, password),
      },
      reservations: {
        search: (query) =>
          searchWithShortReference(reservationSource, query, (key) =>
            journal.searchPayments({ shortReference: key, limit: MAX_SEARCH_RESULTS }),
          ),
        get: (id) => reservationSource.get(id),
        importCsv: (csv) => {
          if (!(reservationSource instanceof BuiltinReservationStore)) {
            throw new ReservationError(
              'configuration',
              'Reservations come from the partner system here: there is nothing to import. Tell IT if this is wrong.',
            );
          }
          return reservationSource.importCsv(csv);
        },
      },
      follow: async (paymentId) => {
        await engine.follow(paymentId);
      },
      live: (windowId, watch) => live.watch(windowId, watch ?? { queue: false, reservations: [] }),
      protectCardData: options.protectCardData ?? (() => undefined),
      // The engine's clock: the charges the screen shows as "today" are those the door asks to have been shown.
      clock: { now: () => engine.now(), timeZone },
      // Whoever found them and whenever: the alert of each pending request this desk is to be told of.
      lateSuccesses: async () => {
        const alerts = await Promise.all((await requests.list('pending')).map(alertFor));
        return alerts.filter((a) => a !== undefined);
      },
    }),
    currentOperator: () => guard.current(),
    signedOutReason: () => guard.endedElsewhereError()?.toIpcError(),
    isTrustedSender: options.isTrustedSender,
    ...(options.onUnexpectedError ? { onUnexpectedError: options.onUnexpectedError } : {}),
    // Which calls are the operator at work, and what each records, is the contract's own rule per channel.
    onActivity: () => guard.touch(),
    onCall: (call) => recordCall(call, call.trace),
  });

  // The agent's payment and refund calls past the door and not yet answered: one may still be checking the reservation
  // before the engine begins it (and so before engine.busy() says so); no restart to update meanwhile.
  let moneyCalls = 0;

  return {
    // Each call's service request ids are given to it by the door (CallContext.trace) for its audit row: explicit, not an
    // AsyncLocalStorage, whose promise hooks slowed every await of the desk (bench:center).
    dispatch: (channel, sender, input) => {
      if (!movesMoney(channel)) return door(channel, sender, input);
      moneyCalls += 1;
      return door(channel, sender, input).finally(() => {
        moneyCalls -= 1;
      });
    },
    onEvent(listener) {
      const wrapped = listener as (event: EventName, payload: unknown) => void;
      listeners.add(wrapped);
      return () => listeners.delete(wrapped);
    },
    directory,
    audit,
    windowClosed: (windowId) => live.forget(windowId),
    paymentInProgress: () => moneyCalls > 0 || engine.busy(),
    windowRecovered: ({ reason, reloaded, exitCode }) => {
      record({
        actor: 'system',
        action: 'window.recovered',
        outcome: reloaded ? 'ok' : 'failed',
        details: { reason, reloaded, ...(exitCode === undefined ? {} : { exitCode }) },
      });
    },
    training: service.training,
    recover: async (progress) => {
      const report = await engine.recover(progress);
      // What recovery completed is shown on its reservation (the journal) and recorded as recovered here.
      for (const operationId of report.resent) {
        const op = await engine.operation(operationId);
        if (op?.state !== 'done' || op.resultId === undefined) continue;
        const payload = op.payload as { amount?: unknown; currency?: unknown };
        const money = typeof payload.amount === 'number' ? { amountCents: centsFromWire(payload.amount) } : {};
        record({
          actor: 'system',
          action: op.kind === 'refund' ? 'refund.recovered' : 'payment.recovered',
          outcome: 'ok',
          resource: op.kind === 'refund' ? (op.paymentId ?? op.resultId) : op.resultId,
          details: {
            operationId,
            reservationId: op.reservationId,
            operatorId: op.operatorId,
            ...money,
            ...(typeof payload.currency === 'string' ? { currency: payload.currency } : {}),
            ...(op.kind === 'refund' ? { refundId: op.resultId } : {}),
          },
        });
      }
      await refunds.reconcile();
      return report;
    },
    async close() {
      stopRequests();
      // The engine first, in this tick: a recovery under way sends nothing more once the close has begun.
      const engineClosed = engine.close();
      await live.close();
      await engineClosed;
      stopUpdates?.();
      await guard.signOut();
      await journal.close();
      await requests.close();
      await audit.close();
      await directory.close();
      await reservationSource.close();
      await messenger.close();
      await deliveries.close();
      await service.close();
      await storage.close();
    },
  };
}

/** An agent's call that may begin or change a payment or a refund (the contract's operator calls on those channels). */
function movesMoney(channel: string): boolean {
  if (!Object.hasOwn(CHANNELS, channel)) return false;
  const spec = CHANNELS[channel as keyof typeof CHANNELS];
  return spec.activity === 'operator' && (channel.startsWith('payments:') || channel.startsWith('refunds:'));
}
