// The messaging deliveries on both backends (the embedded messaging.db and the center's PostgreSQL, as the app role):
// each delivery names its desk and operator; a payment's deliveries are read whichever desk sent them; a desk's recent
// list is its own unless the whole center is asked for; a file of the previous version is adopted with its rows.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DELIVERIES_STORE, MessagingAudit, type AuditStart } from '../../../main/messaging';
import { embeddedStorage, SqliteFile, StorageError } from '../../../main/storage';
import { useStoreBackends } from '../../support/backends';

const DESK_A = 'desk-a';
const DESK_B = 'desk-b';
const PAYMENT = `pay_${'1'.repeat(32)}`;
const STATUSES = `'sending', 'queued', 'sent', 'delivered', 'read', 'failed', 'unknown'`;

const start = (messageId: string, operatorId: string, at: string): AuditStart => ({
  messageId,
  paymentId: PAYMENT,
  operatorId,
  channel: 'sms',
  provider: 'twilio',
  destinationMasked: '+52 ••• ••• 4567',
  language: 'es-MX',
  linkHost: 'pay.example.com',
  at,
});

describe.each(useStoreBackends([DELIVERIES_STORE]))('the messaging deliveries on $name', (backend) => {
  it('records a delivery from its first row to its final status, naming its desk and operator', async () => {
    const deliveries = await MessagingAudit.open(await backend.storage(), { deskId: DESK_A });
    await deliveries.started(start(`msg_${'a'.repeat(32)}`, 'ana', '2026-11-24T10:00:00.000Z'));
    await deliveries.reached(`msg_${'a'.repeat(32)}`, {
      status: 'queued',
      final: false,
      at: '2026-11-24T10:00:01.000Z',
      attempts: 1,
      providerStatus: 'queued',
      providerMessageId: 'SM1',
    });
    await deliveries.reached(`msg_${'a'.repeat(32)}`, {
      status: 'failed',
      final: true,
      at: '2026-11-24T10:00:09.000Z',
      providerStatus: 'undelivered',
      failure: {
        code: 'undelivered',
        actor: 'guest',
        message: 'The phone did not take it.',
        providerCode: 30003,
        moreInfo: 'https://www.twilio.com/docs/errors/30003',
      },
    });
    const [row] = await deliveries.forPayment(PAYMENT);
    expect(row).toMatchObject({
      deskId: DESK_A,
      operatorId: 'ana',
      status: 'failed',
      attempts: 1,
      failureCode: 'undelivered',
      failureActor: 'guest',
      providerCode: 30003,
      linkHost: 'pay.example.com',
      finishedAt: '2026-11-24T10:00:09.000Z',
    });
    expect(row?.events.map((event) => [event.status, event.providerStatus])).toEqual([
      ['sending', undefined],
      ['queued', 'queued'],
      ['failed', 'undelivered'],
    ]);
    expect(await deliveries.providerIds(PAYMENT)).toEqual(['SM1']);
  });

  it("a payment's deliveries are read at any desk; a desk's recent list is its own unless the center's is asked for", async () => {
    const a = await MessagingAudit.open(await backend.storage(), { deskId: DESK_A });
    const b = await MessagingAudit.open(await backend.anotherDesk(), { deskId: DESK_B });
    await a.started(start(`msg_${'a'.repeat(32)}`, 'ana', '2026-11-24T10:00:00.000Z'));
    await b.started(start(`msg_${'b'.repeat(32)}`, 'beto', '2026-11-24T10:05:00.000Z'));
    expect((await b.forPayment(PAYMENT)).map((row) => [row.deskId, row.operatorId])).toEqual([
      [DESK_A, 'ana'],
      [DESK_B, 'beto'],
    ]);
    expect((await a.recent()).map((row) => row.operatorId)).toEqual(['ana']);
    expect((await a.recent(100, { allDesks: true })).map((row) => row.operatorId)).toEqual(['beto', 'ana']);
  });
});

describe('the messaging deliveries on the center', () => {
  const backends = useStoreBackends([DELIVERIES_STORE]);
  const postgres = backends.find((backend) => backend.name === 'postgres');
  if (postgres === undefined) throw new Error('useStoreBackends gave no postgres backend');
  const center = postgres;

  it('the app role may add and update deliveries, add to their history, and delete nothing', async () => {
    const deliveries = await MessagingAudit.open(await center.storage(), { deskId: DESK_A });
    await deliveries.started(start(`msg_${'a'.repeat(32)}`, 'ana', '2026-11-24T10:00:00.000Z'));
    const { db } = await (
      await center.anotherDesk()
    ).open<{ deliveries: { message_id: string }; delivery_events: { message_id: string } }>(DELIVERIES_STORE);
    for (const table of ['deliveries', 'delivery_events'] as const) {
      const error: unknown = await db
        .deleteFrom(table)
        .execute()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StorageError);
      expect(error).toMatchObject({ code: 'center_permission_denied' });
    }
    expect(await deliveries.forPayment(PAYMENT)).toHaveLength(1);
  });
});

