// The built-in store: the search rules (confirmation number, accent-blind name, phone digits, e-mail), ranking and get
// on both backends (the embedded file and the center's PostgreSQL, as the app role); the embedded file itself.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_SEARCH_RESULTS, ReservationView } from '../../../shared/reservations';
import {
  BuiltinReservationStore,
  RESERVATIONS_FILE,
  RESERVATIONS_SCHEMA_VERSION,
  RESERVATIONS_STORE,
  TRAINING_RESERVATIONS_FILE,
  createReservationSource,
} from '../../../main/reservations';
import { centerStorage, migrateCenter, StorageError } from '../../../main/storage';
import { createCenter } from '../../support/center';
import { testPostgres } from '../../support/pg';
import { useStoreBackends } from '../../support/backends';
import { T0, csvOf, expectCode, openStore, reservation, tempDir } from './helpers';

let store: BuiltinReservationStore;
const ids = async (text: string): Promise<string[]> => (await store.search({ text })).map((r) => r.confirmationNumber);

describe.each(useStoreBackends([RESERVATIONS_STORE]))('the built-in store on $name', (backend) => {
  beforeEach(async () => {
    store = await BuiltinReservationStore.open(await backend.storage(), { now: () => T0 });
    expect(await store.seedDemo()).toBe(30);
  });

  describe('search by confirmation number', () => {
    it.each(['CUN-7F3K2A', 'cun-7f3k2a', '  Cun-7F3k2A  '])('finds %s exactly, in any case', async (text) => {
      expect(await ids(text)).toEqual(['CUN-7F3K2A']);
    });

    it.each(['cun6b3d8f', 'CUN 6B3D8F', 'cun-6b3-d8f', 'CUN—6B3D8F'])(
      'finds %s without its dashes or spaces',
      async (text) => {
        expect(await ids(text)).toEqual(['CUN-6B3D8F']);
      },
    );

    it.each(['6B3D8F', 'CUN-6B3D', 'cun 6b3d', '3d8f', 'B3D8'])(
      '%s (a part of it, 4 characters with a digit at least) finds CUN-6B3D8F',
      async (text) => {
        expect(await ids(text)).toEqual(['CUN-6B3D8F']);
      },
    );

    it('takes no fewer than 4 characters, nor a part without a digit, for a part of a confirmation number', async () => {
      expect(await ids('6B3')).toEqual([]);
      expect(await ids('CUN-')).toEqual([]);
    });
  });

  describe('what a guest says, as the agent types it', () => {
    it.each(['O’Connor', 'oconnor', "O'CONNOR", 'o connor', 'emily oconnor', 'OʼConnor emily'])(
      "%s finds Emily O'Connor",
      async (text) => {
        expect(await ids(text)).toEqual(['SJD-3B7N1C']);
      },
    );

    it.each(['dubois smith', 'Dubois Smith', 'chloe dubois smith', 'smith chloé', 'dubois-smith'])(
      '%s finds Chloé Dubois-Smith',
      async (text) => {
        expect(await ids(text)).toEqual(['SJD-4X6Y9Z']);
      },
    );

    it.each(['Ortega Sofia', 'ortega sofía', 'nunez sofia', 'SOFIA ORTEGA'])(
      "%s (words in any order) finds both of Sofía Núñez Ortega's stays",
      async (text) => {
        expect(await ids(text)).toEqual(['CUN-7F3K2A', 'CUN-7T2V5W']);
      },
    );

    it.each(['garcia pedro', 'Pedro García', 'García, Pedro', 'garc ped'])(
      '%s finds a guest imported as "García, Pedro"',
      async (text) => {
        store = await BuiltinReservationStore.open(await backend.storage(), { now: () => T0 });
        const rows = [
          reservation({
            confirmationNumber: 'R-GARCIA',
            guestName: 'García, Pedro',
            guestPhone: undefined,
            guestEmail: undefined,
          }),
          reservation({
            confirmationNumber: 'R-NOAH',
            guestName: 'Noah García',
            guestPhone: undefined,
            guestEmail: undefined,
          }),
        ];
        expect(await store.importCsv(csvOf(rows))).toMatchObject({ ok: true, created: 2 });
        expect(await ids(text)).toEqual(['R-GARCIA']);
      },
    );

    it.each(['998 123', '998123', '+52 998 123', '(998) 123'])(
      '%s (the start of a phone) finds the guests whose number starts so, by check-in',
      async (text) => {
        expect(await ids(text)).toEqual(['CUN-7F3K2A', 'CUN-9M4P7Q', 'CUN-7T2V5W']);
      },
    );
  });

  describe('search by name', () => {
    it('ignores accents and case: "nunez" finds every Núñez', async () => {
      const found = await store.search({ text: 'nunez' });
      expect(found.map((r) => r.guestName).sort()).toEqual([
        'Joaquín Núñez Ortega',
        'Sofía Núñez Ortega',
        'Sofía Núñez Ortega',
      ]);
    });

    it.each(['NÚÑEZ', 'Nuñez', 'núnez', 'sofia nunez', 'SOFÍA  NÚÑEZ'])('%s finds Sofía Núñez', async (text) => {
      expect((await store.search({ text })).some((r) => r.guestName === 'Sofía Núñez Ortega')).toBe(true);
    });

    it('matches part of a name, anywhere in it', async () => {
      expect(await ids('chavez belt')).toEqual(['MEX-9F2H5J']);
      expect(await ids('connor')).toEqual(['SJD-3B7N1C']);
      expect(await ids("o'connor")).toEqual(['SJD-3B7N1C']);
      expect(await ids('zoe')).toEqual(['CUN-6B3D8F']);
      expect(await ids('yanez')).toEqual(['PVR-1X4Y7Z']);
    });

    it('takes % and _ for separators, never for wildcards', async () => {
      expect(await ids('%%')).toEqual([]);
      expect(await ids('__')).toEqual([]);
      expect(await ids('nu%ez')).toEqual([]);
    });

    it("orders the same guest's stays by check-in", async () => {
      const sofia = await store.search({ text: 'sofia nunez' });
      expect(sofia.map((r) => r.confirmationNumber)).toEqual(['CUN-7F3K2A', 'CUN-7T2V5W']);
      expect(sofia[0]!.checkIn < sofia[1]!.checkIn).toBe(true);
    });
  });

  describe('search by phone', () => {
    it.each(['+52 998 123 4567', '+529981234567', '9981234567', '998 123 4567', '(998) 123-4567', '52 998 123 45 67'])(
      "%s finds both of Sofía's stays (digits compared)",
      async (text) => {
        expect((await ids(text)).sort()).toEqual(['CUN-7F3K2A', 'CUN-7T2V5W']);
      },
    );

    it.each(['+1 201 555 0123', '2015550123', '1-201-555-0123', '(201) 555-0123'])(
      '%s finds the US guest',
      async (text) => {
        expect(await ids(text)).toEqual(['MEX-6F8G3H']);
      },
    );

    it.each(['555 0164', '5550164', '0164', '55-0164'])(
      '%s (the end of the number, 4 digits or more) finds Zoë',
      async (text) => {
        expect(await ids(text)).toEqual(['CUN-6B3D8F']);
      },
    );

    it('puts a whole number before numbers that only end with it', async () => {
      store = await BuiltinReservationStore.open(await backend.storage(), { now: () => T0 });
      const rows = [
        reservation({
          confirmationNumber: 'R-ENDS',
          guestName: 'Ana Uno',
          guestPhone: '+529985554567',
          checkIn: '2026-12-01',
        }),
        reservation({
          confirmationNumber: 'R-WHOLE',
          guestName: 'Ana Dos',
          guestPhone: '+12015554567',
          checkIn: '2026-12-02',
        }),
      ];
      expect(await store.importCsv(csvOf(rows))).toEqual({ ok: true, created: 2, updated: 0 });
      expect(await ids('201 555 4567')).toEqual(['R-WHOLE']);
      expect(await ids('555 4567')).toEqual(['R-ENDS', 'R-WHOLE']);
    });

    it('needs the start or the end of the number, not its middle, and 4 digits at least', async () => {
      expect(await ids('8123456')).toEqual([]);
      expect(await ids('+52 998 123 4568')).toEqual([]);
      expect(await ids('567')).toEqual([]);
      expect(await ids('998')).toEqual([]);
    });
  });

  describe('search by e-mail', () => {
    it.each(['sofia.nunez@example.mx', 'SOFIA.NUNEZ@EXAMPLE.MX', ' Sofia.Nunez@Example.MX '])(
      '%s finds the guest, in any case',
      async (text) => {
        expect((await ids(text)).sort()).toEqual(['CUN-7F3K2A', 'CUN-7T2V5W']);
      },
    );

    it('needs the whole address; a part of one is read as the words of a name', async () => {
      expect(await ids('@example.mx')).toEqual([]);
      expect(await ids('sofia.nunez@')).toEqual(['CUN-7F3K2A', 'CUN-7T2V5W']);
      expect(await ids('sofia.nunez@example')).toEqual([]);
    });
  });

  describe('ranking and limits', () => {
    it('puts a confirmation number first, then the whole name, a word start, and a name containing the text, whatever the dates', async () => {
      store = await BuiltinReservationStore.open(await backend.storage(), { now: () => T0 });
      const rows = [
        reservation({
          confirmationNumber: 'R-CONTAINS',
          guestName: 'Susana Villalópez',
          checkIn: '2026-12-01',
          guestEmail: 'susana@example.mx',
          guestPhone: '+529981110001',
        }),
        reservation({
          confirmationNumber: 'R-WORD',
          guestName: 'Ana Lopez Ruiz',
          checkIn: '2026-12-02',
          guestEmail: 'ana.ruiz@example.mx',
          guestPhone: '+529981110002',
        }),
        reservation({
          confirmationNumber: 'R-EXACT',
          guestName: 'López',
          checkIn: '2026-12-03',
          guestEmail: 'l@example.mx',
          guestPhone: '+529981110003',
        }),
        reservation({
          confirmationNumber: 'LOPEZ',
          guestName: 'Carlos Méndez',
          checkIn: '2026-12-04',
          guestEmail: 'carlos@example.mx',
          guestPhone: '+529981110004',
        }),
      ];
      expect(await store.importCsv(csvOf(rows))).toEqual({ ok: true, created: 4, updated: 0 });
      expect(await ids('lopez')).toEqual(['LOPEZ', 'R-EXACT', 'R-WORD', 'R-CONTAINS']);
    });

    it('puts a whole confirmation number, then an e-mail, a phone, a part of a confirmation number, and names last', async () => {
      store = await BuiltinReservationStore.open(await backend.storage(), { now: () => T0 });
      const rows = [
        reservation({
          confirmationNumber: 'R-NAME',
          guestName: 'Ana Ortiz 7788',
          checkIn: '2026-12-01',
          guestEmail: undefined,
          guestPhone: undefined,
        }),
        reservation({
          confirmationNumber: 'ZZ-7788AB',
          guestName: 'Bea Uno',
          checkIn: '2026-12-02',
          guestEmail: undefined,
          guestPhone: undefined,
        }),
        reservation({
          confirmationNumber: 'R-PHONE',
          guestName: 'Eva Dos',
          checkIn: '2026-12-03',
          guestEmail: undefined,
          guestPhone: '+529985557788',
        }),
        reservation({
          confirmationNumber: '7788',
          guestName: 'Ema Tres',
          checkIn: '2026-12-04',
          guestEmail: undefined,
          guestPhone: undefined,
        }),
      ];
      expect(await store.importCsv(csvOf(rows))).toMatchObject({ ok: true, created: 4 });
      expect(await ids('7788')).toEqual(['7788', 'R-PHONE', 'ZZ-7788AB', 'R-NAME']);
    });

    it('puts names whose words start with every word typed before names that only contain them', async () => {
      store = await BuiltinReservationStore.open(await backend.storage(), { now: () => T0 });
      const rows = [
        reservation({
          confirmationNumber: 'R-CONTAINS',
          guestName: 'Susana Portillo',
          checkIn: '2026-12-01',
          guestEmail: undefined,
          guestPhone: undefined,
        }),
        reservation({
          confirmationNumber: 'R-START',
          guestName: 'Ana María Ortiz',
          checkIn: '2026-12-02',
          guestEmail: undefined,
          guestPhone: undefined,
        }),
        reservation({
          confirmationNumber: 'R-WORDS',
          guestName: 'Ortiz, Ana',
          checkIn: '2026-12-03',
          guestEmail: undefined,
          guestPhone: undefined,
        }),
      ];
      expect(await store.importCsv(csvOf(rows))).toMatchObject({ ok: true, created: 3 });
      expect(await ids('ana ortiz')).toEqual(['R-START', 'R-WORDS']);
      expect(await ids('ana ort')).toEqual(['R-START', 'R-WORDS', 'R-CONTAINS']);
    });

    it(`returns at most ${MAX_SEARCH_RESULTS}, whatever the words' order`, async () => {
      const many = Array.from({ length: 25 }, (_, i) =>
        reservation({
          confirmationNumber: `MANY-${i}`,
          guestName: `Guadalupe Prueba ${i}`,
          guestPhone: undefined,
          guestEmail: undefined,
        }),
      );
      expect(await store.importCsv(csvOf(many))).toMatchObject({ ok: true, created: 25 });
      expect(await store.search({ text: 'prueba guadalupe' })).toHaveLength(MAX_SEARCH_RESULTS);
    });

    it(`returns at most ${MAX_SEARCH_RESULTS}`, async () => {
      const many = Array.from({ length: 25 }, (_, i) =>
        reservation({
          confirmationNumber: `MANY-${i}`,
          guestName: `Guadalupe Prueba ${i}`,
          guestPhone: undefined,
          guestEmail: undefined,
        }),
      );
      expect(await store.importCsv(csvOf(many))).toMatchObject({ ok: true, created: 25 });
      expect(await store.search({ text: 'prueba' })).toHaveLength(MAX_SEARCH_RESULTS);
    });

    it('answers with views that satisfy the shared schema, amounts in major units', async () => {
      const [found] = await store.search({ text: 'CUN-8T1V4W' });
      expect(ReservationView.parse(found)).toEqual(found);
      expect(found).toMatchObject({
        guestName: 'Iñaki Garza Villarreal',
        balanceDueCents: 4_218_075,
        currency: 'mxn',
        guestPhone: '+528187451236',
      });
    });
  });

  describe('what goes in', () => {
    it.each([[{ text: 'a' }], [{ text: 'x'.repeat(101) }], [{ text: 7 }]])(
      '%j is refused as invalid_query, through the promise',
      async (query) => {
        const promise = store.search(query as { text: string });
        expect(promise).toBeInstanceOf(Promise);
        const error = await expectCode(() => promise, 'invalid_query');
        expect(error.toIpcError()).toEqual({ code: 'invalid_query', field: 'text' });
      },
    );
  });

  describe('get', () => {
    it('finds a reservation by confirmation number in any case', async () => {
      expect(await store.get('mex-2h8r5t')).toMatchObject({
        confirmationNumber: 'MEX-2H8R5T',
        guestName: 'José Ángel Muñoz Pérez',
      });
    });

    it('answers undefined for an unknown number and refuses an empty one', async () => {
      expect(await store.get('NOPE-1')).toBeUndefined();
      await expectCode(() => store.get('  '), 'invalid_query');
    });
  });
});

