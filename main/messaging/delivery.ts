/**
 * One message on its way: written to the audit before it leaves, sent through its channel's transport (tried again with
 * the same message, looked for when unsure), or captured in the training outbox; then followed until its status is
 * final or its link has expired, each status published to the audit, the log and the listeners.
 */
import type { DeliveryFailure, DeliveryResult, MessageChannel, MessagingProvider } from '../../shared/messaging';
import type { MessagingConfig } from './config';
import { DeliveryError, networkFailure } from './errors';
import { FOLLOW_DELAYS_MS, type MessengerLogger } from './messenger-types';
import type { TrainingOutbox } from './outbox';
import type { DeliveryRecorder } from './recorder';
import { submit } from './retry';
import { smtpTransport } from './transports/smtp';
import { twilioTransport } from './transports/twilio';
import type { OutgoingMessage, ProviderStatus, Transport, TransportDeps } from './transports/types';
import { webhookTransport } from './transports/webhook';

export const channelName = (channel: MessageChannel): string =>
  channel === 'email' ? 'e-mail' : channel === 'sms' ? 'SMS' : 'WhatsApp';

/** The transport of each channel the settings name a provider for (none in the training outbox). */
export function buildTransports(
  config: MessagingConfig,
  deps: TransportDeps,
  outboxOnly: boolean,
): Map<MessageChannel, Transport> {
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
  return transports;
}

/** One message as it is sent and followed. */
export interface Attempt {
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

/** A payment's latest message, and when it left (epoch ms). */
export interface LatestMessage {
  result: DeliveryResult;
  sentAt: number;
}

export interface DeliveryDeps {
  config: MessagingConfig;
  transports: ReadonlyMap<MessageChannel, Transport>;
  /** Training: every message is captured in the outbox, none sent. */
  outboxOnly: boolean;
  audit: DeliveryRecorder;
  outbox: TrainingOutbox;
  logger: MessengerLogger;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  /** The waits between reads of a message's status (the real timers by default, ended by stop()). */
  followSleep?: ((ms: number) => Promise<void>) | undefined;
  /** Messaging is closing: nothing more leaves, and nothing more is recorded. */
  isClosed: () => boolean;
}

export interface Deliveries {
  providerFor: (channel: MessageChannel) => MessagingProvider;
  /** Sends (or captures) the message and answers its first status; later ones go to the listeners. */
  deliver: (attempt: Attempt, message: OutgoingMessage, deadline: number) => Promise<DeliveryResult>;
  /** A send refused before anything left: recorded as failed. */
  refuse: (attempt: Attempt, failure: DeliveryError) => Promise<DeliveryResult>;
  /** The payment's latest message that left the desk, in this run of the app or (from its audit row) an earlier one. */
  previous: (paymentId: string) => Promise<LatestMessage | undefined>;
  readonly listeners: Set<(result: DeliveryResult) => void>;
  /** The messages being followed. */
  readonly following: ReadonlySet<Promise<void>>;
  /** Ends the follow waits in progress at once and forgets the listeners. */
  stop: () => void;
}

export function createDeliveries(deps: DeliveryDeps): Deliveries {
  const { config, transports, outboxOnly, audit, outbox, logger, now, sleep, random } = deps;
  const iso = (): string => new Date(now()).toISOString();
  /** The follow waits in progress, ended at once by stop(). */
  const waits = new Set<() => void>();
  const followSleep =
    deps.followSleep ??
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
  /** Each payment's latest message, for the confirmation a quick re-send asks for. */
  const latest = new Map<string, LatestMessage>();
  const listeners = new Set<(result: DeliveryResult) => void>();
  const following = new Set<Promise<void>>();

  const providerFor = (channel: MessageChannel): MessagingProvider =>
    outboxOnly ? 'training_outbox' : (transports.get(channel)?.provider ?? 'none');

  /** Records a status (audit, log), makes the agent's result and tells the listeners. */
  function publish(attempt: Attempt, reached: Reached): DeliveryResult {
    const at = iso();
    const failure: DeliveryFailure | undefined = 'error' in reached ? reached.error.toFailure() : undefined;
    if (!deps.isClosed()) {
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
    for (let n = 0; !deps.isClosed(); n++) {
      const left = deadline - now();
      if (left <= 0) break;
      await followSleep(Math.min(FOLLOW_DELAYS_MS[Math.min(n, FOLLOW_DELAYS_MS.length - 1)] ?? 30_000, left));
      if (deps.isClosed()) return;
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
      if (deps.isClosed()) return;
      const changed = next.status !== current.status || next.providerStatus !== current.providerStatus;
      if (next.final || changed) {
        current = next;
        publish(attempt, reachedOf(next, next.final));
      }
      if (next.final) return;
    }
    // The link has expired (or the app is closing): what is known now is all there will be.
    if (!deps.isClosed()) publish(attempt, reachedOf(current, true));
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
          if (deps.isClosed())
            return Promise.reject(
              new DeliveryError('unexpected', 'Messaging closed before the message could be sent again.', false),
            );
          attempt.attempts = n;
          return transport.send(message);
        },
        find: find
          ? () =>
              deps.isClosed()
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
      !accepted.status.final && accepted.ref !== undefined && transport.status !== undefined && !deps.isClosed();
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

  return {
    providerFor,
    deliver,
    refuse,
    previous: async (paymentId) => latest.get(paymentId) ?? (await fromEarlierRun(paymentId)),
    listeners,
    following,
    stop() {
      for (const done of [...waits]) done();
      listeners.clear();
    },
  };
}
