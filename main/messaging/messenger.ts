/**
 * The one interface the IPC layer calls: send a payment's 3DS link, follow its delivery until it is final (each status
 * to the audit and to `onDelivery` listeners), read its audit, and in training the outbox and the cardholder's part.
 */
import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import type { Environment } from '../../shared';
import {
  CardholderAnswer,
  MessageId,
  SendLinkRequest,
  SendReceiptRequest,
  maskDestination,
  type ChannelAvailability,
  type DeliveryFailure,
  type DeliveryRecordView,
  type DeliveryResult,
  type MessageChannel,
  type MessageLanguage,
  type MessagingProvider,
  type OutboxMessageView,
  type PlayCardholderResult,
  type SendLinkOutcome,
  type SendLinkRequestInput,
} from '../../shared/messaging';
import { embeddedStorage, type Storage } from '../storage';
import { zodRefusal } from '../errors';
import { MessagingAudit } from './audit';
import { MessagingConfigSchema, type MessagingConfig, type MessagingSecrets } from './config';
import { DeliveryError, MessagingError, networkFailure } from './errors';
import { TrainingOutbox, answerChallenge } from './outbox';
import { submit } from './retry';
import { oneLine, renderMessage, renderReceipt, templateVariables } from './templates';
import { smtpTransport } from './transports/smtp';
import { twilioTransport } from './transports/twilio';
import type { OutgoingMessage, ProviderStatus, Transport, TransportDeps } from './transports/types';
import { webhookTransport } from './transports/webhook';

/** How long a 3DS challenge link lives once the payment waits for the cardholder (interface-decisions §7). */
export const LINK_LIFETIME_MS = 15 * 60_000;
/** The shortest validity a message is given, even when the link has less left (the desk's clock may be behind). */
export const MIN_VALIDITY_S = 60;
/** A re-send within this time of a message that has no answer yet is sent only once the agent confirms. */
export const RESEND_CONFIRM_WINDOW_MS = 60_000;
/** The waits between two reads of a message's status: short at first, when most changes come, then every 30 s. */
export const FOLLOW_DELAYS_MS = [1_000, 2_000, 3_000, 5_000, 8_000, 13_000, 20_000, 30_000] as const;

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
    /** When the payment began waiting for the cardholder (its updatedAt while requires_action): the link's lifetime starts there. */
    waitingSince?: string | undefined;
    /** When the link expires, when the service says so (it wins over waitingSince). */
    linkExpiresAt?: string | undefined;
  };
}

/** What the IPC layer knows when the agent sends a receipt (from the engine's records and the reservation). */
export interface ReceiptContext {
  operatorId: string;
  hotelName: string;
  /** The guest's language (the reservation's, or its phone's country): the receipt's when the request names none. */
  guestLanguage: MessageLanguage;
  payment: {
    id: string;
    amount: number;
    currency: string;
    status: string;
    brand?: string | undefined;
    last4?: string | undefined;
    reference: string;
  };
}

/** How long a receipt's SMS may wait at the provider before it is no longer worth delivering. */
export const RECEIPT_VALIDITY_S = 4 * 60 * 60;

export interface MessengerOptions {
  /** Parsed with MessagingConfigSchema (defaults: nothing configured). */
  config?: unknown;
  /** Training captures every message in the outbox instead of sending it (see trainingOutbox). */
  environment: Environment;
  secrets: MessagingSecrets;
  /**
   * Where deliveries are recorded: the stack opens them on its storage (the embedded files or the center). Without it,
   * `dataDir`'s messaging.db is opened for `deskId` (tests, tools), and closed with the messenger.
   */
  deliveries?: MessagingAudit | undefined;
  /** The data folder whose messaging.db is used when no `deliveries` is given. */
  dataDir?: string | undefined;
  /** The desk that records deliveries when no `deliveries` is given ("local" by default). */
  deskId?: string | undefined;
  logger?: MessengerLogger;
  now?: () => number;
  /** The waits between tries of one request. */
  sleep?: (ms: number) => Promise<void>;
  /** The waits between reads of a message's status while it is followed (the real timers by default, ended by close()). */
  followSleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** The app's one fetch (Electron's net.fetch in the app): never the global one. */
  fetch: typeof fetch;
  /**
   * Training only: false sends through the configured providers instead of the outbox. The app never sets it; the
   * end-to-end tests do, to send a training payment's link through a Twilio-shaped server on this computer.
   */
  trainingOutbox?: boolean;
}

