// The standalone simulator: `npm run sandbox -- [flags]` (simulator.md "Start"; README "No card data out").
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ALL_CARDS, ApiClient, CARDS, advanceClock, methodSchema, parseOk, type SimInfo } from './support';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

const startLineSchema = z.object({
  authUrl: z.string().url(),
  cdeUrl: z.string().url(),
  baseUrl: z.string().url(),
  controlUrl: z.string().url(),
  clientId: z.string().min(1),
  clientSecret: z.string().min(1),
  publishableKey: z.string().regex(/^pk_sandbox_/),
});

let child: ChildProcessWithoutNullStreams | undefined;

afterAll(() => {
  // only if a test failed before the process ended: stop the one we started, by its pid
  if (child !== undefined && child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
});

function firstLine(proc: ChildProcessWithoutNullStreams, stdout: { text: string }, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no start line within ${timeoutMs} ms; stdout: ${stdout.text}`)),
      timeoutMs,
    );
    const check = (): void => {
      const nl = stdout.text.indexOf('\n');
      if (nl >= 0) {
        clearTimeout(timer);
        proc.stdout.off('data', check);
        resolve(stdout.text.slice(0, nl));
      }
    };
    proc.stdout.on('data', check);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${String(code)} before printing; stdout: ${stdout.text}`));
    });
    check();
  });
}

function exitOf(
  proc: ChildProcessWithoutNullStreams,
  timeoutMs: number,
): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    if (proc.exitCode !== null || proc.signalCode !== null) {
      resolve({ code: proc.exitCode, signal: proc.signalCode });
      return;
    }
    const timer = setTimeout(() => reject(new Error(`did not exit within ${timeoutMs} ms`)), timeoutMs);
    proc.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal });
    });
  });
}

// The documented command itself. The script `exec`s node, so npm hands SIGTERM to the simulator
// (without exec, npm 11 exits 143 and leaves the simulator orphaned).
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

describe('npm run sandbox -- --port 0 --processing-delay-ms 10', () => {
  it(
    'prints one JSON start line, serves, and exits 0 on SIGTERM without leaking card data',
    { timeout: 90_000 },
    async () => {
      const proc = spawn(npm, ['run', '--silent', 'sandbox', '--', '--port', '0', '--processing-delay-ms', '10'], {
        cwd: repoRoot,
        env: { ...process.env, NO_COLOR: '1' },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      child = proc;
      const stdout = { text: '' };
      let stderr = '';
      proc.stdout.setEncoding('utf8');
      proc.stderr.setEncoding('utf8');
      proc.stdout.on('data', (chunk: string) => {
        stdout.text += chunk;
      });
      proc.stderr.on('data', (chunk: string) => {
        stderr += chunk;
      });

      const line = await firstLine(proc, stdout, 60_000);
      const info: SimInfo = startLineSchema.parse(JSON.parse(line));
      expect(Object.keys(JSON.parse(line) as Record<string, unknown>).sort()).toEqual(
        ['authUrl', 'baseUrl', 'cdeUrl', 'clientId', 'clientSecret', 'controlUrl', 'publishableKey'].sort(),
      );

      // tokenize every test card against it, and run one payment through the 10 ms processing delay
      const client = new ApiClient(info);
      const sent: { number: string; cvv: string }[] = [];
      for (const card of ALL_CARDS) {
        const res = await client.tokenizeRaw(card);
        const method = parseOk(res, methodSchema, 201);
        expect(method.card.last4).toBe(card.number.slice(-4));
        expect(res.text).not.toContain(card.number);
        sent.push({ number: card.number, cvv: card.cvv });
      }
      // a refused card (Luhn failure) must not be logged either
      const luhnBad = '4242424242424241';
      expect((await client.tokenizeRaw(luhnBad, { cvv: '909' })).status).toBe(400);
      sent.push({ number: luhnBad, cvv: '909' });

      const payment = await client.payWith(CARDS.visa, { amount: 10 });
      await advanceClock(info, 1);
      expect((await client.getPayment(payment.id)).status).toBe('succeeded');

      // requests are logged to stderr
      expect(stderr.length).toBeGreaterThan(0);

      expect(proc.kill('SIGTERM')).toBe(true);
      const { code, signal } = await exitOf(proc, 20_000);
      expect(signal).toBeNull();
      expect(code).toBe(0);
      // and the simulator itself stopped with npm: nothing answers on its port any more
      await expect(fetch(`${info.controlUrl}/reset`, { method: 'POST' })).rejects.toThrow();

      // exactly one line on stdout
      expect(stdout.text).toBe(`${line}\n`);
      for (const { number, cvv } of sent) {
        for (const [name, text] of [
          ['stdout', stdout.text],
          ['stderr', stderr],
        ] as const) {
          expect(text, `${name} contains ${number}`).not.toContain(number);
          // a CVV may collide with digits of a timestamp; look for it as a value of its own
          expect(text, `${name} contains the CVV`).not.toMatch(new RegExp(`(["'=:]\\s*)${cvv}(?!\\d)`));
        }
      }
      expect(stderr.toLowerCase()).not.toMatch(/"cvv"|cvv=|"number"\s*:/);
    },
  );
});
