// The one IPC contract: every channel with its input and output schemas and the roles allowed to call it, and every event main sends.
import { z } from 'zod';
import { Environment } from '../environment';
import { Language } from '../language';
import { DisplayName, NewOperatorId, OperatorId, OperatorView, Password, Role } from '../operators';
import { CardInput, Cents, Currency, MethodId, PaymentId, PaymentNote, RefundReason, ReservationId } from '../payments';
import { OverBalance } from '../payments/charge';
import {
  ChannelAvailability,
  DeliveryRecordView,
  DeliveryResult,
  OutboxMessageView,
  PlayCardholderRequest,
  PlayCardholderResult,
  SendLinkOutcome,
  SendLinkRequest,
  SendReceiptRequest,
} from '../messaging';
import { CsvImportResult, GuestEmail, IsoDate, ReservationQuery, ReservationView } from '../reservations';
import {
  AuditQuery,
  AuditRowView,
  AuditVerification,
  EndOfDayReport,
  PaymentQuery,
  RefundLimitView,
  RefundNote,
  RefundRequestId,
  RefundRequestView,
} from '../desk';
import {
  ChargeTodayView,
  LivePaymentView,
  MethodView,
  PaymentCheck,
  PaymentSummary,
  PaymentView,
  PendingPaymentView,
  RecoveredNoticeView,
  RefundQueueItem,
  ReservationBalance,
  StartupStatus,
} from './views';

/** Who may call a channel: anyone (before sign-in), or the signed-in roles listed. */
export type Access = 'public' | readonly Role[];

/**
 * How a call counts for the idle lock (PCI DSS 8.2.8). `operator`: the operator acting (a click, a submit); it
 * postpones the lock, but only once it passed validation and the role check. `background`: a call a screen makes by
 * itself (polling, refreshing after an event, the card form's protection switch); it never postpones the lock. Every
 * read a screen shows is `background`, whatever made it ask (opening, a push, a timer, a refetch, a filter typed): the
 * operator's own typing and pointing reach main as `session:activity`.
 */
export type Activity = 'operator' | 'background';

/** What main knows that a refused call's answer cannot say. */
export interface AuditLookup {
  /** The payment a refund request is for. */
  paymentOfRequest(requestId: string): string | undefined;
}

/**
 * What a call becomes in the audit trail: who, what, on what, with what outcome. The functions get the input as
 * the contract parsed it (a call refused before that is recorded as `call.refused`, without its input) and main's
 * answer when there is one. Only ids, amounts, statuses and choices: never card data, a secret or a token.
 */
export interface AuditRule<I, O> {
  /** `domain.verb`: session.signIn, payment.create, refund.approve… */
  action: string;
  /** The operator, for calls made before sign-in (the id typed). */
  actor?(input: I): string;
  resource?(input: I, output: O | undefined, lookup: AuditLookup): string | undefined;
  details?(input: I, output: O | undefined): Record<string, unknown>;
}

/** Every rule of a channel, in one place: leaving one out does not compile. */
export interface ChannelSpec<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  /** Strict: unknown keys are refused. */
  input: I;
  /** Parsed in main before anything crosses: whatever the schema does not name is dropped. */
  output: O;
  access: Access;
  activity: Activity;
  /** `none`: a read (search, list, status) or a switch the trail does not record. */
  audit: AuditRule<z.output<I>, z.output<O>> | 'none';
}

/** A channel of the contract, its audit rule typed by its own input and output. */
const channel = <I extends z.ZodType, O extends z.ZodType>(spec: ChannelSpec<I, O>): ChannelSpec<I, O> => spec;

const defined = (record: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined));
const lower = (id: string): string => id.trim().toLowerCase();
/** A refund request's payment: from the answer, or (a refusal has none) from main's records. */
const requestPayment = (
  input: { requestId: string },
  output: { request: { paymentId: string } } | undefined,
  lookup: AuditLookup,
): string | undefined => output?.request.paymentId ?? lookup.paymentOfRequest(input.requestId);

const STAFF = ['agent', 'supervisor', 'admin'] as const satisfies readonly Role[];
const TAKES_PAYMENTS = ['agent', 'supervisor'] as const satisfies readonly Role[];
const REFUNDS = ['supervisor', 'admin'] as const satisfies readonly Role[];
const ADMIN = ['admin'] as const satisfies readonly Role[];

const none = z.strictObject({});

/**
 * An abandoned payment that succeeded after all (its cardholder approved the old 3-D Secure link; the service has no
 * cancel), for the desk that abandoned it. Its refund (`duplicate` of `replacementPaymentId`, the reservation's payment
 * after it) waits in the supervisors' queue as request `requestId`.
 */
