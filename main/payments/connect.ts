/** Which service the engine talks to: training starts the in-process simulator; sandbox and production differ by settings only. */
import { startSimulator } from '../sandbox';
import { ServiceConfigSchema, type SecretStore, type ServiceConfig } from './config';

export type ServiceSettings =
  | { environment: 'training' }
  | {
      environment: 'sandbox' | 'production';
      authUrl: string;
      cdeUrl: string;
      baseUrl: string;
      clientId: string;
      requestTimeoutMs?: number;
    };

export interface ConnectedService {
  config: ServiceConfig;
  secrets: SecretStore;
  /** Stops what was started for this connection (the simulator, in training). */
  close: () => Promise<void>;
}

/**
 * Training (the default when nothing is configured) runs the built-in simulator and uses its own
 * credentials; sandbox and production use the configured hosts and the secret from the store.
 */
export async function connectService(settings: ServiceSettings, secrets: SecretStore): Promise<ConnectedService> {
  if (settings.environment === 'training') {
    const sim = await startSimulator();
    return {
      config: ServiceConfigSchema.parse({ environment: 'training', authUrl: sim.authUrl, cdeUrl: sim.cdeUrl, baseUrl: sim.baseUrl, clientId: sim.clientId }),
      secrets: { read: () => Promise.resolve(sim.clientSecret) },
      close: sim.close,
    };
  }
  return { config: ServiceConfigSchema.parse(settings), secrets, close: () => Promise.resolve() };
}
