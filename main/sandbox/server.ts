/** HTTP front of the simulator: routes, bearer auth, rate limit, idempotency, faults, latency, control and 3DS pages. */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { challengeClosed, challengeDone, challengeForm, CHALLENGE_CSP } from './challenge-page';
import { iso, SECOND, type SimClock } from './clock';
import { FaultQueue, RateLimiter, type Fault } from './faults';
import { bodyHash, IdempotencyStore, type StoredResponse } from './idempotency';
import { controlSchemas, isUuidV4, parseBody } from './schemas';
import { fail, invalid, type Outcome, type SimulatedService } from './service';

/** The operations of the spec, named as simulator.md names them for faults. */
export const OPERATIONS = [
  'POST /oauth2/token',
  'POST /methods',
  'POST /payments',
  'GET /payments/{id}',
  'PATCH /payments/{id}',
  'POST /payments/{id}/confirmation',
  'POST /payments/{id}/refunds',
] as const;
export type Operation = (typeof OPERATIONS)[number];

export const PREFIXES = {
  auth: '/auth',
  cde: '/cde',
  api: '/api',
  control: '/_sandbox',
  challenge: '/challenge',
} as const;
const IDEMPOTENT: ReadonlySet<Operation> = new Set(['POST /methods', 'POST /payments', 'POST /payments/{id}/refunds']);
const MAX_BODY_BYTES = 64 * 1024;
const MAX_JSON_DEPTH = 32;

interface Route {
  operation: Operation;
  method: string;
  prefix: string;
  segments: string[];
}

const ROUTES: Route[] = OPERATIONS.map((operation) => {
  const [method = '', template = ''] = operation.split(' ');
  const prefix = template === '/oauth2/token' ? PREFIXES.auth : template === '/methods' ? PREFIXES.cde : PREFIXES.api;
  return { operation, method, prefix, segments: template.split('/') };
});

/** The route for a request, with its `{id}`; each operation only under its own host prefix. */
function matchRoute(method: string, path: string): { route: Route; id: string } | undefined {
  for (const route of ROUTES) {
    if (route.method !== method || !path.startsWith(route.prefix + '/')) continue;
    const got = path.slice(route.prefix.length).split('/');
    if (got.length !== route.segments.length) continue;
    let id = '';
    const fits = route.segments.every((seg, i) => {
      const part = got[i] ?? '';
      if (seg !== '{id}') return seg === part;
      id = part;
      return part !== '';
    });
    if (fits) return { route, id };
  }
  return undefined;
}

/** Where request logs go: pino fits; nothing but operation, status, request id and time is logged. */
export interface SimulatorLogger {
  info(fields: object, message?: string): void;
  error(fields: object, message?: string): void;
}

export interface ServerDeps {
  service: SimulatedService;
  clock: SimClock;
  idempotency: IdempotencyStore;
  faults: FaultQueue;
  rateLimiter: RateLimiter;
  latencyMs: number;
  logger: SimulatorLogger;
  /** Called by POST /_sandbox/reset after the shared stores are cleared. */
  onReset: () => void;
  /** Absolute base of the challenge links, known once the server listens. */
  challengeBase: () => string;
}

type Body = { kind: 'empty' } | { kind: 'json'; value: unknown } | { kind: 'invalid'; message: string };

interface Written extends StoredResponse {
  headers?: Record<string, string>;
}

const JSON_TYPE = 'application/json; charset=utf-8';