const LateSuccessView = z.object({
  paymentId: PaymentId,
  reservationId: ReservationId,
  amountCents: Cents,
  currency: Currency,
  abandonedBy: OperatorId.optional(),
  replacementPaymentId: PaymentId.optional(),
  requestId: RefundRequestId,
});
/**
 * What became of a refund request, for the desk where it was asked (its agent's windows show it to that agent):
 * `approved` (the refund is on its way), `made` (it succeeded), `rejected` (with the supervisor's note) or `failed` (the
 * service refused it). `amountCents`: the refund's, or what was asked; absent for "all that was left" not yet made.
 */
const RefundOutcomeView = z.object({
  requestId: RefundRequestId,
  paymentId: PaymentId,
  reservationId: ReservationId,
  outcome: z.enum(['approved', 'made', 'rejected', 'failed']),
  amountCents: Cents.optional(),
  currency: Currency,
  reason: RefundReason,
  requestedBy: OperatorId,
  decidedBy: OperatorId.optional(),
  decisionNote: z.string().optional(),
});
export type RefundOutcomeView = z.infer<typeof RefundOutcomeView>;
const done = z.object({ ok: z.literal(true) });
/** Where the auto-update stands; `blockedBy` says why a ready update waits (a payment in progress). */
export const UpdateStatus = z.object({
  state: z.enum(['disabled', 'idle', 'checking', 'downloading', 'ready', 'error']),
  version: z.string().optional(),
  channel: z.enum(['stable', 'pilot']).optional(),
  blockedBy: z.enum(['payment_in_progress']).optional(),
  /** A failure in words, for the agent. */
  message: z.string().optional(),
});
export type UpdateStatus = z.infer<typeof UpdateStatus>;

/**
 * The center's live feed: `local` (the embedded files: every change is this desk's own), `connecting` (opening its
 * connection), `live`, or `reconnecting` (lost: what windows show may be out of date until `live:resync`).
 */
export const LiveState = z.enum(['local', 'connecting', 'live', 'reconnecting']);
export type LiveState = z.infer<typeof LiveState>;

/** One id per logical operation, made by the renderer when the agent starts it: retries reuse it. */
const OperationId = z.uuid({ error: 'The operation id must be a UUID.' });
/**
 * The charges of today the screen showed before a new charge (`reservations:overview` `chargedToday`), possibly none:
 * main refuses the charge (`charges_not_acknowledged`) while the reservation has one taken today, or one completed after
 * a restart whose notice is not acknowledged yet (whatever its day), that is not named here.
 */
const AcknowledgedPaymentIds = z.array(PaymentId).max(100);
/** The refunds of the payment the screen showed before a new refund, possibly none: main refuses it (`refunds_not_acknowledged`) otherwise. */
const AcknowledgedRefundIds = z.array(z.string().min(1).max(64)).max(100);
/**
 * The amount of the refund the operator confirmed, as the screen named it ("Refund $899.99 MXN"): main refuses the refund
 * (`refund_amount_changed`, nothing sent) when what it would send now is another amount (a refund of the payment made
 * meanwhile changed "all that is left"), and sends this amount, never "all that is left" unnamed. Every screen gives it.
 */
const ExpectedAmountCents = Cents;

