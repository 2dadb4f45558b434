/** HTTP front of the simulator: routes, bearer auth, rate limit, idempotency, faults, latency, control and 3DS pages. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LevelLogger } from '../logging';
import { challengeClosed, challengeDone, challengeForm, CHALLENGE_CSP } from './challenge-page';
import { iso, SECOND, type SimClock } from './clock';
import { FaultQueue, RateLimiter, type Fault } from './faults';
import { bodyHash, IdempotencyStore } from './idempotency';
import { bearerOf, isLoopback, parseJson, pathOf, readBody, requestIdOf, type Written } from './http';
import { IDEMPOTENT, matchRoute, OPERATIONS, PREFIXES, type Operation, type Route } from './routes';
import { controlSchemas, isUuidV4, parseBody } from './schemas';
import { fail, invalid, type Outcome, type SimulatedService } from './service';
import { tokenEndpoint } from './token';

export { OPERATIONS, PREFIXES, type Operation } from './routes';

/** Where request logs go: pino fits; nothing but operation, status, request id and time is logged. */
export type SimulatorLogger = LevelLogger<'info' | 'error'>;

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
      const written = tokenEndpoint(req, raw, service, rateLimiter);
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
