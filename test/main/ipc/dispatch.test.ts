// Every IPC path through main's door: wrong sender, bad input, wrong role, output outside the contract, errors without stacks.
import { describe, expect, it } from 'vitest';
import { CHANNEL_NAMES, CHANNELS } from '../../../shared/ipc';
import type { DoorCall } from '../../../main/ipc';
import { createDispatcher, isAppUrl } from '../../../main/ipc';
import { OperatorError } from '../../../main/operators';
import { ServiceError } from '../../../main/payments';
import { MessagingError } from '../../../main/messaging';
import { RefundError } from '../../../main/refunds';
import { ReservationError } from '../../../main/reservations';
import { SecretError } from '../../../main/secrets';
import { SettingsError } from '../../../main/settings';
import { UpdateError } from '../../../main/updates';
import { StorageError } from '../../../main/storage';
import {
  ADMIN as admin,
  AGENT as agent,
  APP_URL,
  LEAK,
  SUPERVISOR as supervisor,
  VALID_INPUTS,
  allowedCaller,
  door,
  recordingHandlers,
  trusted,
} from './fixtures';

describe('every channel, called as the contract allows', () => {
  it.each(CHANNEL_NAMES)(
    '%s: reaches its handler with the operator from main, and nothing outside the contract comes back',
    async (channel) => {
      const who = allowedCaller(channel);
      const { dispatch, calls } = door(who);
      const result = await dispatch(channel, trusted, VALID_INPUTS[channel]);
      expect(result.ok).toBe(true);
      expect(calls).toHaveLength(1);
      expect(calls[0]?.ctx.operator).toEqual(who);
      const text = JSON.stringify(result);
      expect(text).not.toContain(LEAK.clientSecret);
      expect(text).not.toContain(LEAK.accessToken);
    },
  );
});

describe('refused before the handler runs', () => {
  it.each([
    ['another origin', { ...trusted, url: 'https://evil.example/' }],
    ['a subframe', { ...trusted, isMainFrame: false }],
    ['another window', { ...trusted, webContentsId: 2 }],
    ['a file:// page', { ...trusted, url: 'file:///tmp/x.html' }],
  ])('a call from %s', async (_, sender) => {
    const { dispatch, calls } = door(agent);
    const result = await dispatch('payments:get', sender, VALID_INPUTS['payments:get']);
    expect(result).toEqual({ ok: false, error: { code: 'forbidden_sender', message: expect.any(String) as string } });
    expect(calls).toEqual([]);
  });

  it('a channel that is not in the contract', async () => {
    const { dispatch, calls } = door(agent);
    expect(await dispatch('shell:openExternal', trusted, {})).toMatchObject({
      ok: false,
      error: { code: 'unknown_channel' },
    });
    expect(await dispatch('__proto__', trusted, {})).toMatchObject({ ok: false, error: { code: 'unknown_channel' } });
    expect(calls).toEqual([]);
  });

  it('bad input, with the field at fault and the code the renderer words', async () => {
    const { dispatch, calls } = door(agent);
    const result = await dispatch('payments:pay', trusted, {
      ...(VALID_INPUTS['payments:pay'] as object),
      amountCents: 1000.5,
    });
    expect(result).toEqual({
      ok: false,
      error: { code: 'invalid_input', field: 'amountCents' },
    });
    expect(calls).toEqual([]);
  });

  it('an operator id sent by the renderer: refused (main knows who is signed in)', async () => {
    const { dispatch, calls } = door(agent);
    const result = await dispatch('payments:pay', trusted, {
      ...(VALID_INPUTS['payments:pay'] as object),
      operatorId: 'someone-else',
    });
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_input', field: 'operatorId' } });
    expect(calls).toEqual([]);
  });

  it('signed out: only public channels answer', async () => {
    const { dispatch, calls } = door(undefined);
    expect(await dispatch('payments:get', trusted, VALID_INPUTS['payments:get'])).toMatchObject({
      ok: false,
      error: { code: 'signed_out' },
    });
    expect(await dispatch('session:status', trusted, {})).toMatchObject({ ok: true });
    expect(calls.map((c) => c.channel)).toEqual(['session:status']);
  });

  it('an agent cannot refund, even calling the channel directly; a supervisor can', async () => {
    const { dispatch, calls, signIn } = door(agent);
    expect(await dispatch('refunds:create', trusted, VALID_INPUTS['refunds:create'])).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });
    expect(calls).toEqual([]);
    signIn(supervisor);
    expect(await dispatch('refunds:create', trusted, VALID_INPUTS['refunds:create'])).toMatchObject({ ok: true });
  });

  it('an admin manages, but does not take card payments', async () => {
    const { dispatch, calls } = door(admin);
    expect(await dispatch('payments:tokenize', trusted, VALID_INPUTS['payments:tokenize'])).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });
    expect(calls).toEqual([]);
  });
});

