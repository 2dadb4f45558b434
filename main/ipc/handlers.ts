/** The contract's channels, answered by the engine facade and the session: the operator always comes from main. */
import type { Environment } from '../../shared/environment';
import type { Language } from '../../shared/language';
import type {
  ChannelAvailability,
  DeliveryRecordView,
  DeliveryResult,
  OutboxMessageView,
  PlayCardholderResult,
  SendLinkOutcome,
  SendLinkRequest,
  SendReceiptRequest,
} from '../../shared/messaging';
import type { CsvImportResult, ReservationView } from '../../shared/reservations';
import type {
  AuditQuery,
  AuditRowView,
  AuditVerification,
  EndOfDayReport,
  PaymentQuery,
  RefundLimitView,
  RefundRequestView,
} from '../../shared/desk';
import { centsForDisplay, shortReference } from '../../shared/payments';
import type { LiveState, Output, ParsedInput, PaymentSummary, PaymentView, UpdateStatus } from '../../shared/ipc';
import type { RecoveredNoticeView, RefundQueueItem } from '../../shared/ipc/views';
import type { Role } from '../../shared/operators';
import type { ReceiptContext, SendContext } from '../messaging';
import type { OperatorView } from '../../shared/operators';
import { reservationBalance, type PaymentEngine, type RecoveredNotice } from '../payments';
// eslint-disable-next-line import-x/no-restricted-paths -- main/payments/index.ts must export the charge policy; then import '../payments'.
import { checkAmountUpdate, checkNewCharge, type ChargePolicyDeps } from '../payments/charge-policy';
import type { CallContext, Handlers } from './dispatch';
import { livePayments } from './live';

/** The desk's language: the user's settings file in the app, memory in tests. */
export interface PreferencesPort {
  language(): { language: Language; locked: boolean };
  setLanguage(language: Language): Promise<Language>;
}

/** Reservations as the workspace reads them (main/reservations provides it). */
export interface ReservationsPort {
  search(query: { text: string }): Promise<ReservationView[]>;
  get(confirmationNumber: string): Promise<ReservationView | undefined>;
  importCsv(csv: string): Promise<CsvImportResult> | CsvImportResult;
}

/** The 3DS link's delivery (main/messaging provides it); the context is filled by main, never by the renderer. */
export interface MessagingPort {
  /** The first status, or a request to confirm a quick re-send; later statuses go out as `messaging:delivery` events. */
  send(request: SendLinkRequest, ctx: SendContext): Promise<SendLinkOutcome>;
  /** A succeeded payment's receipt to the guest; its first status. */
  sendReceipt(request: SendReceiptRequest, ctx: ReceiptContext): Promise<DeliveryResult>;
  channels(): ChannelAvailability[];
  history(paymentId: string): Promise<DeliveryRecordView[]>;
  outbox(): OutboxMessageView[];
  playCardholder(messageId: string, answer: 'approve' | 'decline'): Promise<PlayCardholderResult>;
}

/**
 * Refunds and their approval (main/refunds provides it); the operator is always main's own knowledge. A refund, a
 * request and an override take their channel's input as the contract parsed it.
 */
export interface RefundsPort {
  refund(input: ParsedInput<'refunds:create'>, by: OperatorView, trace?: string[]): Promise<PaymentView>;
  request(input: ParsedInput<'refunds:request'>, by: OperatorView, trace?: string[]): Promise<RefundRequestView>;
  override(
    input: ParsedInput<'refunds:override'>,
    caller: OperatorView,
    trace?: string[],
  ): Promise<{ request: RefundRequestView; payment: PaymentView }>;
  /**
   * `acknowledgedRefundIds`: the payment's refunds the approver was shown (refused while a refund made is not among them);
   * `expectedAmountCents`: the amount the approver confirmed (refused when the refund would be another now).
   */
  approve(
    requestId: string,
    by: OperatorView,
    trace: string[] | undefined,
    acknowledgedRefundIds: readonly string[],
    expectedAmountCents?: number,
  ): Promise<{ request: RefundRequestView; payment: PaymentView }>;
  reject(requestId: string, note: string, by: OperatorView): Promise<RefundRequestView>;
  /** The center's queue: every desk's requests, with what approving each refunds, its payment, guest and people by name. */
  queue(status: 'pending' | 'all'): Promise<RefundQueueItem[]>;
  requestsFor(paymentId: string): Promise<RefundRequestView[]>;
  limits(): RefundLimitView[];
}

/** The supervisor desk's reading: payments from the journal, the audit trail, the end-of-day report. */
export interface DeskPort {
  searchPayments(query: PaymentQuery): Promise<PaymentSummary[]>;
  auditList(query: AuditQuery): Promise<{ rows: AuditRowView[]; nextBeforeId?: number }>;
  auditCsv(query: Omit<AuditQuery, 'beforeId' | 'limit'>): Promise<{ csv: string; rows: number }>;
  auditVerify(): Promise<AuditVerification>;
  endOfDay(date: string): Promise<EndOfDayReport>;
}

