/** The one interface the IPC layer calls: send a payment's 3DS link, read its audit, and in training the outbox and the cardholder's part. */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { z } from 'zod';
import type { Environment } from '../../shared';
import {
  CardholderAnswer,
  MessageId,
  SendLinkRequest,
  maskDestination,
  type ChannelAvailability,
  type DeliveryFailure,
  type DeliveryRecordView,
  type DeliveryResult,
  type MessageChannel,
  type MessagingProvider,
  type OutboxMessageView,
  type PlayCardholderResult,
  type SendLinkRequestInput,
} from '../../shared/messaging';
import { MessagingAudit } from './audit';
import { MessagingConfigSchema, type MessagingConfig, type MessagingSecrets } from './config';
import { DeliveryError, MessagingError, networkFailure } from './errors';
import { TrainingOutbox, answerChallenge } from './outbox';
import { withRetry } from './retry';
import { oneLine, renderMessage, templateVariables } from './templates';
import { smtpTransport } from './transports/smtp';
import { twilioTransport } from './transports/twilio';
import type { OutgoingMessage, Transport, TransportDeps } from './transports/types';
import { webhookTransport } from './transports/webhook';

/** pino's logger fits; fields only ever hold ids, masked destinations, hosts, codes and counts. */
export interface MessengerLogger {
  info(fields: object, message?: string): void;
  warn(fields: object, message?: string): void;
}

/** What the IPC layer knows when the agent presses Send (from the engine's PaymentView and the reservation). */
export interface SendContext {
  /** The signed-in operator, from main's session (never from the renderer). */
  operatorId: string;
  /** Shown to the guest as the sender. */
  hotelName: string;
  payment: {
    id: string;
    amount: number;
    currency: string;
    /** When given, anything but requires_action means there is nothing to authenticate. */
    status?: string | undefined;
    brand?: string | undefined;
    last4?: string | undefined;
    /** The payment's nextAction.url. */
    nextActionUrl?: string | undefined;
  };
}

export interface MessengerOptions {
  /** Parsed with MessagingConfigSchema (defaults: nothing configured). */
  config?: unknown;
  /** Training captures every message in the outbox instead of sending it. */
  environment: Environment;
  secrets: MessagingSecrets;
  /** The app's data folder: the audit is kept there in messaging.db. */
  dataDir: string;
  logger?: MessengerLogger;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** The app's one fetch (Electron's net.fetch in the app): never the global one. */
  fetch: typeof fetch;
}

export interface Messenger {
  readonly environment: Environment;
  readonly config: MessagingConfig;
  /** Which channels this desk can send on, and through which provider. */
  channels(): ChannelAvailability[];
  /** Sends the payment's link; always resolves to the outcome for the agent (throws only on misuse: MessagingError). */
  send(request: SendLinkRequestInput, context: SendContext): Promise<DeliveryResult>;
  /** The audit rows of a payment, oldest first (masked destinations). */
  history(paymentId: string): DeliveryRecordView[];
  /** Training only: the captured messages, newest first. */
  outbox(): OutboxMessageView[];
  /** Training only: answers the captured message's challenge page as the cardholder would. */
  playCardholder(messageId: string, answer: CardholderAnswer): Promise<PlayCardholderResult>;
  close(): void;
}

const silentLogger: MessengerLogger = { info() {}, warn() {} };
const realSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const newMessageId = (): string => `msg_${randomBytes(16).toString('hex')}`;

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'The request is not valid.';
  const path = issue.path.map(String).join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}