describe('messaging.db of the previous version', () => {
  it('is adopted with its deliveries, which are this desk’s', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'messaging-adopt-'));
    try {
      // The file as the SqliteFile era left it at schema 2 (its tables, one delivery and its history).
      const old = new SqliteFile(join(dir, 'messaging.db'), {
        label: 'messaging audit',
        // main/messaging/audit.ts's MIGRATIONS before this version, word for word.
        migrations: [
          `CREATE TABLE deliveries (
     message_id TEXT PRIMARY KEY,
     payment_id TEXT NOT NULL,
     operator_id TEXT NOT NULL,
     channel TEXT NOT NULL CHECK (channel IN ('sms', 'whatsapp', 'email')),
     provider TEXT NOT NULL,
     destination_masked TEXT NOT NULL,
     language TEXT NOT NULL,
     link_host TEXT,
     status TEXT NOT NULL CHECK (status IN ('sending', 'sent', 'failed')),
     failure_code TEXT,
     failure_message TEXT,
     attempts INTEGER NOT NULL DEFAULT 0,
     provider_message_id TEXT,
     created_at TEXT NOT NULL,
     finished_at TEXT
   ) STRICT;
   CREATE INDEX deliveries_by_payment ON deliveries (payment_id, created_at);
   CREATE INDEX deliveries_by_time ON deliveries (created_at);`,
          `CREATE TABLE deliveries_v2 (
     message_id TEXT PRIMARY KEY,
     payment_id TEXT NOT NULL,
     operator_id TEXT NOT NULL,
     channel TEXT NOT NULL CHECK (channel IN ('sms', 'whatsapp', 'email')),
     provider TEXT NOT NULL,
     destination_masked TEXT NOT NULL,
     language TEXT NOT NULL,
     link_host TEXT,
     status TEXT NOT NULL CHECK (status IN (${STATUSES})),
     failure_code TEXT,
     failure_actor TEXT CHECK (failure_actor IN ('guest', 'desk', 'it')),
     failure_message TEXT,
     provider_code INTEGER,
     more_info TEXT,
     attempts INTEGER NOT NULL DEFAULT 0,
     provider_message_id TEXT,
     final INTEGER NOT NULL DEFAULT 0 CHECK (final IN (0, 1)),
     created_at TEXT NOT NULL,
     finished_at TEXT
   ) STRICT;
   INSERT INTO deliveries_v2 (message_id, payment_id, operator_id, channel, provider, destination_masked, language, link_host, status,
                              failure_code, failure_message, attempts, provider_message_id, final, created_at, finished_at)
     SELECT message_id, payment_id, operator_id, channel, provider, destination_masked, language, link_host, status,
            failure_code, failure_message, attempts, provider_message_id, finished_at IS NOT NULL, created_at, finished_at
     FROM deliveries;
   DROP TABLE deliveries;
   ALTER TABLE deliveries_v2 RENAME TO deliveries;
   CREATE INDEX deliveries_by_payment ON deliveries (payment_id, created_at);
   CREATE INDEX deliveries_by_time ON deliveries (created_at);
   CREATE TABLE delivery_events (
     id INTEGER PRIMARY KEY,
     message_id TEXT NOT NULL REFERENCES deliveries (message_id),
     at TEXT NOT NULL,
     status TEXT NOT NULL CHECK (status IN (${STATUSES})),
     provider_status TEXT,
     provider_code INTEGER,
     failure_code TEXT,
     more_info TEXT
   ) STRICT;
   CREATE INDEX delivery_events_by_message ON delivery_events (message_id, id);
   INSERT INTO delivery_events (message_id, at, status, failure_code)
     SELECT message_id, COALESCE(finished_at, created_at), status, failure_code FROM deliveries;`,
        ],
      });
      old
        .stmt(
          `INSERT INTO deliveries (message_id, payment_id, operator_id, channel, provider, destination_masked, language, status, attempts, final, created_at, finished_at)
         VALUES (?, ?, 'ana', 'email', 'smtp', 'a***@example.com', 'en-US', 'sent', 1, 1, '2026-11-01T10:00:00.000Z', '2026-11-01T10:00:01.000Z')`,
        )
        .run(`msg_${'c'.repeat(32)}`, PAYMENT);
      old
        .stmt(
          `INSERT INTO delivery_events (message_id, at, status) VALUES (?, '2026-11-01T10:00:00.000Z', 'sending'), (?, '2026-11-01T10:00:01.000Z', 'sent')`,
        )
        .run(`msg_${'c'.repeat(32)}`, `msg_${'c'.repeat(32)}`);
      old.close();
      const storage = embeddedStorage(dir);
      try {
        const deliveries = await MessagingAudit.open(storage, { deskId: DESK_A });
        const [row] = await deliveries.forPayment(PAYMENT);
        expect(row).toMatchObject({ deskId: DESK_A, operatorId: 'ana', status: 'sent', channel: 'email' });
        expect(row?.events.map((event) => event.status)).toEqual(['sending', 'sent']);
        expect(await deliveries.recent()).toHaveLength(1);
      } finally {
        await storage.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
