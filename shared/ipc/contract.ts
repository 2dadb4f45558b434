// The one IPC contract: every channel with its input and output schemas and the roles allowed to call it, and every event main sends.
import { z } from 'zod';
import { Environment } from '../environment';
import { Language } from '../language';
import { DisplayName, OperatorId, OperatorView, Password, Role } from '../operators';
import { Amount, CardInput, Currency, MethodId, PaymentId, RefundReason, ReservationId } from '../payments';
import { ChannelAvailability, DeliveryRecordView, DeliveryResult, OutboxMessageView, PlayCardholderRequest, PlayCardholderResult, SendLinkOutcome, SendLinkRequest } from '../messaging';
import { CsvImportResult, IsoDate, ReservationQuery, ReservationView } from '../reservations';
import { AuditQuery, AuditRowView, AuditVerification, EndOfDayReport, PaymentQuery, RefundLimitView, RefundNote, RefundRequestId, RefundRequestView } from '../desk';
import { MethodView, PaymentSummary, PaymentView } from './views';

/** Who may call a channel: anyone (before sign-in), or the signed-in roles listed. */
export type Access = 'public' | readonly Role[];

export interface ChannelSpec {
  /** Strict: unknown keys are refused. */
  input: z.ZodType;
  /** Parsed in main before anything crosses: whatever the schema does not name is dropped. */
  output: z.ZodType;
  access: Access;
}

const STAFF = ['agent', 'supervisor', 'admin'] as const satisfies readonly Role[];
const TAKES_PAYMENTS = ['agent', 'supervisor'] as const satisfies readonly Role[];
const REFUNDS = ['supervisor', 'admin'] as const satisfies readonly Role[];
const ADMIN = ['admin'] as const satisfies readonly Role[];

const none = z.strictObject({});
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

/** One id per logical operation, made by the renderer when the agent starts it: retries reuse it. */
const OperationId = z.uuid({ error: 'The operation id must be a UUID.' });