describe('the reservations file', () => {
  let dir: string;
  let cleanup: () => void;

  beforeEach(async () => {
    ({ dir, cleanup } = tempDir());
    store = await openStore(dir);
    expect(await store.seedDemo()).toBe(30);
  });
  afterEach(async () => {
    await store.close();
    cleanup();
  });

  it('is WAL, versioned, and keeps its reservations when reopened', async () => {
    const path = join(dir, 'reservations.db');
    expect(store.schemaVersion).toBe(RESERVATIONS_SCHEMA_VERSION);
    await store.close();
    store = await openStore(dir);
    expect(await store.count()).toBe(30);
    expect(await store.seedDemo()).toBe(0);
    const raw = new Database(path, { readonly: true });
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(
      (
        raw.prepare('SELECT balance_cents FROM reservations WHERE id_key = ?').get('cun-8t1v4w') as {
          balance_cents: number;
        }
      ).balance_cents,
    ).toBe(4_218_075);
    raw.close();
  });

  it('brings a file of the first version up to date: its reservations are then found without dashes or spaces', async () => {
    await store.close();
    const folder = join(dir, 'v1');
    mkdirSync(folder);
    const path = join(folder, 'reservations.db');
    const raw = new Database(path);
    raw.exec(`CREATE TABLE reservations (
       id_key TEXT PRIMARY KEY, confirmation_number TEXT NOT NULL, guest_name TEXT NOT NULL, name_key TEXT NOT NULL,
       check_in TEXT NOT NULL, check_out TEXT NOT NULL, hotel_name TEXT NOT NULL,
       balance_cents INTEGER NOT NULL CHECK (balance_cents >= 0), currency TEXT NOT NULL CHECK (currency IN ('usd', 'mxn')),
       guest_phone TEXT, phone_digits TEXT, phone_national TEXT, guest_email TEXT, email_key TEXT,
       origin TEXT NOT NULL CHECK (origin IN ('demo', 'import')), updated_at INTEGER NOT NULL) STRICT`);
    raw
      .prepare(
        `INSERT INTO reservations VALUES ('old-12 34', 'OLD-12 34', 'Olga Vieja', 'olga vieja', '2026-12-01', '2026-12-02', 'Hotel', 1000, 'mxn',
         '+529981112233', '529981112233', '9981112233', NULL, NULL, 'import', 0)`,
      )
      .run();
    raw.pragma('user_version = 1');
    raw.close();
    store = await BuiltinReservationStore.openFolder(folder, { now: () => T0 });
    expect(store.schemaVersion).toBe(RESERVATIONS_SCHEMA_VERSION);
    expect(await store.count()).toBe(1);
    expect(await ids('old1234')).toEqual(['OLD-12 34']);
    expect(await ids('2233')).toEqual(['OLD-12 34']);
    // Indexed for the text search by the migration: words in any order, a part of the number, the start of the phone.
    expect(await ids('vieja olga')).toEqual(['OLD-12 34']);
    expect(await ids('ld12')).toEqual(['OLD-12 34']);
    expect(await ids('998 111')).toEqual(['OLD-12 34']);
  });

  it('refuses a file written by a newer version of the app', async () => {
    const folder = join(dir, 'newer');
    mkdirSync(folder);
    const raw = new Database(join(folder, 'reservations.db'));
    raw.pragma(`user_version = ${RESERVATIONS_SCHEMA_VERSION + 1}`);
    raw.close();
    const error = await expectCode(() => BuiltinReservationStore.openFolder(folder), 'storage');
    expect(error.message).toMatch(/newer version of the app/);
  });

  it('answers closed after close, and closes twice without harm', async () => {
    await store.close();
    await store.close();
    await expectCode(() => store.search({ text: 'nunez' }), 'closed');
    await expectCode(() => store.get('CUN-7F3K2A'), 'closed');
    await expect(store.count()).rejects.toMatchObject({ code: 'closed' });
  });

  it('reports a damaged file as storage, without the driver message', async () => {
    await store.close();
    const path = join(dir, 'reservations.db');
    const raw = new Database(path);
    raw.exec('DROP TABLE reservations');
    raw.close();
    store = await BuiltinReservationStore.openFolder(dir, { now: () => T0 });
    const error = await expectCode(() => store.search({ text: 'nunez' }), 'storage');
    expect(error.message).not.toMatch(/no such table|SQLITE/i);
  });
});

