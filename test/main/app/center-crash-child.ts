/**
 * Crash harness for center-desks.test.ts, run as `node --import tsx test/main/app/center-crash-child.ts`: a whole desk
 * (createMainStack) on the center's PostgreSQL and the test's simulator, whose one fetch sends POST /payments and never
 * hands the answer back (crash-kit's haltAfterSend). It signs the agent in, keys a card and charges it; once the request
 * body is on the socket it prints `AT after-send` and waits to be SIGKILLed: the journal row is committed in the center,
 * the service has the request, the desk never learns the answer. Its job comes as JSON in CRASH_JOB. Nothing is exported.
 */
import { z } from 'zod';
import { createMainStack } from '../../../main/app';
import { simulatorConfig } from '../../../main/payments';
import { centerStorage } from '../../../main/storage';
import { haltAfterSend, say } from '../support/crash-kit';
import { MIN_COST } from '../../../main/operators';

const Job = z.strictObject({
  point: z.literal('after-send'),
  dataDir: z.string().min(1),
  center: z.strictObject({
    host: z.string(),
    port: z.number().int(),
    database: z.string(),
    user: z.string(),
    password: z.string(),
  }),
  sim: z.strictObject({
    authUrl: z.url(),
    cdeUrl: z.url(),
    baseUrl: z.url(),
    controlUrl: z.url(),
    clientId: z.string(),
    clientSecret: z.string(),
  }),
  operator: z.strictObject({ id: z.string(), password: z.string() }),
  reservationId: z.string(),
  operationId: z.uuid(),
  amountCents: z.number().int(),
  expYear: z.number().int(),
});

const sender = { url: 'app://app/index.html', isMainFrame: true, webContentsId: 1 };

async function main(): Promise<void> {
  const job = Job.parse(JSON.parse(process.env['CRASH_JOB'] ?? 'null'));
  const { password, ...center } = job.center;
  const stack = await createMainStack({
    passwordCost: MIN_COST,
    dataDir: job.dataDir,
    version: 'crash',
    fetch: haltAfterSend(new URL(`${job.sim.baseUrl}/payments`)),
    isTrustedSender: () => true,
    storage: centerStorage({ ...center, password: () => Promise.resolve(password), tls: { mode: 'disable' } }),
    connect: () =>
      Promise.resolve({
        config: simulatorConfig(job.sim),
        secrets: { read: () => Promise.resolve(job.sim.clientSecret) },
        training: { controlUrl: job.sim.controlUrl },
        close: () => Promise.resolve(),
      }),
  });
  const ok = async (channel: string, input: unknown): Promise<unknown> => {
    const result = await stack.dispatch(channel, sender, input);
    if (!result.ok) throw new Error(`${channel}: ${result.error.code}`);
    return result.value;
  };
  await ok('session:signIn', job.operator);
  const method = (await ok('payments:tokenize', {
    operationId: crypto.randomUUID(),
    card: { number: '4242424242424242', expMonth: 12, expYear: job.expYear, cvv: '123' },
    reservationId: job.reservationId,
  })) as { id: string };
  await ok('payments:pay', {
    operationId: job.operationId,
    methodId: method.id,
    amountCents: job.amountCents,
    currency: 'usd',
    reservationId: job.reservationId,
    acknowledgedPaymentIds: [],
  });
  say('UNEXPECTED payments:pay answered without reaching after-send');
  process.exit(2);
}

main().catch((error: unknown) => {
  say(`UNEXPECTED ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
  process.exit(2);
});
