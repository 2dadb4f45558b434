/** The contract's channels, answered by the engine facade and the session: the operator always comes from main. */
import type { Environment } from '../../shared/environment';
import type { Language } from '../../shared/language';
import type { OperatorView } from '../../shared/operators';
import type { PaymentEngine } from '../payments';
import type { CallContext, Handlers } from './dispatch';

/** The desk's language: the user's settings file in the app, memory in tests. */
export interface PreferencesPort {
  language(): { language: Language; locked: boolean };
  setLanguage(language: Language): Promise<Language>;
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

export function createHandlers({ engine, session, app, preferences, follow, protectCardData }: HandlerDeps): Handlers {
  return {
    'app:info': () => {
      const { language, locked } = preferences.language();
      return { ...app, language, languageLocked: locked };
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
    'refunds:create': (input, ctx) => engine.refund({ ...input, operatorId: operatorOf(ctx) }),
  };
}
