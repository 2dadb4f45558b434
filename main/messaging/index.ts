/** Messaging: the 3DS link to the cardholder by e-mail (SMTP), SMS and WhatsApp (Twilio or a webhook), and a paid payment's receipt, its delivery followed until final, a training outbox and an audit; plain Node, no Electron imports. */
export {
  FOLLOW_DELAYS_MS,
  LINK_LIFETIME_MS,
  MIN_VALIDITY_S,
  RECEIPT_VALIDITY_S,
  RESEND_CONFIRM_WINDOW_MS,
  createMessenger,
  type Messenger,
  type MessengerLogger,
  type MessengerOptions,
  type ReceiptContext,
  type SendContext,
} from './messenger';
export {
  DEFAULT_MESSAGING_CONFIG,
  MESSAGING_SECRET_NAMES,
  MessagingConfigSchema,
  STATUS_URL_PLACEHOLDER,
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
export { AUDIT_SCHEMA_VERSION, DELIVERIES_STORE, MessagingAudit, type AuditStart, type AuditStatus } from './audit';
export { OUTBOX_LIMIT, answerChallenge } from './outbox';
export { SECOND_LOOK_DELAY_MS, backoffDelay, submit, type RetryPolicy } from './retry';
export {
  formatAmount,
  gsmFriendly,
  renderMessage,
  renderReceipt,
  smsSegments,
  smsText,
  type ReceiptData,
  type RenderedMessage,
  type TemplateData,
} from './templates';
export { WEBHOOK_BODY_VERSION, WEBHOOK_FAILURES, webhookBody } from './transports/webhook';
export { MESSAGE_SID, TWILIO_MESSAGE_STATUSES } from './transports/twilio';
export { DELIVERIES_MOVE_IN } from './move-in';