describe('isAppUrl', () => {
  it('compares scheme and host, since custom-scheme origins are opaque', () => {
    expect(new URL('file:///x').origin).toBe(new URL(APP_URL).origin); // both "null": why origins are not compared
    expect(isAppUrl('app://desk/deep/page?x=1', APP_URL)).toBe(true);
    expect(isAppUrl('file:///tmp/x.html', APP_URL)).toBe(false);
    expect(isAppUrl('app://other/index.html', APP_URL)).toBe(false);
    expect(isAppUrl('https://desk/index.html', APP_URL)).toBe(false);
    expect(isAppUrl('not a url', APP_URL)).toBe(false);
  });
});

describe('who is signed in, asked at each call', () => {
  it("a session ended from another desk: an operator's call is refused saying so, a public one still answers", async () => {
    const { handlers, calls } = recordingHandlers();
    const ended = {
      code: 'session_ended_elsewhere',
      message: 'Your session on this desk was ended.',
      params: { deskId: 'desk-b', sinceAt: '2026-11-24T10:00:00.000Z' },
    };
    const dispatch = createDispatcher({
      handlers,
      currentOperator: () => Promise.resolve(undefined),
      signedOutReason: () => ended,
      isTrustedSender: () => true,
    });
    expect(await dispatch('payments:get', trusted, VALID_INPUTS['payments:get'])).toEqual({ ok: false, error: ended });
    expect((await dispatch('session:status', trusted, {})).ok).toBe(true);
    expect(calls.map((c) => c.channel)).toEqual(['session:status']);
  });

  it('the center unreachable while asking: refused in its own words, nothing handled', async () => {
    const { handlers, calls } = recordingHandlers();
    const down = new StorageError('center_unavailable', 'The center cannot be reached.', { center: 'db:5432' });
    const dispatch = createDispatcher({
      handlers,
      currentOperator: () => Promise.reject(down),
      isTrustedSender: () => true,
    });
    expect(await dispatch('payments:get', trusted, VALID_INPUTS['payments:get'])).toEqual({
      ok: false,
      error: { code: 'center_unavailable', params: { center: 'db:5432' } },
    });
    expect(calls).toEqual([]);
  });
});

describe('errors cross as {code, field, params}, never a sentence or a stack', () => {
  it('an engine error keeps its code and field', async () => {
    const { handlers } = recordingHandlers();
    const dispatch = createDispatcher({
      handlers: {
        ...handlers,
        'payments:get': () =>
          Promise.reject(
            new ServiceError('http', 'not_found', 'The payment service does not know this payment.', {
              status: 404,
              requestId: 'req-1',
            }),
          ),
      },
      currentOperator: () => agent,
      isTrustedSender: () => true,
    });
    expect(await dispatch('payments:get', trusted, VALID_INPUTS['payments:get'])).toEqual({
      ok: false,
      error: { code: 'not_found' },
    });
  });

  it('an operator error (a failed sign-in) keeps its code', async () => {
    const { handlers } = recordingHandlers();
    const dispatch = createDispatcher({
      handlers: {
        ...handlers,
        'session:signIn': () => Promise.reject(new OperatorError('invalid_credentials')),
      },
      currentOperator: () => undefined,
      isTrustedSender: () => true,
    });
    expect(await dispatch('session:signIn', trusted, VALID_INPUTS['session:signIn'])).toEqual({
      ok: false,
      error: { code: 'invalid_credentials' },
    });
  });

  // Each capability's own error, thrown behind the door with no other mapping given: one type crosses, with what it says.
  it.each([
    [
      'OperatorError',
      new OperatorError('locked', { lockedForMs: 1, params: { minutes: 30 } }),
      { code: 'locked', params: { minutes: 30 } },
    ],
    [
      'RefundError',
      new RefundError('refund_limit', 'Too much.', {
        field: 'amount',
        params: { limitCents: 50_000, currency: 'usd' },
      }),
      { code: 'refund_limit', field: 'amount', params: { limitCents: 50_000, currency: 'usd' } },
    ],
    [
      'ServiceError',
      new ServiceError('http', 'validation_error', 'Too small.', { status: 400, param: 'amount' }),
      { code: 'validation_error', field: 'amount' },
    ],
    // A code the contract does not list (the service's own word) crosses as service_refused, its word in params.
    [
      'ServiceError (unlisted)',
      new ServiceError('http', 'brand_new_code', 'Something new.', { status: 422 }),
      { code: 'service_refused', params: { serviceCode: 'brand_new_code' } },
    ],
    [
      'SettingsError',
      new SettingsError('locked', [{ field: 'language', message: 'is managed by IT' }]),
      {
        code: 'locked',
        field: 'language',
        params: { settings: 'language' },
      },
    ],
    [
      'ReservationError',
      new ReservationError('unavailable', { status: 503 }),
      { code: 'unavailable', params: { status: 503 } },
    ],
    ['MessagingError', new MessagingError('training_only'), { code: 'training_only' }],
    ['UpdateError', new UpdateError('not_ready'), { code: 'not_ready' }],
    ['SecretError', new SecretError('needs_reprovisioning'), { code: 'needs_reprovisioning' }],
  ])('%s crosses as the one user-facing error: code, field and params', async (_, error, expected) => {
    const { handlers } = recordingHandlers();
    const unexpected: unknown[] = [];
    const dispatch = createDispatcher({
      handlers: { ...handlers, 'payments:get': () => Promise.reject(error) },
      currentOperator: () => agent,
      isTrustedSender: () => true,
      onUnexpectedError: (_c, e) => unexpected.push(e),
    });
    expect(await dispatch('payments:get', trusted, VALID_INPUTS['payments:get'])).toEqual({
      ok: false,
      error: expected,
    });
    expect(unexpected).toEqual([]);
  });

  it('an error that merely looks like one (a code and a message) is still internal', async () => {
    const { handlers } = recordingHandlers();
    const lookalike = Object.assign(new Error('connect ECONNREFUSED 10.0.0.7:443'), {
      code: 'ECONNREFUSED',
      field: 'amount',
    });
    const dispatch = createDispatcher({
      handlers: { ...handlers, 'payments:get': () => Promise.reject(lookalike) },
      currentOperator: () => agent,
      isTrustedSender: () => true,
    });
    const result = await dispatch('payments:get', trusted, VALID_INPUTS['payments:get']);
    expect(result).toEqual({ ok: false, error: { code: 'internal', message: expect.any(String) as string } });
    expect(JSON.stringify(result)).not.toMatch(/ECONNREFUSED|10\.0\.0\.7/);
  });

  it('an unexpected error becomes a plain message, and is reported to main only', async () => {
    const { handlers } = recordingHandlers();
    const seen: unknown[] = [];
    const dispatch = createDispatcher({
      handlers: {
        ...handlers,
        'payments:get': () => Promise.reject(new Error(`ENOENT /home/agent/${APP_URL} secret=abc`)),
      },
      currentOperator: () => agent,
      isTrustedSender: () => true,
      onUnexpectedError: (_c, e) => seen.push(e),
    });
    const result = await dispatch('payments:get', trusted, VALID_INPUTS['payments:get']);
    expect(result).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(JSON.stringify(result)).not.toMatch(/ENOENT|secret|at |\.ts/);
    expect(seen).toHaveLength(1);
  });

  it('a handler answer outside the contract is not sent at all', async () => {
    const { handlers } = recordingHandlers();
    const dispatch = createDispatcher({
      handlers: { ...handlers, 'payments:get': () => Promise.resolve({ raw: 'the service body' } as never) },
      currentOperator: () => agent,
      isTrustedSender: () => true,
    });
    const result = await dispatch('payments:get', trusted, VALID_INPUTS['payments:get']);
    expect(result).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(JSON.stringify(result)).not.toContain('service body');
  });
});

