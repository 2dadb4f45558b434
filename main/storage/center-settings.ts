/** The `center` setting (IT's managed file only): where the center's PostgreSQL is and how the desk signs in to it, never the password. */
import { readFile } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { z } from 'zod';
import { StorageError } from './errors';
import type { CenterConnectionOptions, CenterTlsMode } from './postgres';

/** PostgreSQL's own limit on names (NAMEDATALEN - 1). */
const NAME = z.string().trim().min(1, 'must not be empty').max(63, 'must be at most 63 characters (PostgreSQL names)');

/** A host name or an IP address, as IT writes it: no scheme, no port, no path (the port has its own field). */
const HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\d{1,3}(?:\.\d{1,3}){3}|\[[0-9A-Fa-f:.]+\])$/;

export const CENTER_SSL_MODES = ['disable', 'require', 'verify-full'] as const satisfies readonly CenterTlsMode[];

export const CenterSettings = z
  .strictObject({
    host: z.string().trim().regex(HOST, 'must be a host name or an IP address (no scheme, port or path)'),
    port: z
      .int({ error: 'must be a port number from 1 to 65535' })
      .min(1, 'must be a port number from 1 to 65535')
      .max(65535, 'must be a port number from 1 to 65535')
      .default(5432),
    database: NAME,
    /** The app role (docs/center/setup.sql's app_role): what every desk signs in as. Its password is the centerPassword secret. */
    user: NAME,
    /**
     * libpq's names: verify-full (the default) encrypts and checks the server's certificate and host name; require
     * encrypts without checking; disable sends everything in clear (a lab only).
     */
    sslmode: z
      .enum(CENTER_SSL_MODES, { error: 'must be "verify-full", "require" or "disable"' })
      .default('verify-full'),
    /**
     * Where each desk's one LISTEN connection goes when `host`/`port` are a pooler in transaction mode (PgBouncer), which
     * cannot keep a LISTEN: the PostgreSQL server itself. Not set: the same as `host` and `port` (docs/IT.md, sizing).
     */
    listenHost: z
      .string()
      .trim()
      .regex(HOST, 'must be a host name or an IP address (no scheme, port or path)')
      .optional(),
    listenPort: z
      .int({ error: 'must be a port number from 1 to 65535' })
      .min(1, 'must be a port number from 1 to 65535')
      .max(65535, 'must be a port number from 1 to 65535')
      .optional(),
    /** The CA that signed the server's certificate (a PEM file's absolute path), when it is not a public CA. verify-full only. */
    sslrootcert: z
      .string()
      .refine((value) => isAbsolute(value), 'must be the absolute path of the CA certificate (PEM)')
      .optional(),
  })
  .superRefine((center, ctx) => {
    if (center.sslrootcert !== undefined && center.sslmode !== 'verify-full') {
      ctx.addIssue({
        code: 'custom',
        path: ['sslrootcert'],
        message: 'is used only with sslmode "verify-full" (the other modes check no certificate)',
      });
    }
  });
export type CenterSettings = z.output<typeof CenterSettings>;

export interface CenterConnectionDeps {
  /** The centerPassword secret (the secret store in the app); undefined when none is stored. */
  password: () => Promise<string | undefined>;
  /** Shown in pg_stat_activity, e.g. "card-payments-desk 3f1c…". */
  applicationName?: string;
  readCa?: (file: string) => Promise<string>;
}

/** The setting as the storage layer connects with it; the CA file read now, its failure said in words. */
export async function centerConnection(
  center: CenterSettings,
  deps: CenterConnectionDeps,
): Promise<CenterConnectionOptions> {
  let caCertificatePem: string | undefined;
  if (center.sslrootcert !== undefined) {
    try {
      caCertificatePem = await (deps.readCa ?? ((file) => readFile(file, 'utf8')))(center.sslrootcert);
    } catch (error) {
      const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : 'read error';
      throw new StorageError(
        'center_tls_failed',
        `The center's CA certificate ${center.sslrootcert} (the center setting's sslrootcert) cannot be read (${code}). IT must put the PEM file there, readable by every user.`,
      );
    }
    if (!caCertificatePem.includes('-----BEGIN CERTIFICATE-----')) {
      throw new StorageError(
        'center_tls_failed',
        `The center's CA certificate ${center.sslrootcert} (the center setting's sslrootcert) is not a PEM certificate. IT must put the CA's PEM file there.`,
      );
    }
  }
  return {
    host: center.host,
    port: center.port,
    database: center.database,
    user: center.user,
    password: deps.password,
    tls: { mode: center.sslmode, ...(caCertificatePem === undefined ? {} : { caCertificatePem }) },
    ...(center.listenHost === undefined && center.listenPort === undefined
      ? {}
      : { listen: { host: center.listenHost ?? center.host, port: center.listenPort ?? center.port } }),
    ...(deps.applicationName === undefined ? {} : { applicationName: deps.applicationName }),
  };
}

/** "db.example.com:5432/card_desk", for messages and app:info (never the password). */
export function describeCenter(center: Pick<CenterSettings, 'host' | 'port' | 'database'>): string {
  return `${center.host}:${center.port}/${center.database}`;
}