export function createSimulatorServer(deps: ServerDeps): Server {
  const { service, clock, idempotency, faults, rateLimiter, logger } = deps;

  const render = (outcome: Outcome, requestId: string): Written =>
    'error' in outcome
      ? { status: outcome.status, body: JSON.stringify({ error: { ...outcome.error, requestId } }) }
      : { status: outcome.status, body: JSON.stringify(outcome.body) };

  async function respond(res: ServerResponse, written: Written, withLatency = true): Promise<void> {
    if (withLatency && deps.latencyMs > 0) await sleep(deps.latencyMs);
    if (res.destroyed) return;
    res.writeHead(written.status, {
      'Content-Type': JSON_TYPE,
      'Content-Length': Buffer.byteLength(written.body),
      'Cache-Control': 'no-store',
      ...written.headers,
    });
    res.end(written.body);
  }

  function drop(res: ServerResponse): void {
    res.socket?.destroy();
  }

  /** A fault that answers in place of the service, if this is one. */
  function faultAnswer(fault: Fault | undefined, requestId: string): Written | undefined {
    switch (fault?.kind) {
      case 'error_500':
        return render(fail(500, 'internal_error', 'The service had an internal error. Try again.'), requestId);
      case 'error_503':
        return render(fail(503, 'unavailable', 'The service is unavailable right now. Try again shortly.'), requestId);
      case 'error_429':
        return { ...render(rateLimited(), requestId), headers: { 'Retry-After': '1' } };
      default:
        return undefined;
    }
  }

  async function serveOperation(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    route: Route,
    id: string,
    requestId: string,
  ): Promise<number | 'dropped'> {
    const raw = await readBody(req);
    const fault = faults.take(route.operation);
    const faulted = faultAnswer(fault, requestId);
    if (faulted) {
      await respond(res, faulted);
      return faulted.status;
    }
    if (fault?.kind === 'drop_before_commit') {
      drop(res);
      return 'dropped';
    }
    if (route.operation === 'POST /oauth2/token') {
      if (fault?.kind === 'delay') await sleep(fault.delayMs);
      const written = tokenEndpoint(req, raw);
      if (fault?.kind === 'drop_after_commit') {
        drop(res);
        return 'dropped';
      }
      await respond(res, written);
      return written.status;
    }

    const clientId = service.tenantOfToken(bearerOf(req) ?? '');
    if (!clientId) {
      const written = render(
        fail(401, 'invalid_token', 'The access token is missing, unknown or expired. Request a new one.'),
        requestId,
      );
      await respond(res, { ...written, headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' } });
      return 401;
    }
    const limited = rateLimiter.hit(clientId);
    if (!limited.ok) {
      const written = render(rateLimited(), requestId);
      await respond(res, { ...written, headers: { 'Retry-After': String(limited.retryAfterS) } });
      return 429;
    }

    const body = parseJson(raw);
    let key: string | undefined;
    if (IDEMPOTENT.has(route.operation)) {
      const sent = req.headers['idempotency-key'];
      if (typeof sent !== 'string' || !isUuidV4(sent)) {
        const message =
          sent === undefined
            ? 'The Idempotency-Key header is required.'
            : 'The Idempotency-Key header must be a UUID v4.';
        const written = render(fail(400, 'validation_error', message, 'Idempotency-Key'), requestId);
        await respond(res, written);
        return 400;
      }
      const hash = bodyHash(raw.text, body.kind === 'json' ? body.value : undefined, body.kind !== 'invalid');
      const claim = idempotency.begin(clientId, sent, `${req.method ?? ''} ${path}`, hash);
      if (claim.kind === 'replay') {
        if (fault?.kind === 'drop_after_commit') {
          drop(res);
          return 'dropped';
        }
        await respond(res, { ...claim.response, headers: { 'Idempotent-Replayed': 'true' } });
        return claim.response.status;
      }
      if (claim.kind !== 'new') {
        const written =
          claim.kind === 'conflict'
            ? render(
                fail(409, 'idempotency_conflict', 'This Idempotency-Key was already used for a different request.'),
                requestId,
              )
            : render(
                fail(
                  409,
                  'idempotency_in_progress',
                  'A request with this Idempotency-Key is still being processed. Retry shortly.',
                ),
                requestId,
              );
        await respond(res, written);
        return 409;
      }
      key = sent;
    }

    let written: Written;
    try {
      if (fault?.kind === 'delay') await sleep(fault.delayMs);
      const outcome =
        body.kind === 'invalid'
          ? invalid({ message: body.message })
          : dispatch(route.operation, clientId, id, body.kind === 'json' ? body.value : undefined);
      written = render(outcome, requestId);
    } catch (error) {
      if (key) idempotency.abandon(clientId, key);
      throw error;
    }
    if (key) idempotency.complete(clientId, key, written);
    if (fault?.kind === 'drop_after_commit') {
      drop(res);
      return 'dropped';
    }
    await respond(res, written);
    return written.status;
  }

  function dispatch(operation: Operation, clientId: string, id: string, body: unknown): Outcome {
    const base = deps.challengeBase();
    switch (operation) {
      case 'POST /methods':
        return service.tokenize(clientId, body);
      case 'POST /payments':
        return service.createPayment(clientId, body, base);
      case 'GET /payments/{id}':
        return service.getPayment(clientId, id);
      case 'PATCH /payments/{id}':
        return service.updateAmount(clientId, id, body);
      case 'POST /payments/{id}/confirmation':
        return service.confirm(clientId, id, body, base);
      case 'POST /payments/{id}/refunds':
        return service.refund(clientId, id, body);
      case 'POST /oauth2/token':
        throw new Error('the token endpoint is served apart');
    }
  }

  /** OAuth2 client credentials (interface-decisions §1); its errors have the OAuth2 shape, not §3's. */
  function tokenEndpoint(req: IncomingMessage, raw: RawBody): Written {
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

  async function serveControl(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    requestId: string,
  ): Promise<number> {
    const raw = await readBody(req);
    const answer = (outcome: Outcome) => respond(res, render(outcome, requestId), false).then(() => outcome.status);
    if (!isLoopback(req.socket.remoteAddress))
      return answer(fail(403, 'forbidden', 'Control endpoints answer on loopback only.'));
    if (req.method !== 'POST') return answer(fail(404, 'not_found', 'Control endpoints take POST.'));
    const body = parseJson(raw);
    const value = body.kind === 'json' ? body.value : body.kind === 'empty' ? {} : undefined;
    if (value === undefined) return answer(invalid({ message: 'The body is not valid JSON.' }));
    switch (path.slice(PREFIXES.control.length)) {
      case '/clock': {
        const parsed = parseBody(controlSchemas.clock, value);
        if (!parsed.ok) return answer(invalid(parsed.invalid));
        clock.advance(parsed.value.advanceSeconds * SECOND);
        return answer({ status: 200, body: { now: iso(clock.now()) } });
      }
      case '/faults': {
        const parsed = parseBody(controlSchemas.faults, value);
        if (!parsed.ok) return answer(invalid(parsed.invalid));
        const { operation, fault, count, delayMs } = parsed.value;
        if (!(OPERATIONS as readonly string[]).includes(operation)) {
          return answer(
            invalid({ message: `operation must be one of: ${OPERATIONS.join(', ')}.`, param: 'operation' }),
          );
        }
        faults.add(operation, { kind: fault, delayMs: delayMs ?? 0 }, count);
        return answer({ status: 201, body: { queued: count } });
      }
      case '/clients':
        return answer({ status: 201, body: service.registerClient() });
      case '/reset':
        idempotency.clear();
        faults.clear();
        rateLimiter.clear();
        clock.reset();
        deps.onReset();
        return answer({ status: 200, body: { reset: true } });
      default:
        return answer(fail(404, 'not_found', 'No such control endpoint.'));
    }
  }

  async function serveChallenge(req: IncomingMessage, res: ServerResponse, token: string): Promise<number> {
    const raw = await readBody(req);
    const html = (status: number, page: string, location?: string): number => {
      res.writeHead(status, {
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Security-Policy': CHALLENGE_CSP,
        'Cache-Control': 'no-store',
        'Referrer-Policy': 'no-referrer',
        'X-Content-Type-Options': 'nosniff',
        ...(location ? { Location: location } : {}),
      });
      res.end(page);
      return status;
    };
    const state = service.challenge(token);
    if (state.state !== 'open') return html(state.state === 'unknown' ? 404 : 410, challengeClosed(state.state));
    if (req.method === 'GET') return html(200, challengeForm(state));
    if (req.method !== 'POST') return html(405, challengeClosed('bad_request'));
    const outcome = new URLSearchParams(raw.text).get('outcome');
    if (outcome !== 'approve' && outcome !== 'decline') return html(400, challengeClosed('bad_request'));
    const answered = service.answerChallenge(token, outcome);
    if (!answered) return html(410, challengeClosed('used'));
    return answered.returnUrl
      ? html(303, challengeDone(outcome), answered.returnUrl)
      : html(200, challengeDone(outcome));
  }

  async function onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const requestId = requestIdOf(req);
    res.setHeader('X-Request-Id', requestId);
    // The service's clock is its own (interface-decisions §4): the one its idempotency window and expiries follow.
    res.setHeader('Date', new Date(clock.now()).toUTCString());
    let operation = 'unmatched';
    try {
      const path = pathOf(req.url);
      let status: number | 'dropped';
      const matched = path === undefined ? undefined : matchRoute(req.method ?? '', path);
      if (path?.startsWith(PREFIXES.control + '/')) {
        operation = 'control';
        status = await serveControl(req, res, path, requestId);
      } else if (path?.startsWith(PREFIXES.challenge + '/')) {
        operation = 'challenge';
        status = await serveChallenge(req, res, path.slice(PREFIXES.challenge.length + 1));
      } else if (matched) {
        operation = matched.route.operation;
        status = await serveOperation(req, res, path ?? '', matched.route, matched.id, requestId);
      } else {
        await readBody(req);
        const written = render(fail(404, 'not_found', 'There is no such endpoint.'), requestId);
        await respond(res, written);
        status = 404;
      }
      logger.info({ operation, status, requestId, ms: Math.round(performance.now() - started) });
    } catch (error) {
      logger.error({ operation, requestId, error: error instanceof Error ? error.name : 'unknown' }, 'simulator fault');
      if (!res.headersSent && !res.destroyed) {
        await respond(
          res,
          render(fail(500, 'internal_error', 'The simulator had an internal error.'), requestId),
          false,
        );
      }
    }
  }

  return createServer((req, res) => {
    void onRequest(req, res);
  });
}

const rateLimited = (): Outcome =>
  fail(429, 'rate_limited', 'Too many requests. Wait for the time in Retry-After and try again.');

interface RawBody {
  text: string;
  tooLarge: boolean;
}

function readBody(req: IncomingMessage): Promise<RawBody> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => {
      resolve(
        size > MAX_BODY_BYTES
          ? { text: '', tooLarge: true }
          : { text: Buffer.concat(chunks).toString('utf8'), tooLarge: false },
      );
    });
    req.on('error', reject);
  });
}

