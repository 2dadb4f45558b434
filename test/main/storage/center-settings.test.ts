// The `center` setting: what IT may write, its defaults, and how it becomes the storage layer's connection.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CenterSettings, centerConnection, describeCenter } from '../../../main/storage';

let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'cpd-center-config-'));
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

const issues = (value: unknown): string[] => {
  const parsed = CenterSettings.safeParse(value);
  return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
};

describe('the center setting', () => {
  it('needs host, database and user; port 5432 and sslmode verify-full by default', () => {
    expect(CenterSettings.parse({ host: 'db.center.example', database: 'card_desk', user: 'card_desk_app' })).toEqual({
      host: 'db.center.example',
      port: 5432,
      database: 'card_desk',
      user: 'card_desk_app',
      sslmode: 'verify-full',
    });
    expect(issues({ database: 'card_desk', user: 'card_desk_app' })).toEqual([expect.stringMatching(/^host: /)]);
  });

  it('refuses a host with a scheme or a port, a bad port, an unknown sslmode, and a password', () => {
    expect(issues({ host: 'postgres://db', database: 'd', user: 'u' })).toEqual([
      'host: must be a host name or an IP address (no scheme, port or path)',
    ]);
    expect(issues({ host: 'db:5432', database: 'd', user: 'u' })).toHaveLength(1);
    expect(issues({ host: 'db', port: 70000, database: 'd', user: 'u' })).toEqual([
      'port: must be a port number from 1 to 65535',
    ]);
    expect(issues({ host: 'db', database: 'd', user: 'u', sslmode: 'prefer' })).toEqual([
      'sslmode: must be "verify-full", "require" or "disable"',
    ]);
    expect(issues({ host: 'db', database: 'd', user: 'u', password: 'x' })).toEqual([
      expect.stringMatching(/password/),
    ]);
  });

  it('takes a CA file (absolute path) only with verify-full', () => {
    expect(issues({ host: 'db', database: 'd', user: 'u', sslrootcert: 'ca.pem' })).toEqual([
      'sslrootcert: must be the absolute path of the CA certificate (PEM)',
    ]);
    expect(issues({ host: 'db', database: 'd', user: 'u', sslmode: 'require', sslrootcert: '/etc/ca.pem' })).toEqual([
      'sslrootcert: is used only with sslmode "verify-full" (the other modes check no certificate)',
    ]);
    expect(issues({ host: '10.0.0.5', database: 'd', user: 'u', sslrootcert: '/etc/ca.pem' })).toEqual([]);
  });

  it('becomes a connection: the CA read from its file, the password asked for, never held', async () => {
    const ca = path.join(folder, 'ca.pem');
    await writeFile(ca, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
    const center = CenterSettings.parse({ host: 'db', database: 'card_desk', user: 'app', sslrootcert: ca });
    const options = await centerConnection(center, {
      password: () => Promise.resolve('pw'),
      applicationName: 'card-payments-desk d1',
    });
    expect(options).toMatchObject({
      host: 'db',
      port: 5432,
      database: 'card_desk',
      user: 'app',
      applicationName: 'card-payments-desk d1',
    });
    expect(options.tls).toEqual({
      mode: 'verify-full',
      caCertificatePem: expect.stringContaining('BEGIN CERTIFICATE') as unknown,
    });
    expect(JSON.stringify(options)).not.toContain('pw');
    expect(await options.password()).toBe('pw');
    expect(describeCenter(center)).toBe('db:5432/card_desk');
  });

  it('a CA file that is missing or not PEM: center_tls_failed naming the file', async () => {
    const missing = CenterSettings.parse({
      host: 'db',
      database: 'd',
      user: 'u',
      sslrootcert: path.join(folder, 'nope.pem'),
    });
    await expect(centerConnection(missing, { password: () => Promise.resolve(undefined) })).rejects.toMatchObject({
      code: 'center_tls_failed',
      message: expect.stringContaining('nope.pem') as unknown,
    });
    const notPem = path.join(folder, 'not.pem');
    await writeFile(notPem, 'hello');
    await expect(
      centerConnection(CenterSettings.parse({ host: 'db', database: 'd', user: 'u', sslrootcert: notPem }), {
        password: () => Promise.resolve(undefined),
      }),
    ).rejects.toMatchObject({
      code: 'center_tls_failed',
      message: expect.stringMatching(/not a PEM certificate/) as unknown,
    });
  });
});
