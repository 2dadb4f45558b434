/** What every provider is given and answers: one message to one destination, or a DeliveryError. */
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
  /** The 3DS link: sent, never logged or stored. */
  link: string;
  /** Template variables for providers that send approved templates (WhatsApp). */
  variables: Record<string, string>;
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
  send(message: OutgoingMessage): Promise<{ providerMessageId?: string }>;
}

/** A provider secret, or a DeliveryError for the agent when it is missing or unreadable (its value never in a message). */
export async function readSecret(secrets: MessagingSecrets, name: MessagingSecretName, label: string): Promise<string> {
  let value: string | undefined;
  try {
    value = await secrets.read(name);
  } catch {
    throw new DeliveryError('not_configured', `The ${label} cannot be read from this desk's secure storage; IT must provision it again (${name}).`, false);
  }
  if (value === undefined || value === '') {
    throw new DeliveryError('not_configured', `The ${label} is not stored on this desk; IT must provision it (${name}).`, false);
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
