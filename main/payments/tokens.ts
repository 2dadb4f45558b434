/**
 * Access tokens (client credentials): cached, refreshed early (at 80% of their life), one request at a time. A refresh
 * that fails while the current token is still valid keeps that token in use until it really expires (the auth host
 * may be down while the payment hosts are not); 429 from the token endpoint is retried after its Retry-After.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { SecretStore } from './config';
import { noAnswer, ServiceError, unreadableAnswer } from './errors';
import type { ServiceClock } from './service-clock';
import { ErrorBody, HEADERS, OAuthErrorBody, PATHS, TokenBody } from './wire';

export interface TokenManagerDeps {
  authUrl: string;
  clientId: string;
  secrets: SecretStore;
  timeoutMs: number;
  /** The app's one fetch (Electron's net.fetch in the app): never the global one. */
  fetch: typeof fetch;
  now?: () => number;
  /** Waits before a retry (after a 429); tests may record instead of waiting. */
  sleep?: (ms: number) => Promise<void>;
  /** Part of `expires_in` after which a new token is fetched. */
  refreshRatio?: number;
  /** Told the service's Date of every answer of the token endpoint. */
  clock?: ServiceClock;
}

/** Tries of one token request when the endpoint answers 429. */
const TOKEN_TRIES = 3;
const MAX_RETRY_AFTER_MS = 30_000;
/** After a failed early refresh, the still-valid token is used this long before the next refresh is tried. */
const REFRESH_PAUSE_MS = 30_000;

interface Current {
  token: string;
  /** From here a new token is asked for. */
  refreshAt: number;
  /** Until here (a margin before `expires_in` ends) the token is still sent when no new one can be had. */
  expiresAt: number;
  /** A failed early refresh is not tried again before this. */
  retryRefreshAt: number;
}

/** The client secret is read here and nowhere else; it never appears in an error, log or event. */
export class TokenManager {
  private current: Current | undefined;
  private inflight: Promise<string> | undefined;
  private readonly fetch: typeof fetch;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly deps: TokenManagerDeps) {
    this.fetch = deps.fetch;
    this.now = deps.now ?? Date.now;
    this.sleep = deps.sleep ?? ((ms) => delay(ms));
  }

  /** A valid token; concurrent callers share one token request. */
  get(): Promise<string> {
    const now = this.now();
    const current = this.current;
    if (current && now < current.refreshAt) return Promise.resolve(current.token);
    if (current && now < current.expiresAt) {
      // Due for its early refresh but still valid: a failed refresh is not the caller's failure.
      if (now < current.retryRefreshAt) return Promise.resolve(current.token);
      return this.refresh().catch(() => {
        current.retryRefreshAt = this.now() + REFRESH_PAUSE_MS;
        return current.token;
      });
    }
    return this.refresh();
  }

  /**
   * A new token now, whatever the current one's age: its answer is a fresh reading of the service's clock (the
   * engine's, before a key is sent again). Shares a request already under way.
   */
  renew(): Promise<string> {
    return this.refresh();
  }

  /** Forgets a token the service refused (401 invalid_token), unless a newer one replaced it. */
  invalidate(token: string): void {
    if (this.current?.token === token) this.current = undefined;
  }

  private refresh(): Promise<string> {
    this.inflight ??= this.request().finally(() => {
      this.inflight = undefined;
    });
    return this.inflight;
  }

  /** One token request, tried again after Retry-After while the endpoint answers 429. */
  private async request(): Promise<string> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.requestOnce();
      } catch (error) {
        const wait = error instanceof TokenRateLimited ? error.retryAfterMs : undefined;
        if (wait === undefined || attempt >= TOKEN_TRIES || wait > MAX_RETRY_AFTER_MS)
          throw error instanceof TokenRateLimited ? error.failure : error;
        await this.sleep(wait);
      }
    }
  }

  private async requestOnce(): Promise<string> {
    const secret = await this.deps.secrets.read('clientSecret');
    if (secret === undefined || secret === '') {
      throw new ServiceError(
        'configuration',
        'missing_secret',
        'No client secret is set up on this workstation. Ask IT to provision it.',
      );
    }
    const started = this.now();
    const sentAt = performance.now();
    const requestId = randomUUID();
    let response: Response;
    try {
      response = await this.fetch(this.deps.authUrl + PATHS.token, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', [HEADERS.requestId]: requestId },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: this.deps.clientId,
          client_secret: secret,
        }),
        signal: AbortSignal.timeout(this.deps.timeoutMs),
      });
    } catch (error) {
      throw noAnswer(error, requestId);
    }
    const json: unknown = await response.json().catch(() => undefined);
    this.deps.clock?.observe(response.headers.get('date'), sentAt);
    if (!response.ok) {
      const oauth = OAuthErrorBody.safeParse(json);
      // A gateway in front of the auth host may answer in the §3 shape instead of OAuth2's.
      const general = ErrorBody.safeParse(json);
      const code = oauth.success
        ? oauth.data.error
        : general.success
          ? general.data.error.code
          : `http_${response.status}`;
      const message =
        code === 'invalid_client'
          ? 'The payment service refused this workstation’s credentials. Ask IT to check the client id and secret.'
          : response.status >= 500
            ? 'The payment service had a problem issuing access. Try again in a moment.'
            : response.status === 429
              ? 'The payment service is busy issuing access. Try again in a moment.'
              : `The payment service refused to issue access (${code}).`;
      const failure = new ServiceError('http', code, message, { status: response.status, requestId });
      if (response.status === 429)
        throw new TokenRateLimited(failure, retryAfterMs(response.headers.get(HEADERS.retryAfter)));
      throw failure;
    }
    const body = TokenBody.safeParse(json);
    if (!body.success) throw unreadableAnswer(response.status, requestId);
    const ratio = this.deps.refreshRatio ?? 0.8;
    const lifeMs = body.data.expires_in * 1000;
    this.current = {
      token: body.data.access_token,
      refreshAt: started + lifeMs * ratio,
      // A margin for the clocks and the request still on its way: at most 30 s, at most 5% of the life.
      expiresAt: started + lifeMs - Math.min(30_000, lifeMs * 0.05),
      retryRefreshAt: 0,
    };
    return body.data.access_token;
  }
}

/** A 429 of the token endpoint, with how long it asked to wait (1 s when it did not say). */
class TokenRateLimited extends Error {
  constructor(
    readonly failure: ServiceError,
    readonly retryAfterMs: number,
  ) {
    super(failure.message);
  }
}

/** Retry-After in seconds or as an HTTP date; 1 s when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number {
  if (header === null) return 1000;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? 1000 : Math.max(0, date - now);
}
