// Test handlers for the IPC door: each records its calls and answers a value valid for its channel (plus a field outside the contract).
import { randomUUID } from 'node:crypto';
import { CHANNELS, type Channel } from '../../../shared/ipc';
import { createDispatcher, isAppUrl, type CallContext, type Handlers, type SenderInfo } from '../../../main/ipc';
import type { OperatorView } from '../../../shared/operators';

export const APP_URL = 'app://desk/index.html';
export const trusted: SenderInfo = { url: APP_URL, isMainFrame: true, webContentsId: 1 };

const payment = {
  id: `pay_${'a'.repeat(32)}`,
  reservationId: 'R-1',
  status: 'processing',
  amountCents: 1000,
  currency: 'usd',
  methodId: `mth_${'b'.repeat(32)}`,
  availableInstallments: [],
  hasChallengeLink: false,
  refunds: [],
  refundableCents: 0,
  createdAt: '2026-11-22T00:00:00.000Z',
};
const method = {
  id: `mth_${'b'.repeat(32)}`,
  brand: 'visa',
  last4: '4242',
  expMonth: 12,
  expYear: 2030,
  createdAt: '2026-11-22T00:00:00.000Z',
};
const reservation = {
  confirmationNumber: 'R-1',
  guestName: 'Sofía Núñez',
  checkIn: '2026-12-01',
  checkOut: '2026-12-04',
  hotelName: 'Hotel Costa Turquesa',
  balanceDueCents: 123_450,
  currency: 'mxn',
  guestPhone: '+529981234567',
  guestEmail: 'sofia@example.mx',
  guestLanguage: 'es-MX',
  guestLanguageFrom: 'phone',
};
const refundRequest = {
  id: '2b0f4c55-6d0e-4a3b-9b8e-0c2f5f1e9a11',
  paymentId: `pay_${'a'.repeat(32)}`,
  amountCents: 500,
  currency: 'usd',
  reason: 'duplicate',
  status: 'pending',
  requestedBy: 'ana',
  requestedAt: '2026-11-22T00:00:00.000Z',
  override: false,
};
const auditRow = {
  id: 1,
  deskId: '11111111-1111-4111-8111-111111111111',
  seq: 1,
  at: '2026-11-22T00:00:00.000Z',
  actor: 'ana',
  action: 'session.signIn',
  outcome: 'ok',
  details: {},
};
const operatorView: OperatorView = { id: 'ana', displayName: 'Ana', role: 'agent', disabled: false };

/** A value outside the contract, added to every answer: it must never cross. */
export const LEAK = { clientSecret: 'sec_must_not_cross', accessToken: 'tok_must_not_cross' };