describe('the contract decides activity, and every call is reported once with where it stopped', () => {
  function watched(operator: typeof agent | undefined) {
    const { handlers, calls } = recordingHandlers();
    const activity: string[] = [];
    const seen: DoorCall[] = [];
    const dispatch = createDispatcher({
      handlers,
      currentOperator: () => operator,
      isTrustedSender: (s) => s.isMainFrame,
      onActivity: (channel) => activity.push(channel),
      onCall: (call) => seen.push(call),
    });
    return { dispatch, calls, activity, seen };
  }

  it.each(CHANNEL_NAMES)(
    '%s: activity only when the contract says operator, and only once allowed',
    async (channel) => {
      const { dispatch, activity, seen } = watched(allowedCaller(channel));
      await dispatch(channel, trusted, VALID_INPUTS[channel]);
      expect(activity).toEqual(CHANNELS[channel].activity === 'operator' ? [channel] : []);
      expect(seen).toHaveLength(1);
      expect(seen[0]).toMatchObject({ channel, stage: 'handler', error: undefined });
    },
  );

  it('refused calls are never activity: another frame, an unknown channel, bad input, the wrong role, signed out', async () => {
    const asAgent = watched(agent);
    await asAgent.dispatch('session:activity', { ...trusted, isMainFrame: false }, {});
    await asAgent.dispatch('shell:openExternal', trusted, {});
    await asAgent.dispatch('payments:pay', trusted, { note: 'x'.repeat(4_000_000) });
    await asAgent.dispatch('refunds:create', trusted, VALID_INPUTS['refunds:create']);
    const signedOut = watched(undefined);
    await signedOut.dispatch('session:activity', trusted, {});
    expect([...asAgent.activity, ...signedOut.activity]).toEqual([]);
    expect([...asAgent.calls, ...signedOut.calls]).toEqual([]);
    expect([...asAgent.seen, ...signedOut.seen].map((c) => [c.stage, c.error?.code])).toEqual([
      ['sender', 'forbidden_sender'],
      ['channel', 'unknown_channel'],
      ['input', 'invalid_input'],
      ['access', 'forbidden'],
      ['access', 'signed_out'],
    ]);
    // The input is handed on only once the contract parsed it.
    expect(asAgent.seen[2]?.input).toBeUndefined();
    expect(asAgent.seen[3]?.input).toMatchObject({ paymentId: expect.any(String) as string });
  });
});
