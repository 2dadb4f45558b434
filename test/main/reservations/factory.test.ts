// Choosing the source from the `reservations` setting: built-in by default (its own demo file in training), or REST.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  BuiltinReservationStore,
  RESERVATIONS_FILE,
  ReservationSourceConfig,
  RestReservationSource,
  TRAINING_RESERVATIONS_FILE,
  createReservationSource,
  type AnyReservationSource,
} from '../../../main/reservations';
import { T0, csvOf, expectCode, plain, reservation, tempDir } from './helpers';
import { json, startPartner } from './partner-server';

let dir: string;
let cleanup: () => void;
const opened: AnyReservationSource[] = [];
const track = <T extends AnyReservationSource>(source: T): T => {
  opened.push(source);
  return source;
};

beforeEach(() => {
  ({ dir, cleanup } = tempDir());
});
afterEach(async () => {
  for (const source of opened.splice(0)) await source.close();
  cleanup();
});

describe('ReservationSourceConfig', () => {
  it('is the built-in store when the setting is absent', () => {
    expect(ReservationSourceConfig.parse(undefined)).toEqual({ kind: 'builtin' });
  });

  it.each([
    [{ kind: 'csv' }, 'kind', /must be "builtin" or "rest"/],
    [{ kind: 'builtin', path: '/tmp/x.db' }, '', /Unrecognized key/],
    [{ kind: 'rest' }, 'baseUrl', /is required/],
    [{ kind: 'rest', baseUrl: 'https://pms.example.com', apiKey: 'abc' }, '', /Unrecognized key/],
  ])('refuses %j at %s', (config, path, message) => {
    const result = ReservationSourceConfig.safeParse(config);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path.join('.')).toBe(path);
    expect(result.error?.issues[0]?.message).toMatch(message);
  });
});

describe('createReservationSource', () => {
  it('opens the built-in store, empty, outside training', async () => {
    const source = track(await createReservationSource(undefined, { dataDir: dir, fetch }));
    expect(source).toBeInstanceOf(BuiltinReservationStore);
    expect(source.kind).toBe('builtin');
    expect(await (source as BuiltinReservationStore).count()).toBe(0);
    expect(await source.search({ text: 'nunez' })).toEqual([]);
    expect(existsSync(join(dir, RESERVATIONS_FILE))).toBe(true);
    expect(existsSync(join(dir, TRAINING_RESERVATIONS_FILE))).toBe(false);
  });

  it('in training, keeps its own file with the demo guests, seeded once; real reservations stay apart', async () => {
    const real = track(
      (await createReservationSource({ kind: 'builtin' }, { dataDir: dir, fetch })) as BuiltinReservationStore,
    );
    expect(await real.importCsv(csvOf([reservation({ confirmationNumber: 'REAL-1' })]))).toMatchObject({
      ok: true,
      created: 1,
    });
    await real.close();

    const training = track(
      (await createReservationSource(
        { kind: 'builtin' },
        { dataDir: dir, training: true, now: () => T0, fetch },
      )) as BuiltinReservationStore,
    );
    expect(await training.count()).toBe(30);
    expect(await training.get('REAL-1')).toBeUndefined();
    expect((await training.search({ text: 'nunez' })).length).toBe(3);
    expect(await training.importCsv(csvOf([reservation({ confirmationNumber: 'PRACTICE-1' })]))).toMatchObject({
      ok: true,
      created: 1,
    });
    await training.close();

    // Opened again: not seeded again, the practice import kept.
    const again = track(
      (await createReservationSource(undefined, { dataDir: dir, training: true, fetch })) as BuiltinReservationStore,
    );
    expect(await again.count()).toBe(31);
    const production = track(
      (await createReservationSource(undefined, { dataDir: dir, fetch })) as BuiltinReservationStore,
    );
    expect(await production.count()).toBe(1);
    expect(await production.get('CUN-7F3K2A')).toBeUndefined();
  });

  it('opens the REST adapter with the secret getter, and its requests go through the fetch it is given', async () => {
    const partner = await startPartner();
    try {
      partner.handle((_req, res) => json(res, 200, [plain(reservation())]));
      const fetched: string[] = [];
      const given: typeof fetch = (input, init) => {
        fetched.push(input instanceof Request ? input.url : input.toString());
        return fetch(input, init);
      };
      const source = track(
        await createReservationSource(
          { kind: 'rest', baseUrl: partner.baseUrl, authHeader: 'Authorization' },
          { dataDir: dir, secret: () => 'Bearer abc123', fetch: given },
        ),
      );
      expect(source).toBeInstanceOf(RestReservationSource);
      expect(source.kind).toBe('rest');
      expect(await source.search({ text: 'ana' })).toEqual([reservation()]);
      expect(partner.requests[0]?.headers.authorization).toBe('Bearer abc123');
      expect(fetched).toEqual([`${partner.baseUrl}/reservations?q=ana`]);
      expect(existsSync(join(dir, RESERVATIONS_FILE))).toBe(false);
    } finally {
      await partner.close();
    }
  });

  it('refuses a setting that does not hold together, naming it, before opening anything', async () => {
    const error = await expectCode(
      () => createReservationSource({ kind: 'rest', baseUrl: 'http://pms.example.com' }, { dataDir: dir, fetch }),
      'configuration',
    );
    expect(error.message).toBe(
      'The reservation settings are not valid (reservations.baseUrl must use https (http is allowed only for localhost)). Tell IT.',
    );
    const kind = await expectCode(
      () => createReservationSource({ kind: 'excel' }, { dataDir: dir, fetch }),
      'configuration',
    );
    expect(kind.message).toMatch(/reservations.kind must be "builtin" or "rest"/);
    expect(existsSync(join(dir, RESERVATIONS_FILE))).toBe(false);
  });

  it('reports a data folder it cannot use as storage', async () => {
    await expectCode(
      () => createReservationSource(undefined, { dataDir: join(dir, 'missing', 'folder'), fetch }),
      'storage',
    );
  });
});
