// A failed request in words, and whether it may have reached the provider (main/messaging/errors.ts). In the app every
// request goes through Electron's net.fetch, whose failures are Chromium's net errors: `new Error('net::ERR_…')`, with
// no `code` (electron/electron lib/common/api/net-client-request.ts). No Electron binary runs here, so those errors are
// made as net.fetch makes them; Node's own (undici) errors come from real sockets in twilio.test.ts and webhook.test.ts.
import { describe, expect, it } from 'vitest';
import { networkFailure } from '../../../main/messaging/errors';
import { ACCOUNT_SID, AUTH_TOKEN, startTwilio } from './twilio-server';
import { context, makeRig } from './support';

/** A failure as Electron's net.fetch rejects with it. */
const chromium = (name: string): Error => new Error(`net::${name}`);
const WHERE = 'Twilio (api.twilio.com)';

describe("Electron's net.fetch failures (Chromium net errors)", () => {
  it.each([
    ['ERR_CONNECTION_REFUSED', 'connection_refused', true],
    ['ERR_NAME_NOT_RESOLVED', 'host_not_found', false],
    ['ERR_NAME_RESOLUTION_FAILED', 'host_not_found', true],
    ['ERR_CONNECTION_TIMED_OUT', 'timeout', true],
    ['ERR_ADDRESS_UNREACHABLE', 'network_error', true],
    ['ERR_INTERNET_DISCONNECTED', 'network_error', true],
    ['ERR_PROXY_CONNECTION_FAILED', 'network_error', true],
    ['ERR_TUNNEL_CONNECTION_FAILED', 'network_error', true],
    ['ERR_CERT_AUTHORITY_INVALID', 'tls_error', false],
    ['ERR_CERT_DATE_INVALID', 'tls_error', false],
    ['ERR_SSL_VERSION_OR_CIPHER_MISMATCH', 'tls_error', false],
  ] as const)('%s: nothing reached the provider (%s, retryable %s)', (name, code, retryable) => {
    const failure = networkFailure(chromium(name), WHERE);
    expect({ code: failure.code, retryable: failure.retryable, mayHaveSent: failure.mayHaveSent }).toEqual({
      code,
      retryable,
      mayHaveSent: false,
    });
    expect(failure.message).toContain(WHERE);
  });

  it.each([
    ['ERR_CONNECTION_RESET', 'network_error'],
    ['ERR_CONNECTION_CLOSED', 'network_error'],
    ['ERR_CONNECTION_ABORTED', 'network_error'],
    ['ERR_EMPTY_RESPONSE', 'network_error'],
    ['ERR_NETWORK_CHANGED', 'network_error'],
    ['ERR_TIMED_OUT', 'timeout'],
    // Also a bad record after the handshake, when the request is already out.
    ['ERR_SSL_PROTOCOL_ERROR', 'tls_error'],
    ['ERR_HTTP2_PROTOCOL_ERROR', 'unexpected'],
  ] as const)('%s: it may have reached the provider (%s)', (name, code) => {
    const failure = networkFailure(chromium(name), WHERE);
    expect({ code: failure.code, mayHaveSent: failure.mayHaveSent }).toEqual({ code, mayHaveSent: true });
  });

  it('the timeout the app sets (AbortSignal.timeout, which net.fetch rejects with): may have been sent', () => {
    const failure = networkFailure(new DOMException('The operation was aborted due to timeout', 'TimeoutError'), WHERE);
    expect({ code: failure.code, mayHaveSent: failure.mayHaveSent }).toEqual({ code: 'timeout', mayHaveSent: true });
  });

  it('through Twilio: a refused connection is tried again without a look-up; an unknown host is for IT, never "may have been sent"', async () => {
    const server = await startTwilio();
    const calls: string[] = [];
    const rigWith = (name: string) =>
      makeRig({
        environment: 'production',
        config: {
          providers: { sms: 'twilio' },
          twilio: { accountSid: ACCOUNT_SID, baseUrl: server.origin, smsFrom: '+15017122661' },
        },
        secrets: { twilioAuthToken: AUTH_TOKEN },
        fetch: (input, init) => {
          calls.push(
            `${init?.method ?? 'GET'} ${new URL(input instanceof Request ? input.url : input).pathname.endsWith('Messages.json') ? 'Messages' : 'other'}`,
          );
          return Promise.reject(chromium(name));
        },
      });
    const request = {
      paymentId: context().payment.id,
      channel: 'sms' as const,
      destination: '+52 55 1234 5678',
      language: 'es-MX' as const,
    };
    try {
      const refused = rigWith('ERR_CONNECTION_REFUSED');
      const result = await refused.messenger.send(request, context());
      await refused.close();
      expect(result).toMatchObject({
        status: 'failed',
        attempts: 3,
        failure: { code: 'connection_refused', actor: 'desk' },
      });
      // Three POSTs, no look-up: nothing can have been created.
      expect(calls).toEqual(['POST Messages', 'POST Messages', 'POST Messages']);

      calls.length = 0;
      const unknownHost = rigWith('ERR_NAME_NOT_RESOLVED');
      const dns = await unknownHost.messenger.send(request, context());
      await unknownHost.close();
      expect(dns).toMatchObject({ status: 'failed', attempts: 1, failure: { code: 'host_not_found', actor: 'it' } });
      expect(calls).toEqual(['POST Messages']);
    } finally {
      await server.close();
    }
  });
});
