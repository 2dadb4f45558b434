/**
 * The one interface the IPC layer calls: send a payment's 3DS link, follow its delivery until it is final (each status
 * to the audit and to `onDelivery` listeners), read its audit, and in training the outbox and the cardholder's part.
 */
import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import {
  CardholderAnswer,
  MessageId,
  SendLinkRequest,
  SendReceiptRequest,
  maskDestination,
  type DeliveryResult,
  type SendLinkOutcome,
  type SendLinkRequestInput,
} from '../../shared/messaging';
import { zodRefusal } from '../errors';
import { MessagingConfigSchema } from './config';
import { type Attempt, buildTransports, channelName, createDeliveries } from './delivery';
import { DeliveryError, MessagingError } from './errors';
import {
  LINK_LIFETIME_MS,
  MIN_VALIDITY_S,
  RECEIPT_VALIDITY_S,
  RESEND_CONFIRM_WINDOW_MS,
  type Messenger,
  type MessengerLogger,
  type MessengerOptions,
  type ReceiptContext,
  type SendContext,
} from './messenger-types';
import { TrainingOutbox, answerChallenge } from './outbox';
import { deliveryRecorder } from './recorder';
import { oneLine, renderMessage, renderReceipt, templateVariables } from './templates';
import type { OutgoingMessage, TransportDeps } from './transports/types';

export * from './messenger-types';

const silentLogger: MessengerLogger = { info() {}, warn() {} };
const realSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const newMessageId = (): string => `msg_${randomBytes(16).toString('hex')}`;

/** A request that fails its schema: invalid_request naming the field (never the value). */
const refusalOf = (error: z.ZodError): { field?: string } => {
  const { field } = zodRefusal(error, 'invalid_request');
  return field === undefined ? {} : { field };
};

/** Messaging is closing (the app quits, or the settings changed): nothing more is sent. */
const shuttingDown = (): MessagingError => new MessagingError('invalid_request', { params: { closing: true } });

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'The request is not valid.';
  const path = issue.path.map(String).join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}

/** A message that has no answer yet: nothing final from the provider, or it may not have been sent at all. */
const unanswered = (result: DeliveryResult): boolean =>
  result.status === 'unknown' || (!result.final && (result.status === 'queued' || result.status === 'sent'));