export const CHANNELS = {
  /**
   * `deskId`: this desk's stable id (made at first start; every record names it). `storage`: where the desk's records are
   * kept, its own embedded files or the center's shared database (`center`: "host:port/database", never a password).
   */
  'app:info': channel({
    input: none,
    output: z.object({
      environment: Environment,
      version: z.string(),
      language: Language,
      languageLocked: z.boolean(),
      deskId: z.uuid(),
      storage: z.enum(['embedded', 'center']),
      center: z.string().optional(),
    }),
    access: 'public',
    activity: 'background',
    audit: 'none',
  }),
  /**
   * Where the desk's start stands (the window is shown before the center connection and the recovery of unanswered
   * operations): until `ready`, every other channel is refused as `starting`. Public: nobody is signed in yet.
   */
  'app:startup': channel({
    input: none,
    output: StartupStatus,
    access: 'public',
    activity: 'background',
    audit: 'none',
  }),
  /** The desk's language, kept in the user's settings (refused when IT locked it). Public: it can be changed at sign-in. */
  'app:setLanguage': channel({
    input: z.strictObject({ language: Language }),
    output: z.object({ language: Language }),
    access: 'public',
    activity: 'operator',
    audit: { action: 'settings.change', resource: () => 'language', details: (input) => ({ value: input.language }) },
  }),
  'session:status': channel({
    input: none,
    output: z.object({ operator: OperatorView.optional(), locked: z.boolean(), needsFirstAdmin: z.boolean() }),
    access: 'public',
    activity: 'background',
    audit: 'none',
  }),
  /** Background: a refused sign-in must not keep a desk awake; an accepted one starts (or unlocks) the session itself. */
  /**
   * `endSessionElsewhere`: the operator was told their session is open at another desk of the center
   * (`session_elsewhere`) and chose to end it and sign in here; that desk finds it ended at its next call.
   */
  'session:signIn': channel({
    input: z.strictObject({
      id: OperatorId,
      password: z.string().min(1, 'Enter your password.').max(200),
      endSessionElsewhere: z.boolean().optional(),
    }),
    output: OperatorView,
    access: 'public',
    activity: 'background',
    audit: {
      action: 'session.signIn',
      actor: (input) => lower(input.id),
      resource: (input) => lower(input.id),
      details: (input) => (input.endSessionElsewhere === true ? { endSessionElsewhere: true } : {}),
    },
  }),
  /** First run only: the first account is an admin, who then creates the others. */
  'session:createFirstAdmin': channel({
    input: z.strictObject({ id: NewOperatorId, displayName: DisplayName, password: Password }),
    output: OperatorView,
    access: 'public',
    activity: 'background',
    audit: {
      action: 'account.create',
      actor: (input) => lower(input.id),
      resource: (input) => lower(input.id),
      details: () => ({ role: 'admin', firstAdmin: true }),
    },
  }),
  'session:signOut': channel({
    input: none,
    output: done,
    access: STAFF,
    activity: 'operator',
    audit: { action: 'session.signOut' },
  }),
  /**
   * The card form tells main while card data is on screen: main turns the window's content protection on (what each
   * OS does with it, and what it does not stop, is in docs/security.md) and off again when the form is
   * gone. Public: the form is
   * also emptied by the idle lock, after which the operator is no longer signed in.
   */
  'window:protectCardData': channel({
    input: z.strictObject({ active: z.boolean() }),
    output: done,
    access: 'public',
    activity: 'background',
    audit: 'none',
  }),
  /** By confirmation number, guest name, phone or e-mail: at most 20, best matches first. */
  'reservations:search': channel({
    input: ReservationQuery,
    output: z.object({ reservations: z.array(ReservationView) }),
    access: STAFF,
    activity: 'background',
    audit: 'none',
  }),
  'reservations:get': channel({
    input: z.strictObject({ reservationId: ReservationId }),
    output: z.object({ reservation: ReservationView.optional() }),
    access: STAFF,
    activity: 'background',
    audit: 'none',
  }),
  /** An admin loads the hotel's reservations from a CSV export into the built-in store: all rows or none. */
  'reservations:importCsv': channel({
    input: z.strictObject({
      csv: z.string().min(1, 'The file is empty.').max(5_242_880, 'The file is larger than 5 MB.'),
    }),
    output: CsvImportResult,
    access: ['admin'],
    activity: 'operator',
    audit: {
      action: 'reservations.import',
      details: (_input, output) =>
        output === undefined
          ? {}
          : output.ok
            ? { created: output.created, updated: output.updated }
            : { rejected: true, errors: output.errors.length + output.moreErrors },
    },
  }),
  /**
   * The reservation's payments and saved cards, its payment attempts still unanswered (which block a new payment), its
   * payments in progress not abandoned (`inProgress`: the live panel, and no new charge form until each is finished or
   * abandoned), and what it still owes (`balance`, computed by main; absent when the reservation's source lacks it).
   * `chargedToday`: the charges a new charge must name as shown (`payments:pay` `acknowledgedPaymentIds`). `recovered`:
   * what main completed after a restart on this reservation, not yet acknowledged by the operator who began it.
   */
  'reservations:overview': channel({
    input: z.strictObject({ reservationId: ReservationId }),
    output: z.object({
      payments: z.array(PaymentView),
      methods: z.array(MethodView),
      pendingPayments: z.array(PendingPaymentView),
      inProgress: z.array(LivePaymentView).optional(),
      balance: ReservationBalance.optional(),
      chargedToday: z.array(ChargeTodayView).optional(),
      recovered: z.array(RecoveredNoticeView).optional(),
    }),
    access: STAFF,
    activity: 'background',
    audit: 'none',
  }),
  'payments:tokenize': channel({
    input: z.strictObject({
      operationId: OperationId,
      card: CardInput,
      guestEmail: GuestEmail.optional(),
      reservationId: ReservationId,
    }),
    output: MethodView,
    access: TAKES_PAYMENTS,
    activity: 'operator',
    audit: {
      action: 'card.save',
      resource: (_input, output) => output?.id,
      details: (input, output) =>
        defined({
          reservationId: input.reservationId,
          brand: output?.brand,
          last4: output?.last4,
          operationId: input.operationId,
        }),
    },
  }),
  'payments:pay': channel({
    input: z.strictObject({
      operationId: OperationId,
      methodId: MethodId,
      /** In cents: 12000 is 120.00. */
      amountCents: Cents,
      /** The reservation's currency: main refuses another (`currency_not_reservation`). */
      currency: Currency,
      reservationId: ReservationId,
      installments: z.boolean().optional(),
      note: PaymentNote.optional(),
      /**
       * The guest agrees to keep this card for later charges (the agent ticked it). Without it the card serves this
       * payment only: it is never offered as a saved card. A declined card is never offered either way.
       */
      keepCard: z.boolean().optional(),
      acknowledgedPaymentIds: AcknowledgedPaymentIds,
      /**
       * The agent confirmed a charge above what the reservation still owes: the owed amount the screen showed and the
       * amount. Main refuses a charge above what it computes as owed now (`over_balance_not_confirmed`) unless this names
       * both as they are. A retry of a charge already begun is that charge: it is not checked again.
       */
      overBalance: OverBalance.optional(),
    }),
    output: PaymentView,
    access: TAKES_PAYMENTS,
    activity: 'operator',
    audit: {
      action: 'payment.create',
      resource: (_input, output) => output?.id,
      details: (input, output) =>
        defined({
          reservationId: input.reservationId,
          amountCents: input.amountCents,
          currency: input.currency,
          installments: input.installments === true ? true : undefined,
          keepCard: input.keepCard === true ? true : undefined,
          methodId: input.keepCard === true ? input.methodId : undefined,
          status: output?.status,
          operationId: input.operationId,
          acknowledgedPaymentIds:
            input.acknowledgedPaymentIds.length > 0 ? input.acknowledgedPaymentIds.join(',') : undefined,
          overBalanceOwedCents: input.overBalance?.owedCents,
          overBalanceAmountCents: input.overBalance?.amountCents,
        }),
    },
  }),
  /**
   * "Check again" on a payment attempt whose answer never came: main sends it again with its own key and payload (or
   * reads the payment it made) and says what the service did. Never a new payment.
   */
  /**
   * A supervisor resolves a payment attempt never answered within the service's window, once they found out with the
   * service what it did: not charged (the reservation is free again), or charged as this payment (its id, which main
   * reads and checks against the attempt).
   */
  'payments:resolveAttempt': channel({
    input: z
      .strictObject({
        operationId: OperationId,
        outcome: z.enum(['not_charged', 'charged']),
        paymentId: PaymentId.optional(),
      })
      .refine((input) => (input.outcome === 'charged') === (input.paymentId !== undefined), {
        path: ['paymentId'],
        message: 'The payment id is needed when, and only when, it was charged.',
      }),
    output: z.object({ outcome: z.enum(['not_charged', 'charged']), paymentId: PaymentId.optional() }),
    access: REFUNDS,
    activity: 'operator',
    audit: {
      action: 'payment.reconcile',
      resource: (_input, output) => output?.paymentId,
      details: (input) => defined({ operationId: input.operationId, outcome: input.outcome }),
    },
  }),
  'payments:checkAgain': channel({
    input: z.strictObject({ operationId: OperationId }),
    output: PaymentCheck,
    access: TAKES_PAYMENTS,
    activity: 'operator',
    audit: {
      action: 'payment.check',
      resource: (_input, output) => (output?.state === 'answered' ? output.payment.id : undefined),
      details: (input, output) =>
        defined({
          operationId: input.operationId,
          state: output?.state,
          status: output?.state === 'answered' ? output.payment.status : undefined,
        }),
    },
  }),
  /**
   * An MSI payment's new amount. Above what the reservation owes besides this payment, `overBalance` names that owed amount
   * and the new amount as the screen showed them, or main refuses it (`over_balance_not_confirmed`).
   */
  'payments:updateAmount': channel({
    input: z.strictObject({ paymentId: PaymentId, amountCents: Cents, overBalance: OverBalance.optional() }),
    output: PaymentView,
    access: TAKES_PAYMENTS,
    activity: 'operator',
    audit: {
      action: 'payment.updateAmount',
      resource: (input) => input.paymentId,
      details: (input, output) =>
        defined({
          amountCents: input.amountCents,
          originalAmountCents: output?.originalAmountCents,
          overBalanceOwedCents: input.overBalance?.owedCents,
          overBalanceAmountCents: input.overBalance?.amountCents,
        }),
    },
  }),
  /**
   * The amount the agent saw goes with the confirmation: main refuses it in words when the service holds another. An
   * amount update, confirmation or abandon of one payment is one at a time across the center: one under way at another
   * desk refuses it (`payment_change_in_progress`, naming who). A confirmation the service still charges at another
   * amount is `confirmed_amount_differs`, the difference charged over what the agent saw put in the supervisors' queue.
   */
  'payments:confirm': channel({
    input: z.strictObject({
      paymentId: PaymentId,
      installmentsCount: z.number().int().min(1).max(48).optional(),
      expectedAmountCents: Cents,
    }),
    output: PaymentView,
    access: TAKES_PAYMENTS,
    activity: 'operator',
    audit: {
      action: 'payment.confirm',
      resource: (input) => input.paymentId,
      details: (input, output) =>
        defined({
          installmentsCount: input.installmentsCount,
          expectedAmountCents: input.expectedAmountCents,
          status: output?.status,
        }),
    },
  }),
  /**
   * "Abandon and use another card": a payment waiting for 3-D Secure or for an MSI plan is left to expire on the
   * service and recorded as abandoned, freeing the reservation for a new charge — only once the service, asked now,
   * says it did not succeed (`payment_already_succeeded`, `payment_being_charged`, `abandon_outcome_unknown` refuse it).
   */
  'payments:abandon': channel({
    input: z.strictObject({ paymentId: PaymentId }),
    output: PaymentView,
    access: TAKES_PAYMENTS,
    activity: 'operator',
    audit: {
      action: 'payment.abandon',
      resource: (input) => input.paymentId,
      details: (_input, output) =>
        defined({ status: output?.status, amountCents: output?.amountCents, currency: output?.currency }),
    },
  }),
  /**
   * What main completed after a restart (a payment or refund whose answer never reached the operator who began it), not yet
   * acknowledged by the signed-in operator, on any desk: the workspace shows them first after sign-in and unlock.
   */
  'payments:recovered': channel({
    input: none,
    output: z.object({ notices: z.array(RecoveredNoticeView) }),
    access: STAFF,
    activity: 'background',
    audit: 'none',
  }),
  /**
   * The late successes of payments abandoned at this desk whose refund request is still pending, whoever found them and
   * whenever (this desk closed, or its window not open yet): the workspace reads them at sign-in and unlock, as it hears
   * `payments:lateSuccess` while open.
   */
  'payments:lateSuccesses': channel({
    input: none,
    output: z.object({ alerts: z.array(LateSuccessView) }),
    access: STAFF,
    activity: 'background',
    audit: 'none',
  }),
  /** The operator has read these notices of theirs: they are not shown again (another operator's are left as they are). */
  'payments:acknowledgeRecovered': channel({
    input: z.strictObject({ noticeIds: z.array(z.uuid()).min(1).max(100) }),
    output: z.object({ acknowledged: z.number().int() }),
    access: STAFF,
    activity: 'operator',
    audit: {
      action: 'payment.acknowledgeRecovered',
      details: (input, output) => defined({ noticeIds: input.noticeIds.join(','), acknowledged: output?.acknowledged }),
    },
  }),
  /** Background: the screens read a payment again after each change and on their own timers. */
  'payments:get': channel({
    input: z.strictObject({ paymentId: PaymentId }),
    output: PaymentView,
    access: STAFF,
    activity: 'background',
    audit: 'none',
  }),
  /** Main follows the payment; its changes arrive as `payments:changed` events. */
  'payments:watch': channel({
    input: z.strictObject({ paymentId: PaymentId }),
    output: done,
    access: STAFF,
    activity: 'background',
    audit: 'none',
  }),
  /**
   * Sends a payment's 3DS link to the cardholder's own device; the app never opens it. Answers the first status (its
   * later ones arrive as `messaging:delivery`), or `confirm_resend` when a link sent less than a minute ago is still
   * unanswered and `confirmResend` was not given.
   */
  'messaging:sendLink': channel({
    input: SendLinkRequest,
    output: SendLinkOutcome,
    access: TAKES_PAYMENTS,
    activity: 'operator',
    audit: {
      action: 'link.send',
      resource: (input) => input.paymentId,
      details: (input, output) => defined({ channel: input.channel, delivery: output?.status }),
    },
  }),
  /**
   * Sends a succeeded payment's receipt to the guest by SMS or e-mail, in the language chosen (the guest's): the amount,
   * the card's brand and last 4, and the short reference (the last 8 characters of the payment id, grouped). Answers
   * the first delivery status; later ones arrive as `messaging:delivery`.
   */
  'messaging:sendReceipt': channel({
    input: SendReceiptRequest,
    output: DeliveryResult,
    access: TAKES_PAYMENTS,
    activity: 'operator',
    audit: {
      action: 'receipt.send',
      resource: (input) => input.paymentId,
      details: (input, output) =>
        defined({ channel: input.channel, language: input.language, delivery: output?.status }),
    },
  }),
  'messaging:channels': channel({
    input: none,
    output: z.object({ channels: z.array(ChannelAvailability) }),
    access: STAFF,
    activity: 'background',
    audit: 'none',
  }),
  'messaging:history': channel({
    input: z.strictObject({ paymentId: PaymentId }),
    output: z.object({ deliveries: z.array(DeliveryRecordView) }),
    access: STAFF,
    activity: 'background',
    audit: 'none',
  }),
  /** Training mode only: the messages captured instead of sent, and the trainee playing the cardholder. */
  'messaging:outbox': channel({
    input: none,
    output: z.object({ messages: z.array(OutboxMessageView) }),
    access: STAFF,
    activity: 'background',
    audit: 'none',
  }),
  'messaging:playCardholder': channel({
    input: PlayCardholderRequest,
    output: PlayCardholderResult,
    access: STAFF,
    activity: 'operator',
    audit: 'none',
  }),
  /**
   * A supervisor or admin refunds directly, within their role's limit; without an amount, all that is left. The amount the
   * confirmation named (`expectedAmountCents`) is required: main refunds that amount or nothing.
   */
  'refunds:create': channel({
    input: z.strictObject({
      operationId: OperationId,
      paymentId: PaymentId,
      amountCents: Cents.optional(),
      reason: RefundReason,
      acknowledgedRefundIds: AcknowledgedRefundIds,
      expectedAmountCents: ExpectedAmountCents,
    }),
    output: PaymentView,
    access: REFUNDS,
    activity: 'operator',
    audit: {
      action: 'refund.create',
      resource: (input) => input.paymentId,
      details: (input) =>
        defined({
          amountCents: input.amountCents ?? 'all left',
          expectedAmountCents: input.expectedAmountCents,
          reason: input.reason,
          operationId: input.operationId,
        }),
    },
  }),
  /** An agent asks for a refund: it waits for a supervisor (override on the same screen, or the queue). */
  'refunds:request': channel({
    input: z.strictObject({
      requestId: RefundRequestId,
      paymentId: PaymentId,
      amountCents: Cents.optional(),
      reason: RefundReason,
      note: RefundNote.optional(),
    }),
    output: RefundRequestView,
    access: TAKES_PAYMENTS,
    activity: 'operator',
    audit: {
      action: 'refund.request',
      resource: (input) => input.paymentId,
      details: (input) =>
        defined({ requestId: input.requestId, amountCents: input.amountCents ?? 'all left', reason: input.reason }),
    },
  }),
  /** Manager override: a supervisor signs with their own credentials on the agent's screen; both ids are recorded. */
  'refunds:override': channel({
    input: z.strictObject({
      requestId: RefundRequestId,
      approverId: OperatorId,
      approverPassword: z.string().min(1, 'Enter the password.').max(200),
      acknowledgedRefundIds: AcknowledgedRefundIds,
    }),
    output: z.object({ request: RefundRequestView, payment: PaymentView }),
    access: TAKES_PAYMENTS,
    activity: 'operator',
    audit: {
      action: 'refund.approve',
      resource: requestPayment,
      details: (input, output) =>
        defined({
          requestId: input.requestId,
          override: true,
          requestedBy: output?.request.requestedBy,
          approverId: lower(input.approverId),
          approvedBy: output?.request.decidedBy,
          refundId: output?.request.refundId,
        }),
    },
  }),
  /** Background: the Approvals screen refreshes its queue by itself. Each request as main's records show it (RefundQueueItem). */
  'refunds:queue': channel({
    input: z.strictObject({ status: z.enum(['pending', 'all']).optional() }),
    output: z.object({ requests: z.array(RefundQueueItem) }),
    access: REFUNDS,
    activity: 'background',
    audit: 'none',
  }),
  /** An agent's own requests for a payment, to see what became of them. */
  'refunds:requestsFor': channel({
    input: z.strictObject({ paymentId: PaymentId }),
    output: z.object({ requests: z.array(RefundRequestView) }),
    access: STAFF,
    activity: 'background',
    audit: 'none',
  }),
  'refunds:approve': channel({
    input: z.strictObject({
      requestId: RefundRequestId,
      acknowledgedRefundIds: AcknowledgedRefundIds,
      expectedAmountCents: ExpectedAmountCents,
    }),
    output: z.object({ request: RefundRequestView, payment: PaymentView }),
    access: REFUNDS,
    activity: 'operator',
    audit: {
      action: 'refund.approve',
      resource: requestPayment,
      details: (input, output) =>
        defined({
          requestId: input.requestId,
          override: false,
          expectedAmountCents: input.expectedAmountCents,
          requestedBy: output?.request.requestedBy,
          approvedBy: output?.request.decidedBy,
          refundId: output?.request.refundId,
        }),
    },
  }),
  'refunds:reject': channel({
    input: z.strictObject({ requestId: RefundRequestId, note: RefundNote.min(1, 'Say why the refund is rejected.') }),
    output: RefundRequestView,
    access: REFUNDS,
    activity: 'operator',
    audit: {
      action: 'refund.reject',
      resource: (input, output, lookup) => output?.paymentId ?? lookup.paymentOfRequest(input.requestId),
      details: (input, output) =>
        defined({ requestId: input.requestId, requestedBy: output?.requestedBy, note: input.note }),
    },
  }),
  /**
   * What this window shows that others' work changes: the approvals queue, the reservations open on it, and (`requests`)
   * word of the refunds its operator asked for. Each call says the whole set (it replaces the last); an empty set, or no
   * operator signed in, stops it. On the center main listens for the other desks' changes only while some window watches
   * something, and pushes them as `payments:changed`, `reservations:changed`, `refunds:changed` and `refunds:outcome`;
   * `live:status` and `live:resync` say when the feed was lost and is back. On the embedded files every writer is this
   * desk: the events are its own (`local`).
   */
  'live:watch': channel({
    input: z.strictObject({
      queue: z.boolean(),
      reservations: z.array(ReservationId).max(20),
      requests: z.boolean().optional(),
    }),
    output: z.object({ state: LiveState }),
    access: 'public',
    activity: 'background',
    audit: 'none',
  }),
  /** The refund limits of every role, from the settings. */
  'refunds:limits': channel({
    input: none,
    output: z.object({ limits: z.array(RefundLimitView) }),
    access: STAFF,
    activity: 'background',
    audit: 'none',
  }),
  /** The journal's payments, newest first, refreshed from the service when one is opened (payments:get). */
  'payments:search': channel({
    input: PaymentQuery,
    output: z.object({ payments: z.array(PaymentSummary) }),
    access: REFUNDS,
    activity: 'background',
    audit: 'none',
  }),
  'audit:list': channel({
    input: AuditQuery,
    output: z.object({ rows: z.array(AuditRowView), nextBeforeId: z.number().int().optional() }),
    access: REFUNDS,
    activity: 'background',
    audit: 'none',
  }),
  /** Every row the filters match (no paging), as CSV. */
  'audit:exportCsv': channel({
    input: AuditQuery.omit({ beforeId: true, limit: true }),
    output: z.object({ csv: z.string(), rows: z.number().int() }),
    access: REFUNDS,
    activity: 'operator',
    audit: { action: 'audit.export', details: (input, output) => defined({ ...input, rows: output?.rows }) },
  }),
  'audit:verify': channel({
    input: none,
    output: AuditVerification,
    access: REFUNDS,
    activity: 'operator',
    audit: 'none',
  }),
  'reports:endOfDay': channel({
    input: z.strictObject({ date: IsoDate }),
    output: EndOfDayReport,
    access: REFUNDS,
    activity: 'background',
    audit: 'none',
  }),
  /** The operator is typing or pointing in the window (the card form makes no other call): postpones the idle lock. */
  'session:activity': channel({ input: none, output: done, access: STAFF, activity: 'operator', audit: 'none' }),
  /** Lock the desk now (the agent steps away): the same operator's password opens it again. The lock itself is recorded by main. */
  'session:lock': channel({ input: none, output: done, access: STAFF, activity: 'operator', audit: 'none' }),
  /**
   * "Sign in as someone else" on the lock screen: the locked session ends (its card data was wiped when it locked), so
   * another operator can sign in without restarting the app; refused while the session is open. Public: nobody is
   * signed in on a locked desk. Background: there is no session left to keep awake. Recorded with the session that
   * ended as the resource (the actor is `anonymous`: whoever is at the desk).
   */
  'session:endLocked': channel({
    input: none,
    output: z.object({ ok: z.literal(true), ended: OperatorId.optional() }),
    access: 'public',
    activity: 'background',
    audit: { action: 'session.handOver', resource: (_input, output) => output?.ended },
  }),
  'operators:list': channel({
    input: none,
    output: z.object({ operators: z.array(OperatorView) }),
    access: ADMIN,
    activity: 'background',
    audit: 'none',
  }),
  'operators:create': channel({
    input: z.strictObject({ id: NewOperatorId, displayName: DisplayName, role: Role, password: Password }),
    output: OperatorView,
    access: ADMIN,
    activity: 'operator',
    audit: {
      action: 'account.create',
      resource: (input) => lower(input.id),
      details: (input) => ({ role: input.role }),
    },
  }),
  'operators:update': channel({
    input: z.strictObject({ id: OperatorId, role: Role.optional(), disabled: z.boolean().optional() }),
    output: OperatorView,
    access: ADMIN,
    activity: 'operator',
    audit: {
      action: 'account.update',
      resource: (input) => lower(input.id),
      details: (input) => defined({ role: input.role, disabled: input.disabled }),
    },
  }),
  'operators:resetPassword': channel({
    input: z.strictObject({ id: OperatorId, password: Password }),
    output: done,
    access: ADMIN,
    activity: 'operator',
    audit: { action: 'account.resetPassword', resource: (input) => lower(input.id) },
  }),
  /** An update downloaded and waiting: the agent restarts when the call is over (never during a payment). */
  'updates:status': channel({
    input: none,
    output: UpdateStatus,
    access: STAFF,
    activity: 'background',
    audit: 'none',
  }),
  'updates:restart': channel({
    input: none,
    output: done,
    access: STAFF,
    activity: 'operator',
    audit: { action: 'update.restart' },
  }),
} as const satisfies Record<`${string}:${string}`, ChannelSpec>;