/** Builds the messenger from validated settings; a bad configuration is refused with the field named. */
export function createMessenger(options: MessengerOptions): Messenger {
  const parsed = MessagingConfigSchema.safeParse(options.config ?? {});
  if (!parsed.success) throw new MessagingError('invalid_config', `Messaging settings: ${firstIssue(parsed.error)}.`);
  const config = parsed.data;
  const training = options.environment === 'training';
  const logger = options.logger ?? silentLogger;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? realSleep;
  const random = options.random ?? Math.random;
  const doFetch = options.fetch;
  const iso = (): string => new Date(now()).toISOString();

  const deps: TransportDeps = { secrets: options.secrets, timeoutMs: config.requestTimeoutMs, fetch: doFetch, now };
  const transports = new Map<MessageChannel, Transport>();
  if (!training) {
    const { email, sms, whatsapp } = config.providers;
    const build = (provider: string): Transport | undefined => {
      if (provider === 'smtp' && config.smtp) return smtpTransport(config.smtp, deps);
      if (provider === 'twilio' && config.twilio) return twilioTransport(config.twilio, deps);
      if (provider === 'webhook' && config.webhook) return webhookTransport(config.webhook, deps);
      return undefined;
    };
    for (const [channel, provider] of [['email', email], ['sms', sms], ['whatsapp', whatsapp]] as const) {
      const transport = build(provider);
      if (transport) transports.set(channel, transport);
    }
  }

  const audit = new MessagingAudit(join(options.dataDir, 'messaging.db'));
  const outbox = new TrainingOutbox();
  /** One send at a time per payment, channel and destination: a double click does not send twice. */
  const inFlight = new Map<string, Promise<DeliveryResult>>();

  const providerFor = (channel: MessageChannel): MessagingProvider => (training ? 'training_outbox' : (transports.get(channel)?.provider ?? 'none'));

  interface Attempt {
    messageId: string;
    paymentId: string;
    operatorId: string;
    channel: MessageChannel;
    to: string;
    language: 'es-MX' | 'en-US';
    provider: MessagingProvider;
    linkHost?: string | undefined;
  }

  type Outcome = { sent: true; providerMessageId?: string | undefined } | { sent: false; failure: DeliveryFailure };

  /** Closes the audit row, logs (masked, no link) and makes the agent's result. */
  function record(attempt: Attempt, attempts: number, outcome: Outcome): DeliveryResult {
    const at = iso();
    const failure = outcome.sent ? undefined : outcome.failure;
    audit.finished(attempt.messageId, {
      status: failure ? 'failed' : 'sent',
      attempts,
      failureCode: failure?.code,
      failureMessage: failure?.message,
      providerMessageId: outcome.sent ? outcome.providerMessageId : undefined,
      at,
    });
    const fields = {
      messageId: attempt.messageId,
      paymentId: attempt.paymentId,
      operatorId: attempt.operatorId,
      channel: attempt.channel,
      provider: attempt.provider,
      to: attempt.to,
      linkHost: attempt.linkHost,
      attempts,
    };
    const base = {
      messageId: attempt.messageId,
      paymentId: attempt.paymentId,
      channel: attempt.channel,
      to: attempt.to,
      provider: attempt.provider,
      training,
      attempts,
      at,
    };
    if (failure) {
      logger.warn({ ...fields, status: 'failed', failureCode: failure.code, retryable: failure.retryable }, 'messaging: 3DS link not sent');
      return { status: 'failed', ...base, failure };
    }
    logger.info({ ...fields, status: 'sent' }, training ? 'messaging: 3DS link captured in the training outbox' : 'messaging: 3DS link sent');
    return { status: 'sent', ...base };
  }

  function refuse(attempt: Attempt, failure: DeliveryFailure): DeliveryResult {
    audit.started({ ...attempt, destinationMasked: attempt.to, at: iso() });
    return record(attempt, 0, { sent: false, failure });
  }

  async function deliver(attempt: Attempt, message: OutgoingMessage): Promise<DeliveryResult> {
    audit.started({ ...attempt, destinationMasked: attempt.to, at: iso() });
    if (training) {
      outbox.add({
        id: message.id,
        paymentId: message.paymentId,
        operatorId: attempt.operatorId,
        channel: message.channel,
        to: attempt.to,
        language: message.language,
        subject: message.rendered.subject,
        text: message.rendered.text,
        link: message.link,
        createdAt: iso(),
        cardholder: 'waiting',
      });
      return record(attempt, 1, { sent: true });
    }
    const transport = transports.get(message.channel);
    if (!transport) {
      const failure = new DeliveryError('not_configured', `Sending by ${message.channel} is not set up on this desk.`, false).toFailure();
      return record(attempt, 0, { sent: false, failure });
    }
    const outcome = await withRetry(() => transport.send(message), config.retry, { sleep, random }, (error) => networkFailure(error, `the ${transport.provider} provider`));
    return outcome.ok
      ? record(attempt, outcome.attempts, { sent: true, providerMessageId: outcome.value.providerMessageId })
      : record(attempt, outcome.attempts, { sent: false, failure: outcome.error.toFailure() });
  }

  async function send(input: SendLinkRequestInput, context: SendContext): Promise<DeliveryResult> {
    const parsed = SendLinkRequest.safeParse(input);
    const destinationOnly = !parsed.success && parsed.error.issues.every((issue) => issue.path[0] === 'destination');
    if (!parsed.success && !destinationOnly) throw new MessagingError('invalid_request', firstIssue(parsed.error));
    const operatorId = typeof context.operatorId === 'string' ? context.operatorId.trim() : '';
    if (operatorId === '') throw new MessagingError('invalid_request', 'The operator who sends the link is missing.');
    const hotelName = oneLine(typeof context.hotelName === 'string' ? context.hotelName : '');
    if (hotelName === '' || hotelName.length > 100) throw new MessagingError('invalid_request', 'The hotel name must have 1 to 100 characters.');

    // The request's shape is valid here (only its destination may not be).
    const request: SendLinkRequestInput = parsed.success ? parsed.data : input;
    if (context.payment.id !== request.paymentId) throw new MessagingError('invalid_request', 'The payment given does not match the request.');
    const channel = request.channel;
    const attempt: Attempt = {
      messageId: newMessageId(),
      paymentId: request.paymentId,
      operatorId,
      channel,
      to: maskDestination(channel, String(request.destination)),
      language: request.language,
      provider: providerFor(channel),
    };

    if (!parsed.success) {
      const reason = parsed.error.issues[0]?.message ?? 'The destination is not valid.';
      return refuse(attempt, { code: 'invalid_destination', message: `${reason} Nothing was sent.`, retryable: false });
    }

    const { status, nextActionUrl } = context.payment;
    if ((status !== undefined && status !== 'requires_action') || nextActionUrl === undefined || nextActionUrl === '') {
      return refuse(attempt, {
        code: 'no_link',
        message: 'This payment is not waiting for the cardholder’s authentication, so there is no link to send.',
        retryable: false,
      });
    }
    let link: URL;
    try {
      link = new URL(nextActionUrl);
    } catch {
      return refuse(attempt, { code: 'invalid_link', message: 'The payment’s authentication link is not a valid address; it was not sent.', retryable: false });
    }
    attempt.linkHost = link.host;
    if (link.protocol !== 'https:' && !(training && link.protocol === 'http:')) {
      return refuse(attempt, {
        code: 'invalid_link',
        message: 'The payment’s authentication link is not an https link, so it was not sent to the guest. IT must check the service settings.',
        retryable: false,
      });
    }
    if (attempt.provider === 'none') {
      return refuse(attempt, {
        code: 'not_configured',
        message: `Sending by ${channel === 'email' ? 'e-mail' : channel === 'sms' ? 'SMS' : 'WhatsApp'} is not set up on this desk. Choose another channel, and ask IT to set it up.`,
        retryable: false,
      });
    }

    const key = `${request.paymentId}|${channel}|${request.destination}`;
    const running = inFlight.get(key);
    if (running) return running;

    const data = {
      hotelName,
      amount: context.payment.amount,
      currency: context.payment.currency,
      brand: context.payment.brand,
      last4: context.payment.last4,
      link: nextActionUrl,
    };
    const message: OutgoingMessage = {
      id: attempt.messageId,
      paymentId: request.paymentId,
      channel,
      to: request.destination,
      language: request.language,
      hotelName,
      rendered: renderMessage(channel, request.language, data),
      link: nextActionUrl,
      variables: templateVariables(request.language, data),
    };
    const delivery = deliver(attempt, message).finally(() => inFlight.delete(key));
    inFlight.set(key, delivery);
    return delivery;
  }

  function requireTraining(action: string): void {
    if (!training) throw new MessagingError('training_only', `${action} is available only in training mode.`);
  }

  return {
    environment: options.environment,
    config,
    channels: () =>
      (['sms', 'whatsapp', 'email'] as const).map((channel) => {
        const provider = providerFor(channel);
        return { channel, provider, available: provider !== 'none' };
      }),
    send,
    history: (paymentId) => audit.forPayment(paymentId),
    outbox() {
      requireTraining('The training outbox');
      return outbox.list();
    },
    async playCardholder(messageId, answer) {
      requireTraining('Playing the cardholder');
      if (!MessageId.safeParse(messageId).success) throw new MessagingError('invalid_request', 'This is not a message id.');
      const parsedAnswer = CardholderAnswer.safeParse(answer);
      if (!parsedAnswer.success) throw new MessagingError('invalid_request', 'Choose approve or decline.');
      const message = outbox.get(messageId);
      if (!message) throw new MessagingError('unknown_message', 'This message is not in the training outbox (it is cleared when the app restarts).');
      if (message.cardholder === 'approved' || message.cardholder === 'declined') {
        const view = outbox.view(messageId);
        if (view) return { message: view, note: `The cardholder already ${message.cardholder} this payment.` };
      }
      const answered = await answerChallenge(message.link, parsedAnswer.data, { fetch: doFetch, timeoutMs: config.requestTimeoutMs });
      message.cardholder = answered.state;
      message.answeredAt = iso();
      logger.info({ messageId, paymentId: message.paymentId, answer: parsedAnswer.data, cardholder: answered.state }, 'messaging: training cardholder answered');
      const view = outbox.view(messageId);
      if (!view) throw new MessagingError('unknown_message', 'This message is no longer in the training outbox.');
      return { message: view, note: answered.note };
    },
    close() {
      outbox.clear();
      audit.close();
    },
  };
}
