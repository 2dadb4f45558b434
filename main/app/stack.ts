/** The main process without Electron: service, journal, operators, engine and the IPC door, over one data folder. */
import { deskIdentity, describeCenter, registerDesk } from '../center';
import { createCallRecorder, type AuditEntry } from '../audit';
import { createDispatcher, createHandlers } from '../ipc';
import { embeddedStorage, holdDeskFolder } from '../storage';
import { checkCost } from '../operators';
import { connectService, Journal } from '../payments';
import { openAudit, recordRecovered, recordResults, recordStartSettings, windowRecovered } from './audit';
import { memoryPreferences, noSecrets, updatesDisabled } from './defaults';
import { deskPort } from './desk';
import { createEvents } from './events';
import { createLive } from './live';
import { openMessaging } from './messaging';
import { accountsPort, createGuard, openDirectory, sessionPort } from './operators';
import type { MainStack, MainStackOptions } from './options';
import { countMoneyCalls, createEngine } from './payments';
import { openRefunds } from './refunds';
import { openReservations, reservationsPort } from './reservations';

export type { MainStack, MainStackOptions } from './options';

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
  // A cost the directory would refuse is refused before anything is opened.
  if (options.passwordCost !== undefined) checkCost(options.passwordCost);
  // Made at the first start, before any store: every record will name it.
  const identity = await deskIdentity(options.dataDir);
  const storage = options.storage ?? embeddedStorage(options.dataDir);
  // On the center, before any record is read or written: this computer is the only one using its desk id.
  if (storage.backend === 'postgres') await registerDesk(storage, identity, options.dataDir);
  const service = await (options.connect ?? connectService)(
    options.service ?? { environment: 'training' },
    options.secrets ?? noSecrets,
  );
  const environment = service.config.environment;
  const journal = await Journal.open(storage, identity);
  const directory = await openDirectory(storage, identity, options.passwordCost);
  const audit = await openAudit(storage, identity, options);
  const record = (entry: AuditEntry): void => audit.record(entry);
  const reservationSource = await openReservations(storage, identity, environment === 'training', options);
  const { emit, onEvent } = createEvents();
  const messaging = await openMessaging(storage, identity, environment, options, emit);
  // The engine and the refunds below are made before the feed or a lock reads them.
  const live = createLive(
    storage,
    identity.deskId,
    {
      readPayment: (paymentId) => engine.stored(paymentId),
      readRequest: (requestId) => refunds.readRequest(requestId),
      readOutcome: (requestId) => refunds.readOutcome(requestId),
    },
    emit,
    options,
  );
  const guard = createGuard(directory, options, record, emit, () => live.forget());
  // The refund desk is made before any refund is sent again (recovery runs after the stack is built).
  const engine = createEngine(
    service,
    journal,
    options,
    async (op) => refunds.desk.mayResend(op, await directory.view(op.operatorId)),
    emit,
  );
  recordResults(engine, audit);
  await recordStartSettings(audit, options, record);

  const timeZone = options.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const refunds = await openRefunds({
    storage,
    identity,
    engine,
    journal,
    directory,
    reservationSource,
    record,
    emit,
    timeZone,
    options,
  });
  // The handler has just read the request: its payment is known without asking the store again.
  const recordCall = createCallRecorder({
    record,
    lookup: { paymentOfRequest: (requestId) => refunds.requests.paymentOfKnown(requestId) },
  });
  const updates = options.updates ?? updatesDisabled;
  const stopUpdates = updates.onChange?.((status) => emit('updates:changed', status));

  const door = createDispatcher({
    handlers: createHandlers({
      engine,
      session: sessionPort(guard, directory),
      app: {
        environment,
        version: options.version,
        deskId: identity.deskId,
        storage: storage.backend === 'postgres' ? 'center' : 'embedded',
        center: options.center === undefined ? undefined : describeCenter(options.center),
      },
      preferences: options.preferences ?? memoryPreferences(),
      messaging: messaging.messenger,
      refunds: refunds.desk,
      desk: deskPort({ engine, journal, audit, directory, reservationSource, timeZone }),
      updates,
      accounts: accountsPort(directory),
      reservations: reservationsPort(reservationSource, journal),
      follow: async (paymentId) => {
        await engine.follow(paymentId);
      },
      live: (windowId, watch) => live.watch(windowId, watch ?? { queue: false, reservations: [] }),
      protectCardData: options.protectCardData ?? (() => undefined),
      // The engine's clock: the charges the screen shows as "today" are those the door asks to have been shown.
      clock: { now: () => engine.now(), timeZone },
      lateSuccesses: () => refunds.lateSuccesses(),
    }),
    currentOperator: () => guard.current(),
    signedOutReason: () => guard.endedElsewhereError()?.toIpcError(),
    isTrustedSender: options.isTrustedSender,
    ...(options.onUnexpectedError ? { onUnexpectedError: options.onUnexpectedError } : {}),
    // Which calls are the operator at work, and what each records, is the contract's own rule per channel.
    onActivity: () => guard.touch(),
    onCall: (call) => recordCall(call, call.trace),
  });
  const money = countMoneyCalls(door);

  return {
    dispatch: money.dispatch,
    onEvent,
    directory,
    audit,
    windowClosed: (windowId) => live.forget(windowId),
    paymentInProgress: () => money.inFlight() > 0 || engine.busy(),
    windowRecovered: windowRecovered(record),
    training: service.training,
    recover: async (progress) => {
      const report = await engine.recover(progress);
      await recordRecovered(engine, report, record);
      await refunds.desk.reconcile();
      return report;
    },
    async close() {
      refunds.stop();
      // The engine first, in this tick: a recovery under way sends nothing more once the close has begun.
      const engineClosed = engine.close();
      await live.close();
      await engineClosed;
      stopUpdates?.();
      await guard.signOut();
      await journal.close();
      await refunds.requests.close();
      await audit.close();
      await directory.close();
      await reservationSource.close();
      await messaging.close();
      await service.close();
      await storage.close();
    },
  };
}
