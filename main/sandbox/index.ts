/** The built-in Card Payment Service simulator: training mode, and the service every test talks to. */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createClock } from './clock';
import { FaultQueue, RateLimiter } from './faults';
import { IdempotencyStore } from './idempotency';
import { SimulatorOptionsSchema, type SimulatorOptions } from './options';
import { makeSchemas } from './schemas';
import { createSimulatorServer, PREFIXES, type SimulatorLogger } from './server';
import { SimulatedService } from './service';

export type { SimulatorOptions } from './options';
export type { SimulatorLogger } from './server';
export { optionsFromArgs } from './options';

/** What a client needs to talk to the simulator: the keys of simulator.md's start line. */
export interface SimulatorEndpoints {
  authUrl: string;
  cdeUrl: string;
  baseUrl: string;
  controlUrl: string;
  clientId: string;
  clientSecret: string;
  publishableKey: string;
}

export interface RunningSimulator extends SimulatorEndpoints {
  close: () => Promise<void>;
}

const silent: SimulatorLogger = { info() {}, error() {} };

/** Starts the simulator on 127.0.0.1; it accepts connections when the promise resolves. */
export async function startSimulator(
  options: SimulatorOptions = {},
  logger: SimulatorLogger = silent,
): Promise<RunningSimulator> {
  const config = SimulatorOptionsSchema.parse(options);
  const clock = createClock();
  const service = new SimulatedService(config, clock, makeSchemas(clock));
  const { clientId, clientSecret } = service.registerClient(config.clientId, config.clientSecret);
  let origin = '';

  const server = createSimulatorServer({
    service,
    clock,
    idempotency: new IdempotencyStore(clock),
    faults: new FaultQueue(),
    rateLimiter: new RateLimiter(config.rateLimit, clock),
    latencyMs: config.latencyMs,
    logger,
    onReset: () => service.reset([clientId]),
    challengeBase: () => origin + PREFIXES.challenge,
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;

  return {
    authUrl: origin + PREFIXES.auth,
    cdeUrl: origin + PREFIXES.cde,
    baseUrl: origin + PREFIXES.api,
    controlUrl: origin + PREFIXES.control,
    clientId,
    clientSecret,
    publishableKey: `pk_sandbox_${randomBytes(12).toString('hex')}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
