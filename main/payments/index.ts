/** The payment engine: talks to the Card Payment Service for the app; plain Node, no Electron imports. */
export { ServiceConfigSchema, type SecretStore, type ServiceConfig } from './config';
export { ServiceError, type FailureKind } from './errors';
export { TokenManager } from './tokens';
export {
  ServiceClient,
  MAX_ATTEMPTS,
  type Attempt,
  type Answer,
  type CardInput,
  type CreatePaymentInput,
  type RequestTrace,
} from './client';
export { isTerminal, type MethodResource, type PaymentResource, type RefundResource } from './resources';
export {
  Journal,
  SCHEMA_VERSION,
  reservationKey,
  type Operation,
  type OperationState,
  type RecoveredNotice,
} from './journal';
export { Poller } from './poller';
export {
  PaymentEngine,
  type BeginCheck,
  type EngineDeps,
  type EngineEvent,
  type EngineLogger,
  type MethodView,
  type PaymentView,
  type RecoveryProgress,
  type RecoveryReport,
} from './engine';
export { connectService, simulatorConfig, type ConnectedService, type ServiceSettings } from './connect';
export { dayIn, reservationBalance } from './balance';
export { JOURNAL_MOVE_IN } from './journal-move-in';
