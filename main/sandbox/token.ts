// The simulator's token endpoint: OAuth2 client credentials, with the OAuth2 error shape.
import type { IncomingMessage } from 'node:http';
import type { RateLimiter } from './faults';
import { basicCredentials, type RawBody, type Written } from './http';
import type { SimulatedService } from './service';

/** OAuth2 client credentials (interface-decisions §1); its errors have the OAuth2 shape, not §3's. */
export function tokenEndpoint(
  req: IncomingMessage,
  raw: RawBody,
  service: SimulatedService,
  rateLimiter: RateLimiter,
): Written {
  const oauthError = (status: number, error: string, description: string): Written => ({
    status,
    body: JSON.stringify({ error, error_description: description }),
  });
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  if (!type.startsWith('application/x-www-form-urlencoded') || raw.tooLarge) {
    return oauthError(
      400,
      'invalid_request',
      'Send the token request form-encoded (application/x-www-form-urlencoded).',
    );
  }
  const form = new URLSearchParams(raw.text);
  const grant = form.get('grant_type');
  if (!grant) return oauthError(400, 'invalid_request', 'grant_type is required.');
  if (grant !== 'client_credentials')
    return oauthError(400, 'unsupported_grant_type', 'Only grant_type=client_credentials is supported.');
  const basic = basicCredentials(req);
  const id = basic?.id ?? form.get('client_id') ?? '';
  const secret = basic?.secret ?? form.get('client_secret') ?? '';
  const limited = rateLimiter.hit(`token:${id}`);
  if (!limited.ok) {
    return {
      ...oauthError(429, 'rate_limited', 'Too many token requests. Retry later.'),
      headers: { 'Retry-After': String(limited.retryAfterS) },
    };
  }
  const clientId = service.authenticateClient(id, secret);
  if (!clientId) return oauthError(401, 'invalid_client', 'The client id or client secret is wrong.');
  return { status: 200, body: JSON.stringify(service.issueToken(clientId)), headers: { Pragma: 'no-cache' } };
}
