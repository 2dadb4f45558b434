/** The payment engine: talks to the Card Payment Service for the app; plain Node, no Electron imports. */
export { ServiceConfigSchema, type SecretStore, type ServiceConfig } from './config';
export { ServiceError, type FailureKind } from './errors';
export { TokenManager } from './tokens';
export { ServiceClient, MAX_ATTEMPTS, type Attempt, type Answer, type CardInput, type CreatePaymentInput } from './client';
export { isTerminal, type MethodResource, type PaymentResource, type RefundResource } from './resources';