/** Operator accounts, managed by admins (the directory checks the actor again). */
export interface AccountsPort {
  list(actorId: string): Promise<OperatorView[]>;
  create(
    actorId: string,
    input: { id: string; displayName: string; role: Role; password: string },
  ): Promise<OperatorView>;
  update(actorId: string, input: { id: string; role?: Role; disabled?: boolean }): Promise<OperatorView>;
  resetPassword(actorId: string, id: string, password: string): Promise<void>;
}

/** The auto-update (main/updates provides it in the app; "disabled" elsewhere). */
export interface UpdatesPort {
  status(): UpdateStatus;
  /** Quits and installs a ready update; refused while a payment is in progress. */
  restart(): Promise<void> | void;
}

/** What the handlers need of sign-in (the operators capability provides it). */
export interface SessionPort {
  status(): Promise<{ operator: OperatorView | undefined; locked: boolean; needsFirstAdmin: boolean }>;
  /** `endSessionElsewhere`: the operator chose to end their session open at another desk of the center. */
  signIn(id: string, password: string, options?: { endSessionElsewhere?: boolean }): Promise<OperatorView>;
  /** Refused once any operator exists; signs the new admin in. */
  createFirstAdmin(input: { id: string; displayName: string; password: string }): Promise<OperatorView>;
  signOut(): Promise<void>;
  lock(): void;
  /** Ends a locked session (the lock screen's hand-over); the operator whose session ended, if any. */
  endLocked(): Promise<OperatorView | undefined>;
  /** Activity in the window: postpones the idle lock. */
  touch(): void;
}

export interface HandlerDeps {
  engine: PaymentEngine;
  session: SessionPort;
  app: {
    environment: Environment;
    version: string;
    deskId: string;
    storage: 'embedded' | 'center';
    center?: string | undefined;
  };
  preferences: PreferencesPort;
  reservations: ReservationsPort;
  messaging: MessagingPort;
  refunds: RefundsPort;
  desk: DeskPort;
  accounts: AccountsPort;
  updates: UpdatesPort;
  /** Main follows a payment for the windows; its changes go out as `payments:changed`. */
  follow: (paymentId: string) => Promise<void> | void;
  /** What a window watches of the others' work (main/live); undefined: nothing any more. Answers the feed's state. */
  live: (webContentsId: number, watch: { queue: boolean; reservations: readonly string[] } | undefined) => LiveState;
  /** Content protection of the calling window while card data is on screen (a no-op outside Electron). */
  protectCardData: (webContentsId: number, active: boolean) => void;
  /** The desk's clock and time zone ("charged today" is the desk's calendar day); the system's when not given. */
  clock?: { now(): number; timeZone: string };
  /** The late successes of payments abandoned at this desk whose refund request is pending (none when not given). */
  lateSuccesses?: () => Promise<Output<'payments:lateSuccesses'>['alerts']>;
}

/** A notice of what recover() completed, as the screens show it (times as ISO instants). */
function noticeView(notice: RecoveredNotice): RecoveredNoticeView {
  return {
    id: notice.id,
    kind: notice.kind,
    operatorId: notice.operatorId,
    reservationId: notice.reservationId,
    paymentId: notice.paymentId,
    ...(notice.refundId === undefined ? {} : { refundId: notice.refundId }),
    ...(notice.amountCents === undefined ? {} : { amountCents: notice.amountCents }),
    currency: notice.currency,
    status: notice.status,
    takenAt: new Date(notice.takenAt).toISOString(),
    completedAt: new Date(notice.completedAt).toISOString(),
  };
}

/** The signed-in operator; the dispatcher has already refused calls without one. */
function signedIn(ctx: CallContext): OperatorView {
  if (!ctx.operator) throw new Error('handler reached without a signed-in operator');
  return ctx.operator;
}
const operatorOf = (ctx: CallContext): string => signedIn(ctx).id;
const done = { ok: true as const };

