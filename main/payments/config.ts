/** Where the engine sends requests: the three hosts, the client id, the environment, and the secret store. */
import { z } from 'zod';
import { Environment } from '../../shared';

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });

export const ServiceConfigSchema = z
  .strictObject({
    environment: Environment,
    authUrl: httpUrl,
    cdeUrl: httpUrl,
    baseUrl: httpUrl,
    clientId: z.string().min(1, 'the client id is missing'),
    /** Per request; the spec gives no limit, 30 s is what an agent on the phone can wait. */
    requestTimeoutMs: z.number().int().min(100).max(120_000).default(30_000),
    /** Sent with every new payment: where the cardholder lands after 3-D Secure (https only, as the service requires). */
    returnUrl: z.url({ protocol: /^https$/, error: 'returnUrl must be an https URL' }).optional(),
  })
  .superRefine((c, ctx) => {
    if (c.environment === 'training') return;
    for (const key of ['authUrl', 'cdeUrl', 'baseUrl'] as const) {
      if (!c[key].startsWith('https://')) {
        ctx.addIssue({ code: 'custom', path: [key], message: `${key} must use https outside training mode` });
      }
    }
  });

export type ServiceConfig = z.output<typeof ServiceConfigSchema>;

/** Where the client secret lives (the Electron shell provides one backed by safeStorage). */
export interface SecretStore {
  /** The secret, or undefined when none has been provisioned. */
  read(name: 'clientSecret'): Promise<string | undefined>;
}