const answers: { [C in Channel]: unknown } = {
  'app:info': {
    environment: 'training',
    version: '0.1.0',
    language: 'es-MX',
    languageLocked: false,
    deskId: '3f1c2a4e-7b1d-4c8e-9a2f-5d6e7f809a1b',
    storage: 'embedded',
  },
  'app:startup': { phase: 'ready', language: 'es-MX' },
  'app:setLanguage': { language: 'en-US' },
  'session:status': { operator: operatorView, locked: false, needsFirstAdmin: false },
  'session:signIn': operatorView,
  'session:createFirstAdmin': operatorView,
  'session:signOut': { ok: true },
  'window:protectCardData': { ok: true },
  'reservations:search': { reservations: [reservation] },
  'reservations:get': { reservation },
  'reservations:importCsv': { ok: true, created: 1, updated: 0 },
  'reservations:overview': { payments: [payment], methods: [method], pendingPayments: [] },
  'payments:tokenize': method,
  'payments:pay': payment,
  'payments:checkAgain': { state: 'answered', payment },
  'payments:resolveAttempt': { outcome: 'charged', paymentId: payment.id },
  'payments:updateAmount': payment,
  'payments:confirm': payment,
  'payments:abandon': payment,
  'payments:recovered': { notices: [] },
  'payments:acknowledgeRecovered': { acknowledged: 1 },
  'payments:lateSuccesses': { alerts: [] },
  'payments:get': payment,
  'payments:watch': { ok: true },
  'messaging:sendLink': {
    status: 'sent',
    messageId: `msg_${'c'.repeat(32)}`,
    paymentId: payment.id,
    channel: 'sms',
    to: '+52 ******5678',
    provider: 'training_outbox',
    training: true,
    attempts: 1,
    at: '2026-11-22T00:00:00.000Z',
    final: true,
  },
  'messaging:sendReceipt': {
    status: 'sent',
    messageId: `msg_${'d'.repeat(32)}`,
    paymentId: payment.id,
    channel: 'email',
    to: 'a***@example.com',
    provider: 'training_outbox',
    training: true,
    attempts: 1,
    at: '2026-11-22T00:00:00.000Z',
    final: true,
  },
  'messaging:channels': { channels: [{ channel: 'sms', provider: 'training_outbox', available: true }] },
  'messaging:history': { deliveries: [] },
  'messaging:outbox': { messages: [] },
  'messaging:playCardholder': {
    message: {
      id: `msg_${'c'.repeat(32)}`,
      paymentId: payment.id,
      operatorId: 'ana',
      channel: 'sms',
      to: '+52 ******5678',
      language: 'es-MX',
      text: 'x',
      createdAt: '2026-11-22T00:00:00.000Z',
      cardholder: 'approved',
    },
    note: 'Approved.',
  },
  'refunds:create': payment,
  'refunds:request': refundRequest,
  'refunds:override': { request: refundRequest, payment },
  'refunds:queue': { requests: [refundRequest] },
  'refunds:requestsFor': { requests: [refundRequest] },
  'refunds:approve': { request: refundRequest, payment },
  'refunds:reject': refundRequest,
  'live:watch': { state: 'local' },
  'refunds:limits': { limits: [{ role: 'supervisor', currency: 'mxn', maxCents: 1000000 }] },
  'payments:search': { payments: [{ ...payment, brand: 'visa', last4: '4242', operatorId: 'ana' }] },
  'audit:list': { rows: [auditRow], nextBeforeId: 1 },
  'audit:exportCsv': { csv: 'desk_id,seq,at\r\n', rows: 1 },
  'audit:verify': { ok: true, rows: 1, desks: 1 },
  'reports:endOfDay': {
    date: '2026-11-22',
    timeZone: 'America/Mexico_City',
    agents: [],
    desks: [],
    plans: [],
    hours: [],
    totals: [],
  },
  'session:lock': { ok: true },
  'session:endLocked': { ok: true, ended: 'ana' },
  'session:activity': { ok: true },
  'operators:list': { operators: [operatorView] },
  'operators:create': operatorView,
  'operators:update': operatorView,
  'operators:resetPassword': { ok: true },
  'updates:status': { state: 'idle', channel: 'stable' },
  'updates:restart': { ok: true },
};

export function recordingHandlers() {
  const calls: { channel: Channel; input: unknown; ctx: CallContext }[] = [];
  const handlers = Object.fromEntries(
    (Object.keys(answers) as Channel[]).map((channel) => [
      channel,
      (input: unknown, ctx: CallContext) => {
        calls.push({ channel, input, ctx });
        const answer = answers[channel];
        return typeof answer === 'object' && answer !== null ? { ...answer, ...LEAK } : answer;
      },
    ]),
  ) as unknown as Handlers;
  return { handlers, calls };
}

export function door(operator: OperatorView | undefined) {
  const { handlers, calls } = recordingHandlers();
  let signedIn = operator;
  const dispatch = createDispatcher({
    handlers,
    currentOperator: () => signedIn,
    isTrustedSender: (s) => s.isMainFrame && s.webContentsId === 1 && isAppUrl(s.url, APP_URL),
  });
  return { dispatch, calls, signIn: (o: OperatorView | undefined) => (signedIn = o) };
}