export function createHandlers({
  engine,
  session,
  app,
  preferences,
  reservations,
  messaging,
  refunds,
  desk,
  accounts,
  updates,
  follow,
  live,
  protectCardData,
  clock,
  lateSuccesses,
}: HandlerDeps): Handlers {
  const now = clock ? () => clock.now() : Date.now;
  const timeZone = clock?.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  /**
   * A payment as a message to the guest describes it, read from main's own records (the service's word, read now): the
   * renderer names only the payment. "Hotel" reads the same in both languages, for a reservation gone from the source.
   */
  async function paymentForMessage(paymentId: string, trace: string[]) {
    const payment = await engine.getPayment(paymentId, trace);
    const method = await engine.methodOf(payment.reservationId, payment.methodId);
    const reservation = await reservations.get(payment.reservationId).catch(() => undefined);
    const details = {
      id: payment.id,
      // Major units, for the message's Intl currency formatting only.
      amount: centsForDisplay(payment.amountCents),
      currency: payment.currency,
      status: payment.status,
      ...(method ? { brand: method.brand, last4: method.last4 } : {}),
    };
    return { payment, details, reservation, hotelName: reservation?.hotelName.slice(0, 100) ?? 'Hotel' };
  }
  /** What a new charge is checked against: the reservation and its balance as `reservations:overview` computes them. */
  const chargePolicy: ChargePolicyDeps = {
    reservation: (reservationId) => reservations.get(reservationId),
    journal: (reservationId) => engine.listReservation(reservationId),
    payment: (paymentId) => engine.stored(paymentId),
    operationState: (operationId) => engine.operationState(operationId),
    clock: () => ({ now: now(), timeZone }),
  };
  return {
    'app:info': () => {
      const { language, locked } = preferences.language();
      const where = app.center === undefined ? {} : { center: app.center };
      return {
        environment: app.environment,
        version: app.version,
        language,
        languageLocked: locked,
        deskId: app.deskId,
        storage: app.storage,
        ...where,
      };
    },
    // The stack serves: the start is over (main/app/startup.ts answers while it is not).
    'app:startup': () => ({ phase: 'ready' as const, language: preferences.language().language }),
    'app:setLanguage': async ({ language }) => ({ language: await preferences.setLanguage(language) }),
    'session:status': async () => {
      const { operator, locked, needsFirstAdmin } = await session.status();
      return operator === undefined ? { locked, needsFirstAdmin } : { operator, locked, needsFirstAdmin };
    },
    'session:signIn': ({ id, password, endSessionElsewhere }) =>
      session.signIn(id, password, endSessionElsewhere === true ? { endSessionElsewhere } : {}),
    'session:createFirstAdmin': (input) => session.createFirstAdmin(input),
    'session:signOut': async () => {
      await session.signOut();
      return { ok: true as const };
    },
    'session:endLocked': async () => {
      const ended = await session.endLocked();
      return ended === undefined ? { ok: true as const } : { ok: true as const, ended: ended.id };
    },
    'window:protectCardData': ({ active }, ctx) => {
      protectCardData(ctx.senderId, active);
      return { ok: true as const };
    },
    'reservations:search': async (query) => ({ reservations: await reservations.search(query) }),
    'reservations:get': async ({ reservationId }) => {
      const reservation = await reservations.get(reservationId);
      return reservation === undefined ? {} : { reservation };
    },
    'reservations:importCsv': ({ csv }) => reservations.importCsv(csv),
    'reservations:overview': async ({ reservationId }) => {
      const listed = await engine.listReservation(reservationId);
      const cards = new Map((await engine.cardsOf(reservationId)).map((card) => [card.id, card]));
      // Each payment's link deliveries, whichever desk sent them.
      const histories = new Map(
        await Promise.all(
          listed.payments.map(async (payment) => [payment.id, await messaging.history(payment.id)] as const),
        ),
      );
      const overview = {
        ...listed,
        inProgress: livePayments(
          listed.payments,
          (methodId) => cards.get(methodId),
          (paymentId) => histories.get(paymentId) ?? [],
        ),
        recovered: (await engine.recovered({ reservationId })).map(noticeView),
      };
      // The balance needs the source's: without it (gone from the source, the partner's system down) none is offered.
      const reservation = await reservations.get(reservationId).catch(() => undefined);
      if (reservation === undefined) return overview;
      return { ...overview, balance: reservationBalance(reservation, overview, { now: now(), timeZone }) };
    },
    'payments:tokenize': (input, ctx) => engine.tokenize({ ...input, operatorId: operatorOf(ctx) }, ctx.trace),
    'payments:pay': async ({ overBalance, ...input }, ctx) => {
      // The currency and the amount against what is owed, before the engine begins anything.
      await checkNewCharge(chargePolicy, { ...input, overBalance });
      return engine.pay({ ...input, operatorId: operatorOf(ctx) }, ctx.trace);
    },
    'payments:checkAgain': ({ operationId }, ctx) => engine.checkAgain(operationId, ctx.trace),
    'payments:resolveAttempt': (input, ctx) =>
      engine.resolveAttempt({ ...input, operatorId: operatorOf(ctx) }, ctx.trace),
    'payments:updateAmount': async ({ overBalance, ...input }, ctx) => {
      await checkAmountUpdate(chargePolicy, { ...input, overBalance });
      return engine.updateAmount({ ...input, operatorId: operatorOf(ctx) }, ctx.trace);
    },
    'payments:confirm': (input, ctx) => engine.confirm({ ...input, operatorId: operatorOf(ctx) }, ctx.trace),
    'payments:abandon': ({ paymentId }, ctx) => engine.abandon({ paymentId, operatorId: operatorOf(ctx) }, ctx.trace),
    'payments:recovered': async (_input, ctx) => ({
      notices: (await engine.recovered({ operatorId: operatorOf(ctx) })).map(noticeView),
    }),
    'payments:lateSuccesses': async () => ({ alerts: (await lateSuccesses?.()) ?? [] }),
    'payments:acknowledgeRecovered': async ({ noticeIds }, ctx) => ({
      acknowledged: await engine.acknowledgeRecovered(noticeIds, operatorOf(ctx)),
    }),
    'payments:get': ({ paymentId }, ctx) => engine.getPayment(paymentId, ctx.trace),
    // Nobody signed in (the desk locked, the session ended): the window watches nothing.
    'live:watch': (watch, ctx) => ({ state: live(ctx.senderId, ctx.operator === undefined ? undefined : watch) }),
    'payments:watch': async ({ paymentId }) => {
      await follow(paymentId);
      return { ok: true as const };
    },
    'messaging:sendLink': async (request, ctx) => {
      // Everything about the payment comes from main's own records: the renderer names only the payment.
      const { payment, details, hotelName } = await paymentForMessage(request.paymentId, ctx.trace);
      // The 3DS link stays in main (it never crosses to the renderer).
      const link = await engine.challengeLink(payment.id);
      const outcome = await messaging.send(request, {
        operatorId: operatorOf(ctx),
        hotelName,
        payment: {
          ...details,
          ...(link === undefined ? {} : { nextActionUrl: link }),
          // The link lives 15 minutes from when the payment began waiting for the cardholder (its last update).
          waitingSince: payment.updatedAt ?? payment.createdAt,
        },
      });
      if (outcome.status !== 'failed' && outcome.status !== 'confirm_resend') engine.linkSent(payment.id);
      return outcome;
    },
    'messaging:sendReceipt': async (request, ctx) => {
      // Amount, card and reference from main's own records (the service's word, read now): the renderer names only the payment.
      const { payment, details, hotelName, reservation } = await paymentForMessage(request.paymentId, ctx.trace);
      return messaging.sendReceipt(request, {
        operatorId: operatorOf(ctx),
        hotelName,
        guestLanguage: reservation?.guestLanguage ?? 'en-US',
        payment: { ...details, reference: shortReference(payment.id) },
      });
    },
    'messaging:channels': () => ({ channels: messaging.channels() }),
    'messaging:history': async ({ paymentId }) => ({ deliveries: await messaging.history(paymentId) }),
    'messaging:outbox': () => ({ messages: messaging.outbox() }),
    'messaging:playCardholder': ({ messageId, answer }) => messaging.playCardholder(messageId, answer),
    'refunds:create': (input, ctx) => refunds.refund(input, signedIn(ctx), ctx.trace),
    'refunds:request': (input, ctx) => refunds.request(input, signedIn(ctx), ctx.trace),
    'refunds:override': (input, ctx) => refunds.override(input, signedIn(ctx), ctx.trace),
    'refunds:queue': async ({ status }) => ({ requests: await refunds.queue(status ?? 'pending') }),
    'refunds:requestsFor': async ({ paymentId }) => ({ requests: await refunds.requestsFor(paymentId) }),
    'refunds:approve': ({ requestId, acknowledgedRefundIds, expectedAmountCents }, ctx) =>
      refunds.approve(requestId, signedIn(ctx), ctx.trace, acknowledgedRefundIds, expectedAmountCents),
    'refunds:reject': ({ requestId, note }, ctx) => refunds.reject(requestId, note, signedIn(ctx)),
    'refunds:limits': () => ({ limits: refunds.limits() }),
    'payments:search': async (query) => ({ payments: await desk.searchPayments(query) }),
    'audit:list': (query) => desk.auditList(query),
    'audit:exportCsv': (query) => desk.auditCsv(query),
    'audit:verify': () => desk.auditVerify(),
    'reports:endOfDay': ({ date }) => desk.endOfDay(date),
    'session:activity': () => {
      session.touch();
      return done;
    },
    'session:lock': () => {
      session.lock();
      return done;
    },
    'operators:list': async (_input, ctx) => ({ operators: await accounts.list(operatorOf(ctx)) }),
    'operators:create': (input, ctx) => accounts.create(operatorOf(ctx), input),
    'operators:update': (input, ctx) => accounts.update(operatorOf(ctx), input),
    'operators:resetPassword': async ({ id, password }, ctx) => {
      await accounts.resetPassword(operatorOf(ctx), id, password);
      return done;
    },
    'updates:status': () => updates.status(),
    'updates:restart': async () => {
      await updates.restart();
      return done;
    },
  };
}