export interface Messenger {
  readonly environment: Environment;
  readonly config: MessagingConfig;
  /** Which channels this desk can send on, and through which provider. */
  channels(): ChannelAvailability[];
  /**
   * Sends the payment's link and answers its first status (later ones go to onDelivery listeners), or asks for a
   * confirmation (confirm_resend). Throws only on misuse (MessagingError).
   */
  send(request: SendLinkRequestInput, context: SendContext): Promise<SendLinkOutcome>;
  /**
   * Sends a succeeded payment's receipt (amount, card brand and last 4, short reference) by SMS or e-mail, in the
   * language asked (the guest's), through the same providers, audit and training outbox as a link. Answers its first
   * status; a payment that did not succeed has no receipt (`receipt_not_available`).
   */
  sendReceipt(request: unknown, context: ReceiptContext): Promise<DeliveryResult>;
  /** Every status of every message, the first one included, as main learns it. */
  onDelivery(listener: (result: DeliveryResult) => void): () => void;
  /** Resolves once no message is being followed (tests; shutting down). */
  idle(): Promise<void>;
  /** The audit rows of a payment, oldest first (masked destinations), whichever desk sent them. */
  history(paymentId: string): Promise<DeliveryRecordView[]>;
  /** Training only: the captured messages, newest first. */
  outbox(): OutboxMessageView[];
  /** Training only: answers the captured message's challenge page as the cardholder would. */
  playCardholder(messageId: string, answer: CardholderAnswer): Promise<PlayCardholderResult>;
  /** Stops following messages; resolves once what was recorded is written (and the audit it opened itself is closed). */
  close(): Promise<void>;
}