describe("the center's reservations: one import serves every desk", () => {
  const backends = useStoreBackends([RESERVATIONS_STORE]);
  const postgres = backends.find((backend) => backend.name === 'postgres');
  if (postgres === undefined) throw new Error('useStoreBackends gave no postgres backend');
  const center = postgres;
  const rows = Array.from({ length: 40 }, (_, i) =>
    reservation({ confirmationNumber: `CTR-${String(i).padStart(4, '0')}`, guestName: `Guest Center ${i}` }),
  );

  it('a reservation imported at one desk is found at another, and importing it again there (any case) replaces it', async () => {
    const a = await BuiltinReservationStore.open(await center.storage(), { now: () => T0, deskId: 'desk-a' });
    const b = await BuiltinReservationStore.open(await center.anotherDesk(), { now: () => T0, deskId: 'desk-b' });
    expect(await a.importCsv(csvOf(rows))).toEqual({ ok: true, created: 40, updated: 0 });
    expect(await b.get('ctr-0007')).toMatchObject({ confirmationNumber: 'CTR-0007', guestName: 'Guest Center 7' });
    const again = csvOf(
      rows.map((row) => ({ ...row, confirmationNumber: row.confirmationNumber.toLowerCase(), balanceDueCents: 100 })),
    );
    expect(await b.importCsv(again)).toEqual({ ok: true, created: 0, updated: 40 });
    expect(await a.count()).toBe(40);
    expect((await a.get('CTR-0007'))?.balanceDueCents).toBe(100);
    const [who] = await center.center().query<{
      desk_id: string;
      n: string;
    }>('SELECT desk_id, count(*) AS n FROM reservations.reservations GROUP BY desk_id');
    expect(who).toEqual({ desk_id: 'desk-b', n: '40' });
  });

  it('the same file imported at two desks at the same moment writes each reservation once, and the counts add up', async () => {
    const a = await BuiltinReservationStore.open(await center.storage(), { now: () => T0, deskId: 'desk-a' });
    const b = await BuiltinReservationStore.open(await center.anotherDesk(), { now: () => T0, deskId: 'desk-b' });
    const file = csvOf(rows);
    const results = await Promise.all([a.importCsv(file), b.importCsv(file)]);
    expect(await a.count()).toBe(40);
    const counts = results.map((result) => (result.ok ? [result.created, result.updated] : []));
    expect(counts).toContainEqual([40, 0]);
    expect(counts).toContainEqual([0, 40]);
  });

  it("the center's refusals reach the agent as their own code, in words (never as the driver's message)", async () => {
    const store = await BuiltinReservationStore.open(await center.storage(), { now: () => T0 });
    const { roles } = center.center();
    await center
      .center()
      .query(`REVOKE SELECT ON reservations.reservations FROM ${pg.escapeIdentifier(roles.app.name)}`);
    try {
      const error: unknown = await store.search({ text: 'nunez' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StorageError);
      expect(error).toMatchObject({
        code: 'center_permission_denied',
        message: expect.stringMatching(/--migrate-center/) as unknown,
      });
    } finally {
      await center
        .center()
        .query(`GRANT SELECT ON reservations.reservations TO ${pg.escapeIdentifier(roles.app.name)}`);
    }
    const unreachable = centerStorage({ ...center.center().app, port: 1, connectTimeoutMs: 2000 });
    try {
      await expect(BuiltinReservationStore.open(unreachable)).rejects.toMatchObject({ code: 'center_unavailable' });
    } finally {
      await unreachable.close();
    }
  });

  it("training's demo guests stay in the desk's own file, never on the center", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const storage = await center.storage();
      const training = await createReservationSource(undefined, {
        dataDir: dir,
        storage,
        training: true,
        now: () => T0,
        fetch,
      });
      try {
        expect(existsSync(join(dir, TRAINING_RESERVATIONS_FILE))).toBe(true);
        expect(await training.search({ text: 'nunez' })).not.toEqual([]);
        expect(await center.center().query('SELECT 1 FROM reservations.reservations')).toEqual([]);
      } finally {
        await training.close();
      }
      const real = await createReservationSource(undefined, { dataDir: dir, storage, fetch });
      try {
        expect(await real.search({ text: 'nunez' })).toEqual([]);
        expect(existsSync(join(dir, RESERVATIONS_FILE))).toBe(false);
      } finally {
        await real.close();
      }
    } finally {
      cleanup();
    }
  });
});

