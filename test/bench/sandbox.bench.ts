/**
 * `npm run bench:sandbox`: GET /payments/{id} with 50 concurrent connections for 10 s against the
 * simulator started by its own CLI in a separate process (so the load generator and the server do not
 * share an event loop). Prints one line: `sandbox-bench rps=<n> p99_ms=<n> errors=<n>`.
 * Budget on a 2-core machine: rps >= 3000, p99 <= 25 ms, 0 errors.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';

const CONNECTIONS = 50;
const DURATION_S = 10;

interface StartLine {
  authUrl: string;
  cdeUrl: string;
  baseUrl: string;
  clientId: string;
  clientSecret: string;
}

async function json<T>(response: Response): Promise<T> {
  if (!response.ok) throw new Error(`${response.url} answered ${response.status}`);
  return (await response.json()) as T;
}

async function main(): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'main/cli/sandbox.ts', '--port', '0'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  try {
    const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
    const sim = JSON.parse(line) as StartLine;

    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: sim.clientId,
      client_secret: sim.clientSecret,
    });
    const { access_token: token } = await json<{ access_token: string }>(
      await fetch(`${sim.authUrl}/oauth2/token`, { method: 'POST', body: form }),
    );
    const post = async <T>(url: string, body: unknown): Promise<T> =>
      json<T>(
        await fetch(url, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${token}`,
            'Content-Type': 'application/json',
            'Idempotency-Key': randomUUID(),
          },
          body: JSON.stringify(body),
        }),
      );
    const method = await post<{ id: string }>(`${sim.cdeUrl}/methods`, {
      type: 'card',
      card: { number: '4242424242424242', expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvv: '123' },
    });
    const payment = await post<{ id: string }>(`${sim.baseUrl}/payments`, {
      methodId: method.id,
      amount: 125.5,
      currency: 'usd',
      reservationId: 'BENCH-1',
    });

    const result = await autocannon({
      url: `${sim.baseUrl}/payments/${payment.id}`,
      connections: CONNECTIONS,
      duration: DURATION_S,
      headers: { Authorization: `Bearer ${token}` },
    });
    const errors = result.errors + result.timeouts + result.non2xx;
    console.log(
      `sandbox-bench rps=${Math.round(result.requests.average)} p99_ms=${result.latency.p99} errors=${errors}`,
    );
  } finally {
    child.kill('SIGTERM');
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
