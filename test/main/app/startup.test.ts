// The start-up door (main/app/startup.ts): while the stack does not serve, the window shown at once may ask only where the
// start stands (`app:startup`), from the app's own window; every other channel is refused as `starting`, and each change
// of the status is told to its listeners (main/index.ts publishes them to the window as `app:startup` events).
import { describe, expect, it } from 'vitest';
import { createStartup } from '../../../main/app';
import type { SenderInfo } from '../../../main/ipc';
import { CHANNEL_NAMES, type StartupStatus } from '../../../shared/ipc';
import type { Language } from '../../../shared/language';

const own: SenderInfo = { url: 'app://app/index.html', isMainFrame: true, webContentsId: 1 };
const stranger: SenderInfo = { url: 'https://evil.example/', isMainFrame: true, webContentsId: 1 };

function open(language: Language = 'es-MX') {
  let current = language;
  const startup = createStartup({
    language: () => current,
    isTrustedSender: (sender) => sender.url.startsWith('app://app/') && sender.isMainFrame,
  });
  const told: StartupStatus[] = [];
  const off = startup.onChange((status) => told.push(status));
  return { startup, told, off, speak: (next: Language) => (current = next) };
}

describe('the start-up door', () => {
  it('answers app:startup with the phase and the desk’s language, starting first', async () => {
    const { startup } = open('en-US');
    expect(await startup.door('app:startup', own, {})).toEqual({
      ok: true,
      value: { phase: 'starting', language: 'en-US' },
    });
  });

  it('refuses every other channel of the contract as starting, and a made-up one as unknown', async () => {
    const { startup } = open();
    const others = CHANNEL_NAMES.filter((channel) => channel !== 'app:startup');
    expect(others.length).toBeGreaterThan(40);
    for (const channel of others) {
      const answer = await startup.door(channel, own, {});
      expect(answer, channel).toMatchObject({ ok: false, error: { code: 'starting' } });
    }
    expect(await startup.door('app:anything', own, {})).toMatchObject({
      ok: false,
      error: { code: 'unknown_channel' },
    });
  });

  it('refuses a sender that is not the app’s own window, whatever the channel', async () => {
    const { startup } = open();
    expect(await startup.door('app:startup', stranger, {})).toMatchObject({
      ok: false,
      error: { code: 'forbidden_sender' },
    });
    expect(
      await startup.door('session:signIn', { ...own, isMainFrame: false }, { id: 'ana', password: 'x' }),
    ).toMatchObject({
      ok: false,
      error: { code: 'forbidden_sender' },
    });
  });

  it('checks the input as the contract says (none)', async () => {
    const { startup } = open();
    expect(await startup.door('app:startup', own, { phase: 'ready' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    expect(await startup.door('app:startup', own, undefined)).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
  });

  it('tells each change to its listeners and answers it; recovery says done of total, and nothing once past it', async () => {
    const { startup, told, off } = open();
    startup.set('connecting_center');
    startup.progress(0, 3);
    startup.progress(1, 3);
    expect(await startup.door('app:startup', own, {})).toEqual({
      ok: true,
      value: { phase: 'recovering', language: 'es-MX', recovering: { total: 3, done: 1 } },
    });
    startup.progress(3, 3);
    startup.set('ready');
    expect(told).toEqual([
      { phase: 'connecting_center', language: 'es-MX' },
      { phase: 'recovering', language: 'es-MX', recovering: { total: 3, done: 0 } },
      { phase: 'recovering', language: 'es-MX', recovering: { total: 3, done: 1 } },
      { phase: 'recovering', language: 'es-MX', recovering: { total: 3, done: 3 } },
      { phase: 'ready', language: 'es-MX' },
    ]);
    expect(startup.status()).toEqual({ phase: 'ready', language: 'es-MX' });
    off();
    startup.set('starting');
    expect(told).toHaveLength(5);
  });

  it('says the language the settings hold at the time of each answer', async () => {
    const { startup, speak } = open('es-MX');
    speak('en-US');
    expect(await startup.door('app:startup', own, {})).toMatchObject({ ok: true, value: { language: 'en-US' } });
  });

  it('answers only what the contract names: a count outside it is never sent', async () => {
    const { startup } = open();
    startup.progress(-1, 2);
    // A negative count cannot cross: the door's answer is parsed by the contract, and refused in words when outside it.
    expect(await startup.door('app:startup', own, {})).toMatchObject({ ok: false, error: { code: 'internal' } });
  });
});
