/** The contract's channels, answered by the engine facade and the session: the operator always comes from main. */
import type { Environment } from '../../shared/environment';
import type { Language } from '../../shared/language';
import type {
  ChannelAvailability,
  DeliveryRecordView,
  DeliveryResult,
  OutboxMessageView,
  PlayCardholderResult,
  SendLinkRequest,
} from '../../shared/messaging';
import type { CsvImportResult, ReservationView } from '../../shared/reservations';
import type { SendContext } from '../messaging';
import type { OperatorView } from '../../shared/operators';
import type { PaymentEngine } from '../payments';
import type { CallContext, Handlers } from './dispatch';

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
  send(request: SendLinkRequest, ctx: SendContext): Promise<DeliveryResult>;
  channels(): ChannelAvailability[];
  history(paymentId: string): DeliveryRecordView[];
  outbox(): OutboxMessageView[];
  playCardholder(messageId: string, answer: 'approve' | 'decline'): Promise<PlayCardholderResult>;
}

/** What the handlers need of sign-in (the operators capability provides it). */
export interface SessionPort {
  status(): { operator: OperatorView | undefined; locked: boolean; needsFirstAdmin: boolean };
  signIn(id: string, password: string): Promise<OperatorView>;
  /** Refused once any operator exists; signs the new admin in. */
  createFirstAdmin(input: { id: string; displayName: string; password: string }): Promise<OperatorView>;
  signOut(): void;
}

export interface HandlerDeps {
  engine: PaymentEngine;
  session: SessionPort;
  app: { environment: Environment; version: string };
  preferences: PreferencesPort;
  reservations: ReservationsPort;
  messaging: MessagingPort;
  /** Main follows a payment for the windows; its changes go out as `payments:changed`. */
  follow: (paymentId: string) => void;
  /** Content protection of the calling window while card data is on screen (a no-op outside Electron). */
  protectCardData: (webContentsId: number, active: boolean) => void;
}

/** The signed-in operator's id; the dispatcher has already refused calls without one. */
function operatorOf(ctx: CallContext): string {
  if (!ctx.operator) throw new Error('handler reached without a signed-in operator');
  return ctx.operator.id;
}

export function createHandlers({ engine, session, app, preferences, reservations, messaging, follow, protectCardData }: HandlerDeps): Handlers {
  return {
    'app:info': () => {
      const { language, locked } = preferences.language();
      return { environment: app.environment, version: app.version, language, languageLocked: locked };
    },
    'app:setLanguage': async ({ language }) => ({ language: await preferences.setLanguage(language) }),
    'session:status': () => {
      const { operator, locked, needsFirstAdmin } = session.status();
      return operator === undefined ? { locked, needsFirstAdmin } : { operator, locked, needsFirstAdmin };
    },
    'session:signIn': ({ id, password }) => session.signIn(id, password),
    'session:createFirstAdmin': (input) => session.createFirstAdmin(input),
    'session:signOut': () => {
      session.signOut();
      return { ok: true as const };
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
    'reservations:overview': ({ reservationId }) => engine.listReservation(reservationId),
    'payments:tokenize': (input, ctx) => engine.tokenize({ ...input, operatorId: operatorOf(ctx) }),
    'payments:pay': (input, ctx) => engine.pay({ ...input, operatorId: operatorOf(ctx) }),
    'payments:updateAmount': (input, ctx) => engine.updateAmount({ ...input, operatorId: operatorOf(ctx) }),
    'payments:confirm': (input, ctx) => engine.confirm({ ...input, operatorId: operatorOf(ctx) }),
    'payments:get': ({ paymentId }) => engine.getPayment(paymentId),
    'payments:watch': ({ paymentId }) => {
      follow(paymentId);
      return { ok: true as const };
    },
    'messaging:sendLink': async (request, ctx) => {
      // Everything about the payment comes from main's own records: the renderer names only the payment.
      const payment = await engine.getPayment(request.paymentId);
      const method = engine.listReservation(payment.reservationId).methods.find((m) => m.id === payment.methodId);
      const reservation = await reservations.get(payment.reservationId).catch(() => undefined);
      return messaging.send(request, {
        operatorId: operatorOf(ctx),
        // "Hotel" reads the same in both languages, for a payment whose reservation is gone from the source.
        hotelName: reservation?.hotelName.slice(0, 100) ?? 'Hotel',
        payment: {
          id: payment.id,
          amount: payment.amount,
          currency: payment.currency,
          status: payment.status,
          ...(method ? { brand: method.brand, last4: method.last4 } : {}),
          ...(payment.nextActionUrl === undefined ? {} : { nextActionUrl: payment.nextActionUrl }),
        },
      });
    },
    'messaging:channels': () => ({ channels: messaging.channels() }),
    'messaging:history': ({ paymentId }) => ({ deliveries: messaging.history(paymentId) }),
    'messaging:outbox': () => ({ messages: messaging.outbox() }),
    'messaging:playCardholder': ({ messageId, answer }) => messaging.playCardholder(messageId, answer),
    'refunds:create': (input, ctx) => engine.refund({ ...input, operatorId: operatorOf(ctx) }),
  };
}
