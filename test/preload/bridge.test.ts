// The surface `window.api` exposes, built by the same factory the preload and the e2e harness use.
import { describe, expect, it } from 'vitest';
import { createBridge } from '../../preload/bridge';
import { CHANNEL_NAMES, EVENT_NAMES, type Channel, type EventName } from '../../shared/ipc';

function recordingTransport() {
  const invoked: [Channel, unknown][] = [];
  const subscribed: EventName[] = [];
  return {
    invoked,
    subscribed,
    transport: {
      invoke: (channel: Channel, input: unknown) => {
        invoked.push([channel, input]);
        return Promise.resolve({ ok: true, value: channel });
      },
      subscribe: (event: EventName) => {
        subscribed.push(event);
        return () => undefined;
      },
    },
  };
}

describe('createBridge', () => {
  it('exposes exactly one function per contract channel, grouped by domain, plus events.on — nothing generic', () => {
    const api = createBridge(recordingTransport().transport);
    const surface = Object.entries(api)
      .flatMap(([domain, group]) => Object.keys(group as object).map((verb) => `${domain}:${verb}`))
      .sort();
    expect(surface).toEqual([...CHANNEL_NAMES, 'events:on'].sort());
    expect(surface).toMatchInlineSnapshot(`
      [
        "app:info",
        "app:setLanguage",
        "app:startup",
        "audit:exportCsv",
        "audit:list",
        "audit:verify",
        "events:on",
        "live:watch",
        "messaging:channels",
        "messaging:history",
        "messaging:outbox",
        "messaging:playCardholder",
        "messaging:sendLink",
        "messaging:sendReceipt",
        "operators:create",
        "operators:list",
        "operators:resetPassword",
        "operators:update",
        "payments:abandon",
        "payments:acknowledgeRecovered",
        "payments:checkAgain",
        "payments:confirm",
        "payments:get",
        "payments:lateSuccesses",
        "payments:pay",
        "payments:recovered",
        "payments:resolveAttempt",
        "payments:search",
        "payments:tokenize",
        "payments:updateAmount",
        "payments:watch",
        "refunds:approve",
        "refunds:create",
        "refunds:limits",
        "refunds:override",
        "refunds:queue",
        "refunds:reject",
        "refunds:request",
        "refunds:requestsFor",
        "reports:endOfDay",
        "reservations:get",
        "reservations:importCsv",
        "reservations:overview",
        "reservations:search",
        "session:activity",
        "session:createFirstAdmin",
        "session:endLocked",
        "session:lock",
        "session:signIn",
        "session:signOut",
        "session:status",
        "updates:restart",
        "updates:status",
        "window:protectCardData",
      ]
    `);
    expect(Object.isFrozen(api)).toBe(true);
    expect(Object.isFrozen(api.payments)).toBe(true);
    expect('invoke' in api || 'send' in api || 'on' in api).toBe(false);
  });

  it('each function invokes its own channel only', async () => {
    const { transport, invoked } = recordingTransport();
    const api = createBridge(transport);
    await api.payments.get({ paymentId: 'pay_x' });
    await api.refunds.create({
      operationId: 'x',
      paymentId: 'pay_x',
      reason: 'duplicate',
      acknowledgedRefundIds: [],
      expectedAmountCents: 100,
    });
    expect(invoked).toEqual([
      ['payments:get', { paymentId: 'pay_x' }],
      [
        'refunds:create',
        {
          operationId: 'x',
          paymentId: 'pay_x',
          reason: 'duplicate',
          acknowledgedRefundIds: [],
          expectedAmountCents: 100,
        },
      ],
    ]);
  });

  it('subscribes only to contract events', () => {
    const { transport, subscribed } = recordingTransport();
    const api = createBridge(transport);
    api.events.on('payments:changed', () => undefined);
    expect(() => api.events.on('ipc:anything' as EventName, () => undefined)).toThrow(/Unknown event/);
    expect(subscribed).toEqual(['payments:changed']);
  });

  it('subscribes to every event of the contract, the live feed of the center included', () => {
    const { transport, subscribed } = recordingTransport();
    const api = createBridge(transport);
    for (const event of EVENT_NAMES) api.events.on(event, () => undefined);
    expect(subscribed).toMatchInlineSnapshot(`
      [
        "payments:changed",
        "session:locked",
        "session:idleWarning",
        "updates:changed",
        "app:startup",
        "messaging:delivery",
        "payments:lateSuccess",
        "refunds:changed",
        "refunds:outcome",
        "reservations:changed",
        "live:status",
        "live:resync",
      ]
    `);
  });
});