/** Builds the messenger from validated settings; a bad configuration is refused with the field named. */
export function createMessenger(options: MessengerOptions): Messenger {
  const parsed = MessagingConfigSchema.safeParse(options.config ?? {});
  if (!parsed.success) throw new MessagingError('invalid_config', `Messaging settings: ${firstIssue(parsed.error)}.`);
  const config = parsed.data;
  const training = options.environment === 'training';
  const outboxOnly = training && options.trainingOutbox !== false;
  const logger = options.logger ?? silentLogger;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? realSleep;
  const random = options.random ?? Math.random;
  const doFetch = options.fetch;
  const iso = (): string => new Date(now()).toISOString();

  let closed = false;
  const deps: TransportDeps = { secrets: options.secrets, timeoutMs: config.requestTimeoutMs, fetch: doFetch, now };
  const transports = buildTransports(config, deps, outboxOnly);
  const audit = deliveryRecorder(options, logger);
  const outbox = new TrainingOutbox();
  const deliveries = createDeliveries({
    config,
    transports,
    outboxOnly,
    audit,
    outbox,
    logger,
    now,
    sleep,
    random,
    followSleep: options.followSleep,
    isClosed: () => closed,
  });
  const { providerFor, deliver, refuse, listeners, following } = deliveries;
  /** One send at a time per payment, channel and destination: a double click does not send twice. */
  const inFlight = new Map<string, Promise<SendLinkOutcome>>();

  /**
   * When the link stops working (epoch ms): the service's word, or the lifetime from when the payment began waiting —
   * never further off than a whole lifetime from now (the service's clock may be ahead of the desk's).
   */
  function linkExpiry(payment: SendContext['payment']): number {
    const whole = now() + LINK_LIFETIME_MS;
    const told = Date.parse(payment.linkExpiresAt ?? '');
    if (!Number.isNaN(told)) return Math.min(whole, told);
    const since = Date.parse(payment.waitingSince ?? '');
    return Math.min(whole, Number.isNaN(since) ? Number.POSITIVE_INFINITY : since + LINK_LIFETIME_MS);
  }

  async function send(input: SendLinkRequestInput, context: SendContext): Promise<SendLinkOutcome> {
    const parsed = SendLinkRequest.safeParse(input);
    const destinationOnly = !parsed.success && parsed.error.issues.every((issue) => issue.path[0] === 'destination');
    if (!parsed.success && !destinationOnly) throw new MessagingError('invalid_request', refusalOf(parsed.error));
    const operatorId = typeof context.operatorId === 'string' ? context.operatorId.trim() : '';
    if (operatorId === '') throw new MessagingError('invalid_request', { field: 'operatorId' });
    const hotelName = oneLine(typeof context.hotelName === 'string' ? context.hotelName : '');
    if (hotelName === '' || hotelName.length > 100) throw new MessagingError('invalid_request', { field: 'hotelName' });
    if (closed) throw shuttingDown();

    // The request's shape is valid here (only its destination may not be).
    const request: SendLinkRequestInput = parsed.success ? parsed.data : input;
    if (context.payment.id !== request.paymentId) throw new MessagingError('invalid_request', { field: 'paymentId' });
    const channel = request.channel;
    const attempt: Attempt = {
      messageId: newMessageId(),
      paymentId: request.paymentId,
      operatorId,
      channel,
      to: maskDestination(channel, String(request.destination)),
      language: request.language,
      provider: providerFor(channel),
      startedAt: now(),
      attempts: 0,
    };

    if (!parsed.success) {
      const reason = parsed.error.issues[0]?.message ?? 'The destination is not valid.';
      return refuse(attempt, new DeliveryError('invalid_destination', `${reason} Nothing was sent.`, false));
    }

    const { status, nextActionUrl } = context.payment;
    if ((status !== undefined && status !== 'requires_action') || nextActionUrl === undefined || nextActionUrl === '') {
      return refuse(
        attempt,
        new DeliveryError(
          'no_link',
          'This payment is not waiting for the cardholder’s authentication, so there is no link to send.',
          false,
        ),
      );
    }
    let link: URL;
    try {
      link = new URL(nextActionUrl);
    } catch {
      return refuse(
        attempt,
        new DeliveryError(
          'invalid_link',
          'The payment’s authentication link is not a valid address; it was not sent.',
          false,
        ),
      );
    }
    attempt.linkHost = link.host;
    if (link.protocol !== 'https:' && !(training && link.protocol === 'http:')) {
      return refuse(
        attempt,
        new DeliveryError(
          'invalid_link',
          'The payment’s authentication link is not an https link, so it was not sent to the guest. IT must check the service settings.',
          false,
        ),
      );
    }
    if (attempt.provider === 'none') {
      return refuse(
        attempt,
        new DeliveryError(
          'not_configured',
          `Sending by ${channelName(channel)} is not set up on this desk. Choose another channel, and ask IT to set it up.`,
          false,
        ),
      );
    }

    const key = `${request.paymentId}|${channel}|${request.destination}`;
    // The same message pressed twice joins the one on its way. Another send of the same payment (another number or
    // channel) waits for it, then meets the confirmation below with its answer: two at once would both go.
    for (;;) {
      const running = inFlight.get(key);
      if (running) return running;
      const other = [...inFlight].find(([k]) => k.startsWith(`${request.paymentId}|`))?.[1];
      if (!other) break;
      await other.catch(() => undefined);
      if (closed) throw shuttingDown();
    }

    // Registered before anything is awaited: a second press of the same message joins this one.
    const go = async (): Promise<SendLinkOutcome> => {
      const previous = await deliveries.previous(request.paymentId);
      if (
        previous &&
        request.confirmResend !== true &&
        now() - previous.sentAt < RESEND_CONFIRM_WINDOW_MS &&
        unanswered(previous.result)
      ) {
        logger.info(
          { paymentId: request.paymentId, previous: previous.result.messageId, status: previous.result.status },
          'messaging: re-send within a minute of an unanswered link: asking the agent',
        );
        return { status: 'confirm_resend', previous: previous.result, sentAt: new Date(previous.sentAt).toISOString() };
      }

      const data = {
        hotelName,
        amount: context.payment.amount,
        currency: context.payment.currency,
        brand: context.payment.brand,
        last4: context.payment.last4,
        link: nextActionUrl,
      };
      const expiresAt = linkExpiry(context.payment);
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
        validitySeconds: Math.max(MIN_VALIDITY_S, Math.floor((expiresAt - now()) / 1000)),
      };
      const deadline = Math.max(expiresAt, now() + MIN_VALIDITY_S * 1000);
      return deliver(attempt, message, deadline);
    };
    const delivery = go().finally(() => inFlight.delete(key));
    inFlight.set(key, delivery);
    return delivery;
  }

  async function sendReceipt(input: unknown, context: ReceiptContext): Promise<DeliveryResult> {
    const parsed = SendReceiptRequest.safeParse(input);
    if (!parsed.success) throw new MessagingError('invalid_request', refusalOf(parsed.error));
    const request = parsed.data;
    const language = request.language ?? context.guestLanguage;
    const operatorId = context.operatorId.trim();
    if (operatorId === '') throw new MessagingError('invalid_request', { field: 'operatorId' });
    const hotelName = oneLine(context.hotelName);
    if (hotelName === '' || hotelName.length > 100) throw new MessagingError('invalid_request', { field: 'hotelName' });
    if (closed) throw shuttingDown();
    if (context.payment.id !== request.paymentId) throw new MessagingError('invalid_request', { field: 'paymentId' });
    if (context.payment.status !== 'succeeded') throw new MessagingError('receipt_not_available');
    const attempt: Attempt = {
      messageId: newMessageId(),
      paymentId: request.paymentId,
      operatorId,
      channel: request.channel,
      to: maskDestination(request.channel, request.destination),
      language,
      provider: providerFor(request.channel),
      startedAt: now(),
      attempts: 0,
    };
    if (attempt.provider === 'none') {
      return refuse(
        attempt,
        new DeliveryError(
          'not_configured',
          `Sending by ${channelName(request.channel)} is not set up on this desk. Choose another channel, and ask IT to set it up.`,
          false,
        ),
      );
    }
    const message: OutgoingMessage = {
      id: attempt.messageId,
      paymentId: request.paymentId,
      channel: request.channel,
      to: request.destination,
      language,
      hotelName,
      kind: 'receipt',
      rendered: renderReceipt(request.channel, language, {
        hotelName,
        amount: context.payment.amount,
        currency: context.payment.currency,
        brand: context.payment.brand,
        last4: context.payment.last4,
        reference: context.payment.reference,
      }),
      link: '',
      variables: {},
      validitySeconds: RECEIPT_VALIDITY_S,
    };
    return deliver(attempt, message, now() + RECEIPT_VALIDITY_S * 1000);
  }

  function requireTraining(): void {
    if (!training) throw new MessagingError('training_only');
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
    sendReceipt,
    onDelivery(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async idle() {
      while (inFlight.size > 0 || following.size > 0) await Promise.allSettled([...inFlight.values(), ...following]);
    },
    history: (paymentId) => audit.forPayment(paymentId),
    outbox() {
      requireTraining();
      return outbox.list();
    },
    async playCardholder(messageId, answer) {
      requireTraining();
      if (!MessageId.safeParse(messageId).success) throw new MessagingError('invalid_request', { field: 'messageId' });
      const parsedAnswer = CardholderAnswer.safeParse(answer);
      if (!parsedAnswer.success) throw new MessagingError('invalid_request', { field: 'answer' });
      const message = outbox.get(messageId);
      if (!message) throw new MessagingError('unknown_message');
      if (message.link === '') throw new MessagingError('invalid_request', { field: 'messageId' });
      if (message.cardholder === 'approved' || message.cardholder === 'declined') {
        const view = outbox.view(messageId);
        if (view) return { message: view, note: `The cardholder already ${message.cardholder} this payment.` };
      }
      const answered = await answerChallenge(message.link, parsedAnswer.data, {
        fetch: doFetch,
        timeoutMs: config.requestTimeoutMs,
      });
      message.cardholder = answered.state;
      message.answeredAt = iso();
      logger.info(
        { messageId, paymentId: message.paymentId, answer: parsedAnswer.data, cardholder: answered.state },
        'messaging: training cardholder answered',
      );
      const view = outbox.view(messageId);
      if (!view) throw new MessagingError('unknown_message');
      return { message: view, note: answered.note };
    },
    async close() {
      if (!closed) {
        closed = true;
        deliveries.stop();
        outbox.clear();
      }
      await audit.close();
    },
  };
}