function parseJson(raw: RawBody): Body {
  if (raw.tooLarge)
    return { kind: 'invalid', message: `The request body is too large (${MAX_BODY_BYTES / 1024} KiB at most).` };
  if (raw.text.trim() === '') return { kind: 'empty' };
  let value: unknown;
  try {
    value = JSON.parse(raw.text);
  } catch {
    return { kind: 'invalid', message: 'The request body is not valid JSON.' };
  }
  // Hashing and validation walk the body recursively: refuse absurd nesting before they do.
  if (nestedDeeperThan(value, MAX_JSON_DEPTH)) {
    return { kind: 'invalid', message: `The request body is nested too deeply (${MAX_JSON_DEPTH} levels at most).` };
  }
  return { kind: 'json', value };
}

/** Iterative, so that the check itself cannot overflow the stack. */
function nestedDeeperThan(root: unknown, max: number): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value: root, depth: 0 }];
  for (let item = stack.pop(); item; item = stack.pop()) {
    if (typeof item.value !== 'object' || item.value === null) continue;
    if (item.depth >= max) return true;
    for (const child of Object.values(item.value)) stack.push({ value: child, depth: item.depth + 1 });
  }
  return false;
}

function pathOf(url: string | undefined): string | undefined {
  try {
    return new URL(url ?? '/', 'http://simulator.invalid').pathname;
  } catch {
    return undefined;
  }
}

const PRINTABLE_ID = /^[\x20-\x7e]{1,200}$/;

function requestIdOf(req: IncomingMessage): string {
  const sent = req.headers['x-request-id'];
  return typeof sent === 'string' && PRINTABLE_ID.test(sent) ? sent : `req_${randomBytes(12).toString('hex')}`;
}

function bearerOf(req: IncomingMessage): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  return match?.[1];
}

function basicCredentials(req: IncomingMessage): { id: string; secret: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(req.headers.authorization ?? '');
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { id: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)) };
}

/** RFC 6749 §2.3.1 form-encodes the Basic credentials; a malformed escape is kept as sent. */
function formDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

function isLoopback(address: string | undefined): boolean {
  return address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';
}
