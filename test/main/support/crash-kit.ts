// What the crash children (test/main/payments/crash-child.ts, test/main/refunds/crash-child.ts) share: say a line
// before dying, park the thread for good, and a fetch that sends one request and never hands its answer back.
import diagnostics from 'node:diagnostics_channel';
import { writeSync } from 'node:fs';

/** Written straight to fd 1, so the line is out before the thread blocks or is killed. */
export function say(line: string): void {
  writeSync(1, `${line}\n`);
}

/** Parks the thread for good: a synchronous caller never returns, no timer or I/O callback runs. */
export function haltHere(point: string): never {
  say(`AT ${point}`);
  const cell = new Int32Array(new SharedArrayBuffer(4));
  for (;;) Atomics.wait(cell, 0, 0);
}

export const never = <T>(): Promise<T> => new Promise<T>(() => undefined);

interface UndiciRequestMessage {
  request: { method?: unknown; path?: unknown; origin?: unknown };
}
const isRequestMessage = (m: unknown): m is UndiciRequestMessage =>
  typeof m === 'object' && m !== null && 'request' in m && typeof m.request === 'object' && m.request !== null;

/**
 * fetch that, for POST to `target`, starts the real request and resolves nothing: it says `AT after-send` once
 * undici reports the request body written to the socket (diagnostics channel `undici:request:bodySent`), so the
 * bytes are with the service when the process dies. Every other request goes through.
 */
export function haltAfterSend(target: URL): typeof fetch {
  const onBodySent = (message: unknown): void => {
    if (!isRequestMessage(message)) return;
    const { method, path, origin } = message.request;
    if (method !== 'POST' || path !== target.pathname) return;
    if (typeof origin === 'string' && new URL(origin).host !== target.host) return;
    diagnostics.unsubscribe('undici:request:bodySent', onBodySent);
    say('AT after-send');
  };
  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    if (method !== 'POST' || url.href !== target.href) return fetch(input, init);
    diagnostics.subscribe('undici:request:bodySent', onBodySent);
    // The answer is never handed to the engine: it is as if the process died before reading it.
    fetch(input, init).catch(() => undefined);
    return never<Response>();
  };
}

/** The desk a crashed child and the test's recovering stack both are: its approvals are the ones it recovers. */
export const CRASH_DESK_ID = '7c1f0e2d-4b3a-4c5d-8e6f-9a0b1c2d3e4f';