/** Main → renderer: each event's payload, parsed in main before it is sent. */
export const EVENTS = {
  'payments:changed': PaymentView,
  /**
   * The idle lock fired: the renderer wipes card data and shows the lock screen. `endedElsewhere`: the session ended
   * instead, its operator having signed in at another desk of the center (which, and since when, when known): the
   * renderer shows the plain sign-in, saying why.
   */
  'session:locked': z.object({
    endedElsewhere: z
      .object({ deskId: z.string().max(64).optional(), sinceAt: z.string().max(40).optional() })
      .optional(),
  }),
  /**
   * The idle lock comes in a minute (half the timeout when that is shorter) unless the operator acts: `locksAt` (ISO).
   * Any activity postpones it; a later warning says the new time.
   */
  'session:idleWarning': z.object({ locksAt: z.string() }),
  /** The desk's start moved on (a phase, an operation completed): the start-up screen shows it; `ready` once every channel is served. */
  'app:startup': StartupStatus,
  /** An update's state changed (downloaded, failed): the workspace shows it. */
  'updates:changed': UpdateStatus,
  /** A 3DS link's delivery moved on (sent, delivered, failed…) as main follows it with the provider. */
  'messaging:delivery': DeliveryResult,
  /** A refund request was asked for, decided or settled, at this desk or another of the center: queues read again. */
  'refunds:changed': z.object({ requestId: RefundRequestId, paymentId: PaymentId }),
  /** A refund request asked at this desk was approved, made, rejected or failed (at this desk or another of the center). */
  'refunds:outcome': RefundOutcomeView,
  /** A late success found now, told to the windows open at the desk that abandoned the payment (`payments:lateSuccesses` reads them later). */
  'payments:lateSuccess': LateSuccessView,
  /** A watched reservation's payment attempts changed at another desk (begun, answered): its overview is read again. */
  'reservations:changed': z.object({ reservationId: ReservationId }),
  /** The center's live feed was lost (`reconnecting`) or is back (`live`): see `live:watch`. */
  'live:status': z.object({ state: LiveState }),
  /** The live feed is (again) in place: what changed while it was not may have been missed; open views read again. */
  'live:resync': z.object({}),
} as const satisfies Record<`${string}:${string}`, z.ZodType>;

