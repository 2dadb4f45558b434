/**
 * The training outbox: in training mode every message is captured here instead of sent, and the trainee can "play
 * the cardholder" on it. Kept in memory on purpose: its links belong to the in-process simulator, which forgets its
 * payments when the app stops, so a saved outbox would only hold dead links — and keeping it in memory keeps full
 * links off the disk. The oldest messages are dropped past the limit.
 */
import type {
  CardholderAnswer,
  CardholderState,
  MessageChannel,
  MessageLanguage,
  OutboxMessageView,
} from '../../shared/messaging';
import { isLoopbackHost } from './config';
import { MessagingError } from './errors';

export interface CapturedMessage {
  id: string;
  paymentId: string;
  operatorId: string;
  channel: MessageChannel;
  /** Masked. */
  to: string;
  language: MessageLanguage;
  subject?: string | undefined;
  text: string;
  /** The full link, in memory only, for playing the cardholder. */
  link: string;
  createdAt: string;
  cardholder: CardholderState;
  answeredAt?: string | undefined;
}

export const OUTBOX_LIMIT = 200;

/** The link as a trainee sees it: its origin and an ellipsis, never its token. */
export function shortLink(link: string): string {
  try {
    return `${new URL(link).origin}/…`;
  } catch {
    return '…';
  }
}

export class TrainingOutbox {
  private readonly messages = new Map<string, CapturedMessage>();

  constructor(private readonly limit = OUTBOX_LIMIT) {}

  add(message: CapturedMessage): void {
    this.messages.set(message.id, message);
    while (this.messages.size > this.limit) {
      const oldest = this.messages.keys().next();
      if (oldest.done === true) break;
      this.messages.delete(oldest.value);
    }
  }

  get(id: string): CapturedMessage | undefined {
    return this.messages.get(id);
  }

  /** Newest first. */
  list(): OutboxMessageView[] {
    return [...this.messages.values()].reverse().map(toView);
  }

  view(id: string): OutboxMessageView | undefined {
    const message = this.messages.get(id);
    return message && toView(message);
  }

  clear(): void {
    this.messages.clear();
  }
}

export function toView(message: CapturedMessage): OutboxMessageView {
  // A receipt has no link: its text is shown as it is.
  const shown = message.link === '' ? '' : shortLink(message.link);
  return {
    id: message.id,
    paymentId: message.paymentId,
    operatorId: message.operatorId,
    channel: message.channel,
    to: message.to,
    language: message.language,
    ...(message.subject === undefined ? {} : { subject: message.subject }),
    text: message.link === '' ? message.text : message.text.split(message.link).join(shown),
    createdAt: message.createdAt,
    cardholder: message.cardholder,
    ...(message.answeredAt === undefined ? {} : { answeredAt: message.answeredAt }),
  };
}

export interface ChallengeAnswer {
  state: CardholderState;
  note: string;
}

/**
 * The cardholder's browser on the simulator's challenge page (interface-decisions §10): opens the page (GET), then
 * submits its form (POST, application/x-www-form-urlencoded, outcome=approve|decline). Redirects are not followed
 * (a 303 goes to the partner's returnUrl, somewhere the app never opens). Only links to this computer are played:
 * a real bank's page is never answered by the app.
 */
export async function answerChallenge(
  link: string,
  answer: CardholderAnswer,
  deps: { fetch: typeof fetch; timeoutMs: number },
): Promise<ChallengeAnswer> {
  const url = new URL(link);
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !isLoopbackHost(url.hostname)) {
    throw new MessagingError('training_only');
  }
  const closed = (status: number): ChallengeAnswer | undefined => {
    if (status === 404) return { state: 'link_unknown', note: 'The simulator does not know this link.' };
    if (status === 410) return { state: 'link_closed', note: 'This link was already used, or the payment expired.' };
    return undefined;
  };
  /** The page's HTTP status, its body read (and dropped). */
  const request = async (init: RequestInit): Promise<number> => {
    try {
      const response = await deps.fetch(url, {
        ...init,
        redirect: 'manual',
        signal: AbortSignal.timeout(deps.timeoutMs),
      });
      await response.text();
      return response.status;
    } catch {
      throw new MessagingError('simulator_unreachable');
    }
  };

  const page = await request({ method: 'GET', headers: { Accept: 'text/html' } });
  const closedPage = closed(page);
  if (closedPage) return closedPage;
  if (page !== 200) throw new MessagingError('invalid_request', { params: { status: page } });

  const submitted = await request({
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/html', Origin: url.origin },
    body: new URLSearchParams({ outcome: answer }).toString(),
  });
  const closedSubmit = closed(submitted);
  if (closedSubmit) return closedSubmit;
  if (submitted !== 200 && submitted !== 303) {
    throw new MessagingError('invalid_request', { params: { status: submitted } });
  }
  return answer === 'approve'
    ? { state: 'approved', note: 'The cardholder approved: the payment goes on to processing.' }
    : { state: 'declined', note: 'The cardholder declined: the payment fails with authentication_failed.' };
}
