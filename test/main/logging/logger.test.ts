// The logger end to end: lines go through the real pino + pino-roll file transport into a temp folder and are read back.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger, type AppLogger } from '../../../main/logging';

let dir: string;
let app: AppLogger | undefined;
beforeEach(() => {
  dir = join(mkdtempSync(join(tmpdir(), 'logging-')), 'logs');
});
afterEach(async () => {
  await app?.close();
  app = undefined;
  rmSync(join(dir, '..'), { recursive: true, force: true });
});

function readLogs(): string {
  return readdirSync(dir)
    .sort()
    .map((name) => readFileSync(join(dir, name), 'utf8'))
    .join('');
}

function lines(): Record<string, unknown>[] {
  return readLogs()
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

const FORBIDDEN = [
  '4242424242424242',
  '4242 4242 4242 4242',
  '4242-4242-4242-4242',
  '378282246310005',
  '3782 822463 10005',
  '987',
  'cs_live_topsecret',
  'eyJhbGciOiJIUzI1NiJ9.payload.sig',
  'tok_access_123',
  'hunter2-password',
];

describe('createLogger', () => {
  it('writes JSON lines to <dir>/app.1.log with card numbers, CVVs, secrets and tokens removed, the rest kept', async () => {
    app = await createLogger({ dir, level: 'debug' });
    const { logger } = app;
    const requestId = 'req_7c9e6679-7425-40de-944b-e07fc1f90ae7';

    logger.info(
      { amount: 123456, phone: '5512345678', requestId, cardNumber: '4242424242424242', cvv: '987' },
      'payment started',
    );
    logger.info('agent typed 4242 4242 4242 4242 then 3782 822463 10005 for 123456.00 MXN, call back on 5512345678');
    logger.debug(
      {
        pan: 4242424242424242,
        nested: { deeper: [{ note: 'card 4242-4242-4242-4242 exp 12/30', client_secret: 'cs_live_topsecret' }] },
      },
      'nested',
    );
    logger.warn(
      {
        headers: { Authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig' },
        token: 'tok_access_123',
        accessToken: 'tok_access_123',
      },
      'auth',
    );
    logger.info(
      { detail: 'sent header Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig to host' },
      'text with a bearer',
    );
    logger.info({ body: 'grant_type=client_credentials&client_id=desk&client_secret=cs_live_topsecret' }, 'form body');
    logger.error(new Error('declined 378282246310005', { cause: new Error('password=hunter2-password') }));
    logger.error({ err: new Error('charge 4242424242424242 failed'), requestId }, 'with err');
    logger.info('format %s and %j', '4242424242424242', { cvv: '987', amount: 123456 });
    logger
      .child({ operator: 'ana', token: 'tok_access_123', lastCard: '4242424242424242' })
      .info({ requestId }, 'child');
    await app.flush();

    // time, pid and hostname are pino's own and vary by run: a timestamp ending in .987Z is not a leaked CVV.
    const text = lines()
      .map((line) => JSON.stringify({ ...line, time: undefined, pid: undefined, hostname: undefined }))
      .join('\n');
    for (const forbidden of FORBIDDEN) expect(text, forbidden).not.toContain(forbidden);
    expect(readdirSync(dir)).toEqual(['app.1.log']);

    const written = lines();
    expect(written).toHaveLength(10);
    expect(written[0]).toMatchObject({
      level: 30,
      msg: 'payment started',
      amount: 123456,
      phone: '5512345678',
      requestId,
      cardNumber: '[redacted]',
      cvv: '[redacted]',
    });
    expect(written[1]?.['msg']).toBe('agent typed [card] then [card] for 123456.00 MXN, call back on 5512345678');
    expect(written[2]).toMatchObject({
      pan: '[redacted]',
      nested: { deeper: [{ note: 'card [card] exp 12/30', client_secret: '[redacted]' }] },
    });
    expect(written[3]).toMatchObject({
      headers: { Authorization: '[redacted]' },
      token: '[redacted]',
      accessToken: '[redacted]',
    });
    expect(written[4]?.['detail']).toBe('sent header Authorization: [redacted]');
    expect(written[5]?.['body']).toBe('grant_type=client_credentials&client_id=desk&client_secret=[redacted]');
    expect(written[6]).toMatchObject({
      level: 50,
      msg: 'declined [card]: password=[redacted]',
      err: { type: 'Error', message: 'declined [card]: password=[redacted]' },
    });
    expect(String((written[6]?.['err'] as { stack: string }).stack)).toMatch(/^Error: declined \[card\]\n\s+at /);
    expect(written[7]).toMatchObject({
      msg: 'with err',
      requestId,
      err: { type: 'Error', message: 'charge [card] failed' },
    });
    expect(written[8]?.['msg']).toBe('format [card] and {"cvv":"[redacted]","amount":123456}');
    expect(written[9]).toMatchObject({
      operator: 'ana',
      token: '[redacted]',
      lastCard: '[card]',
      requestId,
      msg: 'child',
    });
    expect(typeof written[9]?.['time']).toBe('string');
  });

  it('honours the level', async () => {
    app = await createLogger({ dir, level: 'warn' });
    app.logger.info('not written');
    app.logger.warn('written');
    await app.flush();
    expect(lines().map((line) => line['msg'])).toEqual(['written']);
  });

  it('rotates by size and keeps at most maxFiles files, deleting the oldest (earlier runs included)', async () => {
    app = await createLogger({ dir, maxFileSize: '1k', maxFiles: 3 });
    const filler = 'x'.repeat(200);
    for (let i = 0; i < 40; i++) {
      app.logger.info({ i, filler }, 'line');
      await app.flush();
    }
    // Old files are deleted in the background after a rotation.
    const deadline = Date.now() + 5_000;
    while (readdirSync(dir).length > 3 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const files = readdirSync(dir).sort((a, b) => Number(a.split('.')[1]) - Number(b.split('.')[1]));
    expect(files.length).toBeLessThanOrEqual(3);
    expect(files.length).toBeGreaterThanOrEqual(2);
    expect(files.every((name) => /^app\.\d+\.log$/.test(name))).toBe(true);
    // The newest lines survive, the oldest ones were rotated away.
    const kept = lines().map((line) => line['i']);
    expect(kept).toContain(39);
    expect(kept).not.toContain(0);
    await app.close();

    // A restart continues in the same folder and still keeps at most 3 files.
    app = await createLogger({ dir, maxFileSize: '1k', maxFiles: 3 });
    for (let i = 40; i < 60; i++) {
      app.logger.info({ i, filler }, 'line');
      await app.flush();
    }
    while (readdirSync(dir).length > 3 && Date.now() < deadline + 5_000)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(readdirSync(dir).length).toBeLessThanOrEqual(3);
    expect(lines().map((line) => line['i'])).toContain(59);
  });

  it('close() writes everything out; defaults are 5 MB files, 10 kept', async () => {
    app = await createLogger({ dir });
    for (let i = 0; i < 500; i++) app.logger.info({ i }, 'burst');
    await app.close();
    app = undefined;
    expect(lines()).toHaveLength(500);
    const { DEFAULT_MAX_FILE_SIZE, DEFAULT_MAX_FILES } = await import('../../../main/logging');
    expect([DEFAULT_MAX_FILE_SIZE, DEFAULT_MAX_FILES]).toEqual(['5m', 10]);
  });
});