describe('a center migrated before the lookup had its text search', () => {
  it('indexes the reservations it already holds when its owner migrates it: they are found by the new spellings', async () => {
    const before = {
      ...RESERVATIONS_STORE,
      postgres: {
        ...RESERVATIONS_STORE.postgres,
        migrations: { '0001_reservations': RESERVATIONS_STORE.postgres.migrations['0001_reservations']! },
      },
    };
    const center = await createCenter(await testPostgres(), { stores: [before] });
    try {
      await center.query(
        `INSERT INTO reservations.reservations (id_key, confirmation_number, confirmation_key, guest_name, name_key, check_in, check_out, hotel_name,
           balance_cents, currency, guest_phone, phone_digits, phone_national, origin, updated_at, desk_id)
         VALUES ('cun-4p8q2r', 'CUN-4P8Q2R', 'cun4p8q2r', 'García, Pedro', 'garcia, pedro', '2026-12-01', '2026-12-02', 'Hotel', 1000, 'mxn',
           '+529981110099', '529981110099', '9981110099', 'import', 0, '')`,
      );
      await migrateCenter(center.owner, [RESERVATIONS_STORE]);
      const storage = centerStorage(center.app);
      try {
        store = await BuiltinReservationStore.open(storage, { now: () => T0 });
        for (const text of ['garcia pedro', 'Pedro García', '4P8Q', '998 111'])
          expect(await ids(text), text).toEqual(['CUN-4P8Q2R']);
      } finally {
        await store.close();
        await storage.close();
      }
    } finally {
      await center.drop();
    }
  }, 120_000);
});