const silentLogger: MessengerLogger = { info() {}, warn() {} };
const realSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const newMessageId = (): string => `msg_${randomBytes(16).toString('hex')}`;
const channelName = (channel: MessageChannel): string =>
  channel === 'email' ? 'e-mail' : channel === 'sms' ? 'SMS' : 'WhatsApp';

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
  /** The follow waits in progress, ended at once by close(). */
  const waits = new Set<() => void>();
  const followSleep =
    options.followSleep ??
    ((ms: number): Promise<void> =>
      new Promise((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          waits.delete(done);
          resolve();
        };
        const timer = setTimeout(done, ms);
        waits.add(done);
      }));

  const deps: TransportDeps = { secrets: options.secrets, timeoutMs: config.requestTimeoutMs, fetch: doFetch, now };
  const transports = new Map<MessageChannel, Transport>();
  if (!outboxOnly) {
    const { email, sms, whatsapp } = config.providers;
    const build = (provider: string): Transport | undefined => {
      if (provider === 'smtp' && config.smtp) return smtpTransport(config.smtp, deps);
      if (provider === 'twilio' && config.twilio) return twilioTransport(config.twilio, deps);
      if (provider === 'webhook' && config.webhook) return webhookTransport(config.webhook, deps);
      return undefined;
    };
    for (const [channel, provider] of [
      ['email', email],
      ['sms', sms],
      ['whatsapp', whatsapp],
    ] as const) {
      const transport = build(provider);
      if (transport) transports.set(channel, transport);
    }
  }

  // The deliveries the stack opened, or messaging.db in dataDir (opened here, closed with the messenger).
  if (options.deliveries === undefined && options.dataDir === undefined)
    throw new Error('createMessenger needs deliveries or a dataDir.');
  const ownStorage = options.deliveries === undefined ? embeddedStorage(options.dataDir ?? '') : undefined;
  const opening: Promise<MessagingAudit> =
    options.deliveries !== undefined
      ? Promise.resolve(options.deliveries)
      : MessagingAudit.open(ownStorage as Storage, { deskId: options.deskId ?? 'local' });
  // Not waited for here: a failure to open is the first send's (or history's) error.
  opening.catch(() => undefined);
  /** Statuses are written in the order they were reached, after the row the send began with. */
  let writes: Promise<unknown> = Promise.resolve();
  const audit = {
    /** Written before anything leaves the desk: a failure here stops the send (nothing was sent, the error says why). */
    started: async (entry: Parameters<MessagingAudit['started']>[0]): Promise<void> => {
      const written = writes.then(async () => (await opening).started(entry));
      writes = written.catch(() => undefined);
      await written;
    },
    /** Recorded in order, never waited for by the agent's answer; a failure is logged. */
    reached: (messageId: string, update: Parameters<MessagingAudit['reached']>[1]): void => {
      const written = writes.then(async () => (await opening).reached(messageId, update));
      writes = written.catch((error: unknown) => {
        logger.warn(
          { messageId, error: error instanceof Error ? error.name : 'unknown' },
          'messaging: a delivery status could not be recorded',
        );
      });
    },
    /** What was recorded before is always in what is read. */
    forPayment: async (paymentId: string): Promise<DeliveryRecordView[]> => {
      await writes;
      return (await opening).forPayment(paymentId);
    },
    providerIds: async (paymentId: string): Promise<string[]> => {
      await writes;
      return (await opening).providerIds(paymentId);
    },
    close: async (): Promise<void> => {
      await writes;
      if (ownStorage !== undefined) await ownStorage.close();
    },
  };
  const outbox = new TrainingOutbox();
  /** One send at a time per payment, channel and destination: a double click does not send twice. */
  const inFlight = new Map<string, Promise<SendLinkOutcome>>();
  /** Each payment's latest message, for the confirmation a quick re-send asks for. */
  const latest = new Map<string, { result: DeliveryResult; sentAt: number }>();
  const listeners = new Set<(result: DeliveryResult) => void>();
  const following = new Set<Promise<void>>();

  const providerFor = (channel: MessageChannel): MessagingProvider =>
    outboxOnly ? 'training_outbox' : (transports.get(channel)?.provider ?? 'none');

  interface Attempt {
    messageId: string;
    paymentId: string;
    operatorId: string;
    channel: MessageChannel;
    to: string;
    language: 'es-MX' | 'en-US';
    provider: MessagingProvider;
    linkHost?: string | undefined;
    /** When the first request left (epoch ms). */
    startedAt: number;
    attempts: number;
  }

  type Reached =
    | {
        status: 'queued' | 'sent' | 'delivered' | 'read';
        final: boolean;
        providerStatus?: string | undefined;
        providerMessageId?: string | undefined;
      }
    | {
        status: 'failed' | 'unknown';
        final: true;
        error: DeliveryError;
        providerStatus?: string | undefined;
        providerMessageId?: string | undefined;
      };

  /** Records a status (audit, log), makes the agent's result and tells the listeners. */
  function publish(attempt: Attempt, reached: Reached): DeliveryResult {
    const at = iso();
    const failure: DeliveryFailure | undefined = 'error' in reached ? reached.error.toFailure() : undefined;
    if (!closed) {
      audit.reached(attempt.messageId, {
        status: reached.status,
        final: reached.final,
        at,
        attempts: attempt.attempts,
        providerStatus: reached.providerStatus,
        providerMessageId: reached.providerMessageId,
        failure: 'error' in reached ? { ...reached.error.toFailure(), moreInfo: reached.error.moreInfo } : undefined,
      });
    }
    const base = {
      messageId: attempt.messageId,
      paymentId: attempt.paymentId,
      channel: attempt.channel,
      to: attempt.to,
      provider: attempt.provider,
      training: outboxOnly,
      attempts: attempt.attempts,
      at,
      final: reached.final,
    };
    const result: DeliveryResult = failure
      ? { status: reached.status as 'failed' | 'unknown', ...base, failure }
      : { status: reached.status as 'queued', ...base };
    const fields = {
      messageId: attempt.messageId,
      paymentId: attempt.paymentId,
      operatorId: attempt.operatorId,
      channel: attempt.channel,
      provider: attempt.provider,
      to: attempt.to,
      linkHost: attempt.linkHost,
      attempts: attempt.attempts,
      status: reached.status,
      final: reached.final,
    };
    if (failure) {
      logger.warn(
        { ...fields, failureCode: failure.code, actor: failure.actor, providerCode: failure.providerCode },
        reached.status === 'unknown' ? 'messaging: 3DS link may have been sent' : 'messaging: 3DS link not delivered',
      );
    } else {
      logger.info(
        fields,
        outboxOnly ? 'messaging: 3DS link captured in the training outbox' : `messaging: 3DS link ${reached.status}`,
      );
    }
    // The payment's latest message that left the desk (a refusal sent nothing, so it does not count).
    const previous = latest.get(attempt.paymentId);
    if (
      attempt.attempts > 0 &&
      (!previous || previous.result.messageId === attempt.messageId || previous.sentAt <= attempt.startedAt)
    ) {
      latest.set(attempt.paymentId, { result, sentAt: attempt.startedAt });
    }
    for (const listener of listeners) {
      try {
        listener(result);
      } catch (error) {
        logger.warn(
          { messageId: attempt.messageId, error: error instanceof Error ? error.name : 'unknown' },
          'messaging: a delivery listener failed',
        );
      }
    }
    return result;
  }

  async function refuse(attempt: Attempt, failure: DeliveryError): Promise<DeliveryResult> {
    await audit.started({ ...attempt, destinationMasked: attempt.to, at: iso() });
    return publish(attempt, { status: 'failed', final: true, error: failure });
  }

  /** Reads the message's status on a short backoff until it is final or the link has expired; each change is published. */
  async function follow(
    attempt: Attempt,
    transport: Transport,
    ref: string,
    deadline: number,
    first: ProviderStatus,
  ): Promise<void> {
    if (!transport.status) return;
    let current = first;
    for (let n = 0; !closed; n++) {
      const left = deadline - now();
      if (left <= 0) break;
      await followSleep(Math.min(FOLLOW_DELAYS_MS[Math.min(n, FOLLOW_DELAYS_MS.length - 1)] ?? 30_000, left));
      if (closed) return;
      let next: ProviderStatus;
      try {
        next = await transport.status(ref);
      } catch (error) {
        // The provider could not be asked this time: asked again at the next step.
        const failure =
          error instanceof DeliveryError ? error : networkFailure(error, `the ${transport.provider} provider`);
        logger.warn(
          { messageId: attempt.messageId, provider: transport.provider, failureCode: failure.code },
          'messaging: delivery status not read',
        );
        continue;
      }
      if (closed) return;
      const changed = next.status !== current.status || next.providerStatus !== current.providerStatus;
      if (next.final || changed) {
        current = next;
        publish(attempt, reachedOf(next, next.final));
      }
      if (next.final) return;
    }
    // The link has expired (or the app is closing): what is known now is all there will be.
    if (!closed) publish(attempt, reachedOf(current, true));
  }

  function reachedOf(status: ProviderStatus, final: boolean, providerMessageId?: string): Reached {
    if (status.status === 'failed') {
      const error =
        status.failure ?? new DeliveryError('undelivered', 'The provider could not deliver the message.', true);
      return { status: 'failed', final: true, error, providerStatus: status.providerStatus, providerMessageId };
    }
    return { status: status.status, final, providerStatus: status.providerStatus, providerMessageId };
  }

  function startFollowing(
    attempt: Attempt,
    transport: Transport,
    ref: string,
    deadline: number,
    first: ProviderStatus,
  ): void {
    const run = follow(attempt, transport, ref, deadline, first)
      .catch((error: unknown) => {
        logger.warn(
          { messageId: attempt.messageId, error: error instanceof Error ? error.name : 'unknown' },
          'messaging: following a delivery stopped',
        );
      })
      .finally(() => following.delete(run));
    following.add(run);
  }

  async function deliver(attempt: Attempt, message: OutgoingMessage, deadline: number): Promise<DeliveryResult> {
    await audit.started({ ...attempt, destinationMasked: attempt.to, at: iso() });
    if (outboxOnly) {
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
        // A receipt carries no link: nothing for the trainee's cardholder to answer.
        cardholder: message.link === '' ? 'none' : 'waiting',
      });
      attempt.attempts = 1;
      return publish(attempt, { status: 'sent', final: true, providerStatus: 'captured' });
    }
    const transport = transports.get(message.channel);
    if (!transport)
      return publish(attempt, {
        status: 'failed',
        final: true,
        error: new DeliveryError(
          'not_configured',
          `Sending by ${channelName(message.channel)} is not set up on this desk.`,
          false,
        ),
      });

    const known = new Set(await audit.providerIds(attempt.paymentId));
    const find = transport.find?.bind(transport);
    const outcome = await submit(
      {
        send: (n) => {
          // The app closed during a wait between tries: nothing more leaves (and nothing could be recorded).
          if (closed)
            return Promise.reject(
              new DeliveryError('unexpected', 'Messaging closed before the message could be sent again.', false),
            );
          attempt.attempts = n;
          return transport.send(message);
        },
        find: find
          ? () =>
              closed
                ? Promise.reject(
                    new DeliveryError('unexpected', 'Messaging closed before the message could be looked for.', false),
                  )
                : find(message, attempt.startedAt, known)
          : undefined,
        dropsRepeats: transport.dropsRepeats,
      },
      config.retry,
      { sleep, random },
      (error) => networkFailure(error, `the ${transport.provider} provider`),
    );
    if (!outcome.ok) {
      if (!outcome.unsure) return publish(attempt, { status: 'failed', final: true, error: outcome.error });
      const { error } = outcome;
      const unsure = new DeliveryError(
        'unconfirmed',
        `${error.message} Whether the message went out could not be confirmed: it may have been sent.`,
        true,
        {
          providerCode: error.providerCode,
          moreInfo: error.moreInfo,
        },
      );
      return publish(attempt, { status: 'unknown', final: true, error: unsure });
    }
    const accepted = outcome.value;
    const followable =
      !accepted.status.final && accepted.ref !== undefined && transport.status !== undefined && !closed;
    const result = publish(
      attempt,
      reachedOf(accepted.status, accepted.status.final || !followable, accepted.providerMessageId),
    );
    if (followable && accepted.ref !== undefined)
      startFollowing(attempt, transport, accepted.ref, deadline, accepted.status);
    return result;
  }

  /**
   * The payment's latest message from before this run of the app (its audit row), for the confirmation a quick re-send
   * asks for: a message the app stopped sending before the provider answered ('sending') may have been sent; one it
   * stopped following is still unanswered. Undefined when the latest one has its answer, or there is none.
   */
  async function fromEarlierRun(paymentId: string): Promise<{ result: DeliveryResult; sentAt: number } | undefined> {
    const rows = await audit.forPayment(paymentId);
    for (let i = rows.length - 1; i >= 0; i--) {
      const row = rows[i];
      if (!row) continue;
      // A refusal sent nothing.
      if (row.status === 'failed' && row.attempts === 0) continue;
      const sentAt = Date.parse(row.createdAt);
      if (Number.isNaN(sentAt)) return undefined;
      const base = {
        messageId: row.messageId,
        paymentId: row.paymentId,
        channel: row.channel,
        to: row.to,
        provider: row.provider,
        training: row.provider === 'training_outbox',
        attempts: Math.max(1, row.attempts),
        at: row.events.at(-1)?.at ?? row.createdAt,
      };
      if (row.status === 'sending' || row.status === 'unknown') {
        const failure = new DeliveryError(
          'unconfirmed',
          'The app stopped before the provider answered, or the provider could not tell: the message may have been sent.',
          true,
        ).toFailure();
        return { result: { status: 'unknown', ...base, final: true, failure }, sentAt };
      }
      if (row.status === 'queued' || row.status === 'sent')
        return { result: { status: row.status, ...base, final: row.finishedAt !== undefined }, sentAt };
      return undefined;
    }
    return undefined;
  }

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
      const previous = latest.get(request.paymentId) ?? (await fromEarlierRun(request.paymentId));
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
        for (const done of [...waits]) done();
        listeners.clear();
        outbox.clear();
      }
      await audit.close();
    },
  };
}
