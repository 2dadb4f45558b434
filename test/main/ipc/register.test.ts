// registerIpc and publish with Electron's ipcMain and WebContents mocked (no Electron binary here): one handler per channel, events parsed.
import { describe, expect, it } from 'vitest';
import { CHANNEL_NAMES } from '../../../shared/ipc';
import { publish, registerIpc, type Dispatch, type SenderInfo } from '../../../main/ipc';

type Listener = (event: unknown, input: unknown) => unknown;

function fakeIpcMain() {
  const handlers = new Map<string, Listener>();
  return {
    handlers,
    handle: (channel: string, listener: Listener) => {
      if (handlers.has(channel)) throw new Error(`second handler for ${channel}`);
      handlers.set(channel, listener);
    },
    removeHandler: (channel: string) => handlers.delete(channel),
  };
}

describe('registerIpc', () => {
  it('registers exactly the contract channels, and passes the sender frame facts to the dispatcher', async () => {
    const ipc = fakeIpcMain();
    const seen: [string, SenderInfo, unknown][] = [];
    const dispatch: Dispatch = (channel, sender, input) => {
      seen.push([channel, sender, input]);
      return Promise.resolve({ ok: true, value: null });
    };
    const unregister = registerIpc(ipc as never, dispatch);
    expect([...ipc.handlers.keys()].sort()).toEqual([...CHANNEL_NAMES].sort());

    const mainFrame = { url: 'app://desk/index.html' };
    const event = { sender: { id: 7, mainFrame }, senderFrame: mainFrame };
    await ipc.handlers.get('payments:get')?.(event, { paymentId: 'x' });
    const subframe = { url: 'app://desk/frame.html' };
    await ipc.handlers.get('payments:get')?.({ sender: { id: 7, mainFrame }, senderFrame: subframe }, {});
    await ipc.handlers.get('payments:get')?.({ sender: { id: 7, mainFrame }, senderFrame: null }, {});
    expect(seen.map(([, s]) => s)).toEqual([
      { url: 'app://desk/index.html', isMainFrame: true, webContentsId: 7 },
      { url: 'app://desk/frame.html', isMainFrame: false, webContentsId: 7 },
      { url: '', isMainFrame: false, webContentsId: 7 },
    ]);
    unregister();
    expect(ipc.handlers.size).toBe(0);
  });
});

describe('publish', () => {
  it('parses the payload by the contract (dropping what it does not name) and skips destroyed windows', () => {
    const sent: [string, unknown][] = [];
    const live = { isDestroyed: () => false, send: (e: string, p: unknown) => sent.push([e, p]) };
    const gone = {
      isDestroyed: () => true,
      send: () => {
        throw new Error('sent to a destroyed window');
      },
    };
    const payment = {
      id: `pay_${'a'.repeat(32)}`,
      reservationId: 'R',
      status: 'succeeded',
      amountCents: 100,
      currency: 'usd',
      methodId: 'm',
      availableInstallments: [],
      refunds: [],
      refundableCents: 100,
      hasChallengeLink: false,
      createdAt: 'now',
      accessToken: 'tok_secret',
    };
    publish([live, gone] as never, 'payments:changed', payment);
    expect(sent).toHaveLength(1);
    expect(JSON.stringify(sent)).not.toContain('tok_secret');
    expect(() => publish([live] as never, 'payments:changed', { id: 1 } as never)).toThrow();
  });
});
