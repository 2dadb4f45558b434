/** What the messenger is given and what it answers: the contexts of a send, its options, its interface and its timings. */
import type { Environment } from '../../shared';
import type {
  CardholderAnswer,
  ChannelAvailability,
  DeliveryRecordView,
  DeliveryResult,
  MessageLanguage,
  OutboxMessageView,
  PlayCardholderResult,
  SendLinkOutcome,
  SendLinkRequestInput,
} from '../../shared/messaging';
import type { LevelLogger } from '../logging';
import type { MessagingAudit } from './audit';
import type { MessagingConfig, MessagingSecrets } from './config';

/** How long a 3DS challenge link lives once the payment waits for the cardholder (interface-decisions §7). */
export const LINK_LIFETIME_MS = 15 * 60_000;
/** The shortest validity a message is given, even when the link has less left (the desk's clock may be behind). */
export const MIN_VALIDITY_S = 60;
/** A re-send within this time of a message that has no answer yet is sent only once the agent confirms. */
export const RESEND_CONFIRM_WINDOW_MS = 60_000;
/** The waits between two reads of a message's status: short at first, when most changes come, then every 30 s. */
export const FOLLOW_DELAYS_MS = [1_000, 2_000, 3_000, 5_000, 8_000, 13_000, 20_000, 30_000] as const;

/** pino's logger fits; fields only ever hold ids, masked destinations, hosts, codes and counts. */
export type MessengerLogger = LevelLogger<'info' | 'warn'>;

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
