/** Messaging: the 3DS link to the cardholder by e-mail (SMTP), SMS and WhatsApp (Twilio or a webhook), with a training outbox and an audit; plain Node, no Electron imports. */
export {
  createMessenger,
  type Messenger,
  type MessengerLogger,
  type MessengerOptions,
  type SendContext,
} from './messenger';
export {
  DEFAULT_MESSAGING_CONFIG,
  MESSAGING_SECRET_NAMES,
  MessagingConfigSchema,
  isLoopbackHost,
  type MessagingConfig,
  type MessagingConfigInput,
  type MessagingSecretName,
  type MessagingSecrets,
  type SmtpSettings,
  type TwilioSettings,
  type WebhookSettings,
} from './config';
export { DeliveryError, MessagingError, type MessagingErrorCode } from './errors';
export { MessagingAudit, AUDIT_SCHEMA_VERSION } from './audit';
export { OUTBOX_LIMIT, answerChallenge } from './outbox';
export { backoffDelay, type RetryPolicy } from './retry';
export { formatAmount, renderMessage, type RenderedMessage, type TemplateData } from './templates';
export { WEBHOOK_BODY_VERSION, webhookBody } from './transports/webhook';
