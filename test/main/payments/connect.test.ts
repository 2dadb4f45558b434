// Environments by settings alone: training starts the simulator; sandbox and production take hosts and a stored secret.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectService, PaymentEngine, type ServiceSettings } from '../../../main/payments';
import { openJournal } from '../../support/journal';

const noSecret = { read: () => Promise.resolve(undefined) };

describe('connectService', () => {
  it('training: the in-process simulator, reachable, with its own credentials', async () => {
    const service = await connectService({ environment: 'training' }, noSecret);
    const dir = mkdtempSync(join(tmpdir(), 'connect-'));
    const journal = await openJournal(dir);
    const engine = new PaymentEngine({ ...service, journal, fetch });
    try {
      expect(service.config.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
      const method = await engine.tokenize({
        card: { number: '4242424242424242', expMonth: 12, expYear: new Date().getUTCFullYear() + 1, cvv: '123' },
        reservationId: 'TRN-1',
        operatorId: 'trainee',
      });
      expect(method.last4).toBe('4242');
    } finally {
      await engine.close();
      await journal.close();
      await service.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  const hosts = {
    authUrl: 'https://auth.example.test',
    cdeUrl: 'https://cde.example.test',
    baseUrl: 'https://api.example.test',
    clientId: 'client-1',
  };

  it('sandbox and production: the same code, only the settings differ', async () => {
    const store = { read: () => Promise.resolve('stored-secret') };
    for (const environment of ['sandbox', 'production'] as const) {
      const service = await connectService({ environment, ...hosts }, store);
      expect(service.config).toMatchObject({ environment, ...hosts, requestTimeoutMs: 30_000 });
      expect(service.secrets).toBe(store);
      await service.close();
    }
  });

  it.each([
    [{ environment: 'production', ...hosts, baseUrl: 'http://api.example.test' }, /baseUrl must use https/],
    [{ environment: 'sandbox', ...hosts, clientId: '' }, /client id is missing/],
    [{ environment: 'sandbox', ...hosts, authUrl: 'not a url' }, /http\(s\) URL/],
  ])('refuses inconsistent settings with a clear message: %j', async (settings, message) => {
    await expect(connectService(settings as ServiceSettings, noSecret)).rejects.toThrow(message);
  });
});
