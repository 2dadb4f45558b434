/** Access tokens (client credentials): cached, refreshed at 80% of their life, one request at a time. */
import { randomUUID } from 'node:crypto';
import type { SecretStore } from './config';
import { ServiceError } from './errors';
import { HEADERS, OAuthErrorBody, PATHS, TokenBody } from './wire';

export interface TokenManagerDeps {
  authUrl: string;
  clientId: string;
  secrets: SecretStore;
  timeoutMs: number;
  /** The app's one fetch (Electron's net.fetch in the app): never the global one. */
  fetch: typeof fetch;
  now?: () => number;
  /** Part of `expires_in` after which a new token is fetched. */
  refreshRatio?: number;
}

/** The client secret is read here and nowhere else; it never appears in an error, log or event. */
export class TokenManager {
  private current: { token: string; refreshAt: number } | undefined;
  private inflight: Promise<string> | undefined;
  private readonly fetch: typeof fetch;
  private readonly now: () => number;

  constructor(private readonly deps: TokenManagerDeps) {
    this.fetch = deps.fetch;
    this.now = deps.now ?? Date.now;
  }

  /** A valid token; concurrent callers share one token request. */
  get(): Promise<string> {
    if (this.current && this.now() < this.current.refreshAt) return Promise.resolve(this.current.token);
    this.inflight ??= this.request().finally(() => {
      this.inflight = undefined;
    });
    return this.inflight;
  }

  /** Forgets a token the service refused (401 invalid_token), unless a newer one replaced it. */
  invalidate(token: string): void {
    if (this.current?.token === token) this.current = undefined;
  }

  private async request(): Promise<string> {
    const secret = await this.deps.secrets.read('clientSecret');
    if (secret === undefined || secret === '') {
      throw new ServiceError('configuration', 'missing_secret', 'No client secret is set up on this workstation. Ask IT to provision it.');
    }
    const started = this.now();
    const requestId = randomUUID();
    let response: Response;
    try {
      response = await this.fetch(this.deps.authUrl + PATHS.token, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', [HEADERS.requestId]: requestId },
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: this.deps.clientId, client_secret: secret }),
        signal: AbortSignal.timeout(this.deps.timeoutMs),
      });
    } catch (error) {
      const timeout = error instanceof Error && error.name === 'TimeoutError';
      throw new ServiceError(
        timeout ? 'timeout' : 'network',
        timeout ? 'timeout' : 'network_error',
        timeout ? 'The payment service did not answer in time.' : 'Cannot reach the payment service. Check the network.',
        { requestId },
      );
    }
    const json: unknown = await response.json().catch(() => undefined);
    if (!response.ok) {
      const oauth = OAuthErrorBody.safeParse(json);
      const code = oauth.success ? oauth.data.error : `http_${response.status}`;
      const message =
        code === 'invalid_client'
          ? 'The payment service refused this workstation’s credentials. Ask IT to check the client id and secret.'
          : response.status >= 500
            ? 'The payment service had a problem issuing access. Try again in a moment.'
            : `The payment service refused to issue access (${code}).`;
      throw new ServiceError('http', code, message, { status: response.status, requestId });
    }
    const body = TokenBody.safeParse(json);
    if (!body.success) {
      throw new ServiceError('unexpected_response', 'unexpected_response', 'The payment service answered in a form this app does not understand.', {
        status: response.status,
        requestId,
      });
    }
    const ratio = this.deps.refreshRatio ?? 0.8;
    this.current = { token: body.data.access_token, refreshAt: started + body.data.expires_in * 1000 * ratio };
    return body.data.access_token;
  }
}