export const VALID_INPUTS: { [C in Channel]: unknown } = {
  'app:info': {},
  'app:startup': {},
  'app:setLanguage': { language: 'en-US' },
  'session:status': {},
  'session:signIn': { id: 'ana', password: 'correct horse 1' },
  'session:createFirstAdmin': { id: 'ada', displayName: 'Ada', password: 'a long password 42' },
  'session:signOut': {},
  'window:protectCardData': { active: true },
  'reservations:search': { text: 'núñez' },
  'reservations:get': { reservationId: 'R-1' },
  'reservations:importCsv': { csv: 'confirmation_number,guest_name\nR-1,Ana' },
  'reservations:overview': { reservationId: 'R-1' },
  'payments:tokenize': {
    operationId: randomUUID(),
    card: { number: '4242424242424242', expMonth: 12, expYear: 2040, cvv: '123' },
    reservationId: 'R-1',
  },
  'payments:pay': {
    operationId: randomUUID(),
    methodId: `mth_${'b'.repeat(32)}`,
    amountCents: 1050,
    currency: 'usd',
    reservationId: 'R-1',
    acknowledgedPaymentIds: [],
  },
  'payments:checkAgain': { operationId: randomUUID() },
  'payments:resolveAttempt': { operationId: randomUUID(), outcome: 'not_charged' },
  'payments:updateAmount': { paymentId: `pay_${'a'.repeat(32)}`, amountCents: 2000 },
  'payments:confirm': { paymentId: `pay_${'a'.repeat(32)}`, installmentsCount: 3, expectedAmountCents: 1000 },
  'payments:get': { paymentId: `pay_${'a'.repeat(32)}` },
  'payments:abandon': { paymentId: `pay_${'a'.repeat(32)}` },
  'payments:recovered': {},
  'payments:acknowledgeRecovered': { noticeIds: [randomUUID()] },
  'payments:lateSuccesses': {},
  'payments:watch': { paymentId: `pay_${'a'.repeat(32)}` },
  'messaging:sendLink': {
    paymentId: `pay_${'a'.repeat(32)}`,
    channel: 'sms',
    destination: '+52 55 1234 5678',
    language: 'es-MX',
  },
  'messaging:sendReceipt': {
    paymentId: `pay_${'a'.repeat(32)}`,
    channel: 'email',
    destination: 'ana.lopez@example.com',
    language: 'es-MX',
  },
  'messaging:channels': {},
  'messaging:history': { paymentId: `pay_${'a'.repeat(32)}` },
  'messaging:outbox': {},
  'messaging:playCardholder': { messageId: `msg_${'c'.repeat(32)}`, answer: 'approve' },
  'refunds:create': {
    operationId: randomUUID(),
    paymentId: `pay_${'a'.repeat(32)}`,
    amountCents: 500,
    reason: 'duplicate',
    acknowledgedRefundIds: [],
    expectedAmountCents: 500,
  },
  'refunds:request': {
    requestId: randomUUID(),
    paymentId: `pay_${'a'.repeat(32)}`,
    amountCents: 500,
    reason: 'duplicate',
    note: 'Charged twice.',
  },
  'refunds:override': {
    requestId: randomUUID(),
    approverId: 'sam',
    approverPassword: 'supervisor password 1',
    acknowledgedRefundIds: [],
  },
  'refunds:queue': { status: 'pending' },
  'refunds:requestsFor': { paymentId: `pay_${'a'.repeat(32)}` },
  'refunds:approve': { requestId: randomUUID(), acknowledgedRefundIds: [], expectedAmountCents: 500 },
  'refunds:reject': { requestId: randomUUID(), note: 'Not a duplicate.' },
  'live:watch': { queue: true, reservations: ['CUN-6B3D8F'] },
  'refunds:limits': {},
  'payments:search': { guestName: 'Núñez', from: '2026-11-01', to: '2026-11-22' },
  'audit:list': { action: 'refund', outcome: 'ok', limit: 50 },
  'audit:exportCsv': { actor: 'sam' },
  'audit:verify': {},
  'reports:endOfDay': { date: '2026-11-22' },
  'session:lock': {},
  'session:endLocked': {},
  'session:activity': {},
  'operators:list': {},
  'operators:create': { id: 'sam', displayName: 'Sam', role: 'supervisor', password: 'supervisor password 1' },
  'operators:update': { id: 'sam', disabled: true },
  'operators:resetPassword': { id: 'sam', password: 'a new password 12' },
  'updates:status': {},
  'updates:restart': {},
};

export const AGENT: OperatorView = { id: 'ana', displayName: 'Ana', role: 'agent', disabled: false };
export const SUPERVISOR: OperatorView = { id: 'sam', displayName: 'Sam', role: 'supervisor', disabled: false };
export const ADMIN: OperatorView = { id: 'ada', displayName: 'Ada', role: 'admin', disabled: false };

/** Someone the contract lets call this channel (undefined: a public channel, before sign-in). */
export function allowedCaller(channel: Channel): OperatorView | undefined {
  const access = CHANNELS[channel].access;
  if (access === 'public') return undefined;
  const roles: readonly string[] = access;
  return [AGENT, SUPERVISOR, ADMIN].find((o) => roles.includes(o.role));
}