export const CHANNELS = {
  'app:info': {
    input: none,
    output: z.object({ environment: Environment, version: z.string(), language: Language, languageLocked: z.boolean() }),
    access: 'public',
  },
  /** The desk's language, kept in the user's settings (refused when IT locked it). Public: it can be changed at sign-in. */
  'app:setLanguage': { input: z.strictObject({ language: Language }), output: z.object({ language: Language }), access: 'public' },
  'session:status': {
    input: none,
    output: z.object({ operator: OperatorView.optional(), locked: z.boolean(), needsFirstAdmin: z.boolean() }),
    access: 'public',
  },
  'session:signIn': {
    input: z.strictObject({ id: OperatorId, password: z.string().min(1, 'Enter your password.').max(200) }),
    output: OperatorView,
    access: 'public',
  },
  /** First run only: the first account is an admin, who then creates the others. */
  'session:createFirstAdmin': {
    input: z.strictObject({ id: OperatorId, displayName: DisplayName, password: Password }),
    output: OperatorView,
    access: 'public',
  },
  'session:signOut': { input: none, output: done, access: STAFF },
  /**
   * The card form tells main while card data is on screen: main turns the window's content protection on
   * (screenshots and screen sharing show it blank) and off again when the form is gone. Public: the form is
   * also emptied by the idle lock, after which the operator is no longer signed in.
   */
  'window:protectCardData': { input: z.strictObject({ active: z.boolean() }), output: done, access: 'public' },
  /** By confirmation number, guest name, phone or e-mail: at most 20, best matches first. */
  'reservations:search': {
    input: ReservationQuery,
    output: z.object({ reservations: z.array(ReservationView) }),
    access: STAFF,
  },
  'reservations:get': {
    input: z.strictObject({ reservationId: ReservationId }),
    output: z.object({ reservation: ReservationView.optional() }),
    access: STAFF,
  },
  /** An admin loads the hotel's reservations from a CSV export into the built-in store: all rows or none. */
  'reservations:importCsv': {
    input: z.strictObject({ csv: z.string().min(1, 'The file is empty.').max(5_242_880, 'The file is larger than 5 MB.') }),
    output: CsvImportResult,
    access: ['admin'],
  },
  'reservations:overview': {
    input: z.strictObject({ reservationId: ReservationId }),
    output: z.object({ payments: z.array(PaymentView), methods: z.array(MethodView) }),
    access: STAFF,
  },
  'payments:tokenize': {
    input: z.strictObject({
      operationId: OperationId,
      card: CardInput,
      guestEmail: z.email('The guest e-mail address is not valid.').max(254).optional(),
      reservationId: ReservationId,
    }),
    output: MethodView,
    access: TAKES_PAYMENTS,
  },
  'payments:pay': {
    input: z.strictObject({
      operationId: OperationId,
      methodId: MethodId,
      amount: Amount,
      currency: Currency,
      reservationId: ReservationId,
      installments: z.boolean().optional(),
      note: z.string().trim().max(500, 'The note can have at most 500 characters.').optional(),
    }),
    output: PaymentView,
    access: TAKES_PAYMENTS,
  },
  'payments:updateAmount': {
    input: z.strictObject({ paymentId: PaymentId, amount: Amount }),
    output: PaymentView,
    access: TAKES_PAYMENTS,
  },
  'payments:confirm': {
    input: z.strictObject({ paymentId: PaymentId, installmentsCount: z.number().int().min(1).max(48).optional() }),
    output: PaymentView,
    access: TAKES_PAYMENTS,
  },
  'payments:get': { input: z.strictObject({ paymentId: PaymentId }), output: PaymentView, access: STAFF },
  /** Main follows the payment; its changes arrive as `payments:changed` events. */
  'payments:watch': { input: z.strictObject({ paymentId: PaymentId }), output: done, access: STAFF },
  /**
   * Sends a payment's 3DS link to the cardholder's own device; the app never opens it. Answers the first status (its
   * later ones arrive as `messaging:delivery`), or `confirm_resend` when a link sent less than a minute ago is still
   * unanswered and `confirmResend` was not given.
   */
  'messaging:sendLink': { input: SendLinkRequest, output: SendLinkOutcome, access: TAKES_PAYMENTS },
  'messaging:channels': { input: none, output: z.object({ channels: z.array(ChannelAvailability) }), access: STAFF },
  'messaging:history': { input: z.strictObject({ paymentId: PaymentId }), output: z.object({ deliveries: z.array(DeliveryRecordView) }), access: STAFF },
  /** Training mode only: the messages captured instead of sent, and the trainee playing the cardholder. */
  'messaging:outbox': { input: none, output: z.object({ messages: z.array(OutboxMessageView) }), access: STAFF },
  'messaging:playCardholder': { input: PlayCardholderRequest, output: PlayCardholderResult, access: STAFF },
  /** A supervisor or admin refunds directly, within their role's limit; without an amount, all that is left. */
  'refunds:create': {
    input: z.strictObject({ operationId: OperationId, paymentId: PaymentId, amount: Amount.optional(), reason: RefundReason }),
    output: PaymentView,
    access: REFUNDS,
  },
  /** An agent asks for a refund: it waits for a supervisor (override on the same screen, or the queue). */
  'refunds:request': {
    input: z.strictObject({ requestId: RefundRequestId, paymentId: PaymentId, amount: Amount.optional(), reason: RefundReason, note: RefundNote.optional() }),
    output: RefundRequestView,
    access: TAKES_PAYMENTS,
  },
  /** Manager override: a supervisor signs with their own credentials on the agent's screen; both ids are recorded. */
  'refunds:override': {
    input: z.strictObject({ requestId: RefundRequestId, approverId: OperatorId, approverPassword: z.string().min(1, 'Enter the password.').max(200) }),
    output: z.object({ request: RefundRequestView, payment: PaymentView }),
    access: TAKES_PAYMENTS,
  },
  'refunds:queue': {
    input: z.strictObject({ status: z.enum(['pending', 'all']).optional() }),
    output: z.object({ requests: z.array(RefundRequestView) }),
    access: REFUNDS,
  },
  /** An agent's own requests for a payment, to see what became of them. */
  'refunds:requestsFor': {
    input: z.strictObject({ paymentId: PaymentId }),
    output: z.object({ requests: z.array(RefundRequestView) }),
    access: STAFF,
  },
  'refunds:approve': {
    input: z.strictObject({ requestId: RefundRequestId }),
    output: z.object({ request: RefundRequestView, payment: PaymentView }),
    access: REFUNDS,
  },
  'refunds:reject': {
    input: z.strictObject({ requestId: RefundRequestId, note: RefundNote.min(1, 'Say why the refund is rejected.') }),
    output: RefundRequestView,
    access: REFUNDS,
  },
  /** The refund limits of every role, from the settings. */
  'refunds:limits': { input: none, output: z.object({ limits: z.array(RefundLimitView) }), access: STAFF },
  /** The journal's payments, newest first, refreshed from the service when one is opened (payments:get). */
  'payments:search': { input: PaymentQuery, output: z.object({ payments: z.array(PaymentSummary) }), access: REFUNDS },
  'audit:list': {
    input: AuditQuery,
    output: z.object({ rows: z.array(AuditRowView), nextBeforeSeq: z.number().int().optional() }),
    access: REFUNDS,
  },
  /** Every row the filters match (no paging), as CSV. */
  'audit:exportCsv': { input: AuditQuery.omit({ beforeSeq: true, limit: true }), output: z.object({ csv: z.string(), rows: z.number().int() }), access: REFUNDS },
  'audit:verify': { input: none, output: AuditVerification, access: REFUNDS },
  'reports:endOfDay': { input: z.strictObject({ date: IsoDate }), output: EndOfDayReport, access: REFUNDS },
  /** The operator is typing or pointing in the window (the card form makes no other call): postpones the idle lock. */
  'session:activity': { input: none, output: done, access: STAFF },
  /** Lock the desk now (the agent steps away): the same operator's password opens it again. */
  'session:lock': { input: none, output: done, access: STAFF },
  'operators:list': { input: none, output: z.object({ operators: z.array(OperatorView) }), access: ADMIN },
  'operators:create': {
    input: z.strictObject({ id: OperatorId, displayName: DisplayName, role: Role, password: Password }),
    output: OperatorView,
    access: ADMIN,
  },
  'operators:update': {
    input: z.strictObject({ id: OperatorId, role: Role.optional(), disabled: z.boolean().optional() }),
    output: OperatorView,
    access: ADMIN,
  },
  'operators:resetPassword': { input: z.strictObject({ id: OperatorId, password: Password }), output: done, access: ADMIN },
  /** An update downloaded and waiting: the agent restarts when the call is over (never during a payment). */
  'updates:status': { input: none, output: UpdateStatus, access: STAFF },
  'updates:restart': { input: none, output: done, access: STAFF },
} as const satisfies Record<`${string}:${string}`, ChannelSpec>;

/** Main → renderer: each event's payload, parsed in main before it is sent. */
export const EVENTS = {
  'payments:changed': PaymentView,
  /** The idle lock fired: the renderer wipes card data and shows the lock screen. */
  'session:locked': z.object({}),
  /** An update's state changed (downloaded, failed): the workspace shows it. */
  'updates:changed': UpdateStatus,
  /** A 3DS link's delivery moved on (sent, delivered, failed…) as main follows it with the provider. */
  'messaging:delivery': DeliveryResult,
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
  code: string;
  message: string;
  /** The input field at fault, when one is. */
  field?: string;
}

export const CHANNEL_NAMES = Object.keys(CHANNELS) as Channel[];
export const EVENT_NAMES = Object.keys(EVENTS) as EventName[];