export type Channel = keyof typeof CHANNELS;
export type EventName = keyof typeof EVENTS;
export type Input<C extends Channel> = z.input<(typeof CHANNELS)[C]['input']>;
export type ParsedInput<C extends Channel> = z.output<(typeof CHANNELS)[C]['input']>;
export type Output<C extends Channel> = z.output<(typeof CHANNELS)[C]['output']>;
export type EventPayload<E extends EventName> = z.output<(typeof EVENTS)[E]>;

/** How every call's answer crosses: a value, or an error a person can read — never a stack. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: IpcError };
export interface IpcError {
  /** A stable name (snake_case) to branch on and to find the sentence in the desk's language. */
  code: string;
  /**
   * Not sent for a refusal: the renderer words it from `code` and `params` in the desk's language. Only the door's own
   * refusals before any capability ran may still carry one.
   */
  message?: string;
  /** The input field at fault, when one is. */
  field?: string;
  /** The numbers and names the message is made of (amounts in cents with their currency, minutes, a setting's name). */
  params?: ErrorParams;
}
/** Plain values only: what main wrote into a message, never what was typed. */
export type ErrorParams = Readonly<Record<string, string | number | boolean>>;

// The name lists live apart from the schemas so that the preload bundles no zod (test/shared/channels.test.ts keeps them equal).
export { CHANNEL_NAMES, EVENT_NAMES } from './channels';
