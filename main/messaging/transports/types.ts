/** What every provider is given and answers: one message to one destination, its status afterwards, or a DeliveryError. */
import type { MessageChannel, MessageLanguage, MessagingProvider } from '../../../shared/messaging';
import { DeliveryError } from '../errors';
import type { MessagingSecretName, MessagingSecrets } from '../config';
import type { RenderedMessage } from '../templates';

export interface OutgoingMessage {
  /** msg_…: also the Idempotency-Key for the webhook and the e-mail's Message-ID. */
  id: string;
  paymentId: string;
  channel: MessageChannel;
  /** The full, normalized destination (E.164 phone or e-mail address). */
  to: string;
  language: MessageLanguage;
  hotelName: string;
  rendered: RenderedMessage;
  /** What it is: a payment's 3DS link (the default), or a succeeded payment's receipt (which has no link). */
  kind?: 'link' | 'receipt';
  /** The 3DS link: sent, never logged or stored. Empty for a receipt. */
  link: string;
  /** Template variables for providers that send approved templates (WhatsApp). */
  variables: Record<string, string>;
  /** How long the link stays usable, in seconds (at least 60): a provider must not deliver the message after that. */
  validitySeconds: number;
}

/** A message's status at the provider, in the desk's words (DeliveryStatus without `unknown`). */
export interface ProviderStatus {
  status: 'queued' | 'sent' | 'delivered' | 'read' | 'failed';
  /** The provider's own word for it (Twilio's accepted, sending, undelivered…), for the audit. */
  providerStatus?: string | undefined;
  /** No later status will come: delivered, read, failed — or a provider that reports nothing more (SMTP's "sent"). */
  final: boolean;
  /** Why, when failed. */
  failure?: DeliveryError | undefined;
}

/** The provider took the message. */
export interface Accepted {
  /** The provider's id for it (Twilio's SM…, the SMTP Message-ID), kept in the audit. */
  providerMessageId?: string | undefined;
  /** What to ask the provider about it later (status); absent when the provider cannot be asked. */
  ref?: string | undefined;
  status: ProviderStatus;
}

export interface TransportDeps {
  secrets: MessagingSecrets;
  timeoutMs: number;
  fetch: typeof fetch;
  now: () => number;
}

export interface Transport {
  readonly provider: Exclude<MessagingProvider, 'training_outbox' | 'none'>;
  /** One try; throws a DeliveryError (or an error the caller classifies as a network failure). */
  send(message: OutgoingMessage): Promise<Accepted>;
  /** The message's status now (throws a DeliveryError when the provider cannot be asked). */
  status?(ref: string): Promise<ProviderStatus>;
  /**
   * After an answer that may have gone astray (timeout, cut connection, 5xx): the message as the provider has it, if
   * it was created at or after `since` (epoch ms) and is none of `known` (earlier messages of the same payment).
   * Undefined when it is not there; throws when the provider cannot be asked.
   */
  find?(message: OutgoingMessage, since: number, known: ReadonlySet<string>): Promise<Accepted | undefined>;
  /** The provider drops a repeat of the same message by itself (the webhook's Idempotency-Key): sending again is safe. */
  readonly dropsRepeats?: boolean;
}

/** A provider secret, or a DeliveryError for the agent when it is missing or unreadable (its value never in a message). */
export async function readSecret(secrets: MessagingSecrets, name: MessagingSecretName, label: string): Promise<string> {
  let value: string | undefined;
  try {
    value = await secrets.read(name);
  } catch {
    throw new DeliveryError(
      'not_configured',
      `The ${label} cannot be read from this desk's secure storage; IT must provision it again (${name}).`,
      false,
    );
  }
  if (value === undefined || value === '') {
    throw new DeliveryError(
      'not_configured',
      `The ${label} is not stored on this desk; IT must provision it (${name}).`,
      false,
    );
  }
  return value;
}

/** The body of a provider's answer as JSON, or undefined (never thrown: a provider may answer anything). */
export async function jsonBody(response: Response): Promise<unknown> {
  try {
    const text = await response.text();
    return text === '' ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}
