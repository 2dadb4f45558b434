/** Which service the engine talks to: training starts the in-process simulator; sandbox and production differ by settings only. */
import { startSimulator, type SimulatorEndpoints, type SimulatorOptions } from '../sandbox';
import { ServiceConfigSchema, type SecretStore, type ServiceConfig } from './config';

export type ServiceSettings =
  | {
      environment: 'training';
      /** Tests speed the simulator up; the app uses its defaults. */
      simulator?: SimulatorOptions;
    }
  | {
      environment: 'sandbox' | 'production';
      authUrl: string;
      cdeUrl: string;
      baseUrl: string;
      clientId: string;
      requestTimeoutMs?: number;
      /** Where the cardholder lands after 3-D Secure (the `returnUrl` setting); the service's own page when not set. */
      returnUrl?: string;
    };

export interface ConnectedService {
  config: ServiceConfig;
  secrets: SecretStore;
  /** Training only: the simulator's control endpoint (clock, faults), for the e2e harness and the training outbox. */
  training?: { controlUrl: string };
  /** Stops what was started for this connection (the simulator, in training). */
  close: () => Promise<void>;
}

/**
 * Training (the default when nothing is configured) runs the built-in simulator and uses its own
 * credentials; sandbox and production use the configured hosts and the secret from the store.
 */
/** The engine's configuration for a running simulator (training mode, and every test). */
export function simulatorConfig(
  sim: Pick<SimulatorEndpoints, 'authUrl' | 'cdeUrl' | 'baseUrl' | 'clientId'>,
  requestTimeoutMs?: number,
): ServiceConfig {
  const { authUrl, cdeUrl, baseUrl, clientId } = sim;
  return ServiceConfigSchema.parse({
    environment: 'training',
    authUrl,
    cdeUrl,
    baseUrl,
    clientId,
    ...(requestTimeoutMs === undefined ? {} : { requestTimeoutMs }),
  });
}

export async function connectService(settings: ServiceSettings, secrets: SecretStore): Promise<ConnectedService> {
  if (settings.environment === 'training') {
    const sim = await startSimulator(settings.simulator ?? {});
    return {
      config: simulatorConfig(sim),
      training: { controlUrl: sim.controlUrl },
      secrets: { read: () => Promise.resolve(sim.clientSecret) },
      close: sim.close,
    };
  }
  return { config: ServiceConfigSchema.parse(settings), secrets, close: () => Promise.resolve() };
}
