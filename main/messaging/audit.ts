/**
 * The messaging deliveries (messaging.db, or the center's `messaging` schema): who sent which payment's link, from which
 * desk, by which channel and provider, to which MASKED destination, when, and every status it went through (sending,
 * queued, sent, delivered, read, failed, unknown) with the provider's own status, error number and more_info. A row is
 * written before the provider is called, so a send cut short by a crash still shows ('sending'). The link is never
 * stored: its host at most. A payment's deliveries are read whichever desk sent them (the guest may call back anyone).
 */
import { sql, type Generated, type Kysely } from 'kysely';
import type {
  DeliveryFailureCode,
  DeliveryRecordView,
  FailureActor,
  MessageChannel,
  MessageLanguage,
  MessagingProvider,
} from '../../shared/messaging';
import { DeliveryRecordView as DeliveryRecordSchema } from '../../shared/messaging';
import { deskHeldTable, type Storage, type StoreDatabase, type StoreDefinition } from '../storage';

const STATUSES = ['sending', 'queued', 'sent', 'delivered', 'read', 'failed', 'unknown'] as const;

/** A line of a delivery's history is added only for a delivery of the adding login's desk (or by the shared credential). */
const DELIVERY_EVENTS_RULES = `
ALTER TABLE messaging.delivery_events ENABLE ROW LEVEL SECURITY;
DROP POLICY IF EXISTS every_desk_reads ON messaging.delivery_events;
CREATE POLICY every_desk_reads ON messaging.delivery_events FOR SELECT USING (true);
DROP POLICY IF EXISTS own_desk_adds ON messaging.delivery_events;
CREATE POLICY own_desk_adds ON messaging.delivery_events FOR INSERT WITH CHECK (EXISTS (
  SELECT FROM messaging.deliveries d WHERE d.message_id = delivery_events.message_id
     AND (d.desk_id = (SELECT center.current_desk()) OR (SELECT center.shared_session()))));`;

export const DELIVERIES_STORE: StoreDefinition = {
  name: 'messaging',
  label: 'messaging deliveries',
  sqlite: {
    file: 'messaging.db',
    pragmas: ['secure_delete = ON', 'foreign_keys = ON'],
    adoptsUserVersion: 2,
    migrations: {
      '0001_deliveries': {
        up: async (db: Kysely<unknown>) => {
          await sql`CREATE TABLE deliveries (
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
   CREATE INDEX deliveries_by_time ON deliveries (created_at);`.execute(db);
        },
      },
      // Delivery is followed after the provider accepts a message, so a row has a latest status and a history.
      '0002_delivery_events': {
        up: async (db: Kysely<unknown>) => {
          await sql`CREATE TABLE deliveries_v2 (
     message_id TEXT PRIMARY KEY,
     payment_id TEXT NOT NULL,
     operator_id TEXT NOT NULL,
     channel TEXT NOT NULL CHECK (channel IN ('sms', 'whatsapp', 'email')),
     provider TEXT NOT NULL,
     destination_masked TEXT NOT NULL,
     language TEXT NOT NULL,
     link_host TEXT,
     status TEXT NOT NULL CHECK (status IN ('sending', 'queued', 'sent', 'delivered', 'read', 'failed', 'unknown')),
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
     status TEXT NOT NULL CHECK (status IN ('sending', 'queued', 'sent', 'delivered', 'read', 'failed', 'unknown')),
     provider_status TEXT,
     provider_code INTEGER,
     failure_code TEXT,
     more_info TEXT
   ) STRICT;
   CREATE INDEX delivery_events_by_message ON delivery_events (message_id, id);
   INSERT INTO delivery_events (message_id, at, status, failure_code)
     SELECT message_id, COALESCE(finished_at, created_at), status, failure_code FROM deliveries;`.execute(db);
        },
      },
      // Each delivery names its desk ('' for those sent before desks had ids: this file's own desk's).
      '0003_desk': {
        up: async (db: Kysely<unknown>) => {
          await db.schema
            .alterTable('deliveries')
            .addColumn('desk_id', 'text', (c) => c.notNull().defaultTo(''))
            .execute();
          await db.schema
            .createIndex('deliveries_by_desk')
            .on('deliveries')
            .columns(['desk_id', 'created_at'])
            .execute();
        },
      },
    },
  },
  postgres: {
    migrations: {
      '0001_deliveries': {
        up: async (db: Kysely<unknown>) => {
          const statuses = sql.join(STATUSES.map((status) => sql.lit(status)));
          await db.schema
            .createTable('deliveries')
            .addColumn('message_id', 'text', (c) => c.primaryKey())
            .addColumn('desk_id', 'text', (c) => c.notNull())
            .addColumn('payment_id', 'text', (c) => c.notNull())
            .addColumn('operator_id', 'text', (c) => c.notNull())
            .addColumn('channel', 'text', (c) => c.notNull().check(sql`channel IN ('sms', 'whatsapp', 'email')`))
            .addColumn('provider', 'text', (c) => c.notNull())
            .addColumn('destination_masked', 'text', (c) => c.notNull())
            .addColumn('language', 'text', (c) => c.notNull())
            .addColumn('link_host', 'text')
            .addColumn('status', 'text', (c) => c.notNull().check(sql`status IN (${statuses})`))
            .addColumn('failure_code', 'text')
            .addColumn('failure_actor', 'text', (c) => c.check(sql`failure_actor IN ('guest', 'desk', 'it')`))
            .addColumn('failure_message', 'text')
            .addColumn('provider_code', 'integer')
            .addColumn('more_info', 'text')
            .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
            .addColumn('provider_message_id', 'text')
            .addColumn('final', 'integer', (c) =>
              c
                .notNull()
                .defaultTo(0)
                .check(sql`final IN (0, 1)`),
            )
            .addColumn('created_at', 'text', (c) => c.notNull())
            .addColumn('finished_at', 'text')
            .execute();
          await db.schema
            .createIndex('deliveries_by_payment')
            .on('deliveries')
            .columns(['payment_id', 'created_at'])
            .execute();
          await db.schema.createIndex('deliveries_by_time').on('deliveries').column('created_at').execute();
          await db.schema
            .createIndex('deliveries_by_desk')
            .on('deliveries')
            .columns(['desk_id', 'created_at'])
            .execute();
          await db.schema
            .createTable('delivery_events')
            .addColumn('id', 'bigint', (c) => c.generatedAlwaysAsIdentity().primaryKey())
            .addColumn('message_id', 'text', (c) => c.notNull().references('deliveries.message_id'))
            .addColumn('at', 'text', (c) => c.notNull())
            .addColumn('status', 'text', (c) => c.notNull().check(sql`status IN (${statuses})`))
            .addColumn('provider_status', 'text')
            .addColumn('provider_code', 'integer')
            .addColumn('failure_code', 'text')
            .addColumn('more_info', 'text')
            .execute();
          await db.schema
            .createIndex('delivery_events_by_message')
            .on('delivery_events')
            .columns(['message_id', 'id'])
            .execute();
        },
      },
      // A delivery is the sending desk's: added and changed only by that desk's login, and its history grows only with
      // the lines of that desk's own deliveries. Every desk reads them all (the guest may call back anyone).
      '0002_desk_rows': {
        up: async (db: Kysely<unknown>) => {
          await sql.raw(deskHeldTable('messaging', 'deliveries', 'false')).execute(db);
          await sql.raw(DELIVERY_EVENTS_RULES).execute(db);
        },
      },
    },
    // A delivery's latest status is updated; its history only grows; nothing is deleted.
    grants: { deliveries: ['SELECT', 'INSERT', 'UPDATE'], delivery_events: ['SELECT', 'INSERT'] },
  },
};

/** The number of migrations of messaging.db (the SqliteFile era had 2; the third names the desk). */
export const AUDIT_SCHEMA_VERSION = Object.keys(DELIVERIES_STORE.sqlite.migrations).length;

export interface AuditStart {
  messageId: string;
  paymentId: string;
  operatorId: string;
  channel: MessageChannel;
  provider: MessagingProvider;
  /** Already masked by the caller. */
  destinationMasked: string;
  language: MessageLanguage;
  linkHost?: string | undefined;
  at: string;
}

/** A status the message reached. */
export interface AuditStatus {
  status: 'queued' | 'sent' | 'delivered' | 'read' | 'failed' | 'unknown';
  /** No later status will be recorded. */
  final: boolean;
  at: string;
  /** Requests made to send it; left as it was when not given. */
  attempts?: number | undefined;
  providerStatus?: string | undefined;
  providerMessageId?: string | undefined;
  failure?:
    | {
        code: DeliveryFailureCode;
        actor: FailureActor;
        message: string;
        providerCode?: number | undefined;
        moreInfo?: string | undefined;
      }
    | undefined;
}

interface DeliveriesTable {
  message_id: string;
  desk_id: string;
  payment_id: string;
  operator_id: string;
  channel: string;
  provider: string;
  destination_masked: string;
  language: string;
  link_host: string | null;
  status: string;
  failure_code: string | null;
  failure_actor: string | null;
  failure_message: string | null;
  provider_code: number | null;
  more_info: string | null;
  attempts: Generated<number>;
  provider_message_id: string | null;
  final: Generated<number>;
  created_at: string;
  finished_at: string | null;
}

interface DeliveryEventsTable {
  id: Generated<number>;
  message_id: string;
  at: string;
  status: string;
  provider_status: string | null;
  provider_code: number | null;
  failure_code: string | null;
  more_info: string | null;
}

export interface DeliveriesDB {
  deliveries: DeliveriesTable;
  delivery_events: DeliveryEventsTable;
}

type Row = Omit<DeliveriesTable, 'attempts' | 'final'> & { attempts: number; final: number };

/** Deliveries sent before desks had ids: this file's own desk's. */
const NO_DESK = '';

export class MessagingAudit {
  private constructor(
    private readonly store: StoreDatabase<DeliveriesDB>,
    readonly deskId: string,
  ) {}

  static async open(storage: Storage, desk: { deskId: string }): Promise<MessagingAudit> {
    return new MessagingAudit(await storage.open<DeliveriesDB>(DELIVERIES_STORE), desk.deskId);
  }

  async started(entry: AuditStart): Promise<void> {
    await this.store.transaction(async (trx) => {
      await trx
        .insertInto('deliveries')
        .values({
          message_id: entry.messageId,
          desk_id: this.deskId,
          payment_id: entry.paymentId,
          operator_id: entry.operatorId,
          channel: entry.channel,
          provider: entry.provider,
          destination_masked: entry.destinationMasked,
          language: entry.language,
          link_host: entry.linkHost ?? null,
          status: 'sending',
          created_at: entry.at,
        })
        .execute();
      await trx
        .insertInto('delivery_events')
        .values({ message_id: entry.messageId, at: entry.at, status: 'sending' })
        .execute();
    });
  }

  /** The message's latest status, and one more line in its history. */
  async reached(messageId: string, update: AuditStatus): Promise<void> {
    const failure = update.failure;
    await this.store.transaction(async (trx) => {
      await trx
        .updateTable('deliveries')
        .set((eb) => ({
          status: update.status,
          attempts: update.attempts ?? eb.ref('attempts'),
          failure_code: failure?.code ?? null,
          failure_actor: failure?.actor ?? null,
          failure_message: failure?.message ?? null,
          provider_code: failure?.providerCode ?? null,
          more_info: failure?.moreInfo ?? null,
          provider_message_id: update.providerMessageId ?? eb.ref('provider_message_id'),
          final: update.final ? 1 : 0,
          finished_at: update.final ? update.at : eb.ref('finished_at'),
        }))
        .where('message_id', '=', messageId)
        .execute();
      await trx
        .insertInto('delivery_events')
        .values({
          message_id: messageId,
          at: update.at,
          status: update.status,
          provider_status: update.providerStatus ?? null,
          provider_code: failure?.providerCode ?? null,
          failure_code: failure?.code ?? null,
          more_info: failure?.moreInfo ?? null,
        })
        .execute();
    });
  }

  /** A payment's deliveries, oldest first, whichever desk sent them. */
  async forPayment(paymentId: string): Promise<DeliveryRecordView[]> {
    const rows = await this.store.db
      .selectFrom('deliveries')
      .selectAll()
      .where('payment_id', '=', paymentId)
      .orderBy('created_at')
      .orderBy('message_id')
      .execute();
    return this.toViews(rows);
  }

  /** The provider's ids of a payment's messages, from every desk (a look-up for a lost answer must not take an earlier one for it). */
  async providerIds(paymentId: string): Promise<string[]> {
    const rows = await this.store.db
      .selectFrom('deliveries')
      .select('provider_message_id')
      .where('payment_id', '=', paymentId)
      .where('provider_message_id', 'is not', null)
      .execute();
    return rows.flatMap((row) => (row.provider_message_id === null ? [] : [row.provider_message_id]));
  }

  /** The latest deliveries, newest first: this desk's, or with `allDesks` the whole center's. */
  async recent(limit = 100, options: { allDesks?: boolean } = {}): Promise<DeliveryRecordView[]> {
    let query = this.store.db.selectFrom('deliveries').selectAll();
    if (options.allDesks !== true) query = query.where('desk_id', 'in', [this.deskId, NO_DESK]);
    const rows = await query
      .orderBy('created_at', 'desc')
      .orderBy('message_id', 'desc')
      .limit(Math.max(1, Math.min(limit, 1000)))
      .execute();
    return this.toViews(rows);
  }

  close(): Promise<void> {
    return this.store.close();
  }

  private async toViews(rows: readonly Row[]): Promise<DeliveryRecordView[]> {
    if (rows.length === 0) return [];
    const events = await this.store.db
      .selectFrom('delivery_events')
      .selectAll()
      .where(
        'message_id',
        'in',
        rows.map((row) => row.message_id),
      )
      .orderBy('id')
      .execute();
    return rows.map((row) =>
      DeliveryRecordSchema.parse({
        messageId: row.message_id,
        deskId: row.desk_id === NO_DESK ? this.deskId : row.desk_id,
        paymentId: row.payment_id,
        operatorId: row.operator_id,
        channel: row.channel,
        to: row.destination_masked,
        provider: row.provider,
        language: row.language,
        status: row.status,
        ...(row.failure_code === null ? {} : { failureCode: row.failure_code }),
        ...(row.failure_actor === null ? {} : { failureActor: row.failure_actor }),
        ...(row.provider_code === null ? {} : { providerCode: row.provider_code }),
        ...(row.more_info === null ? {} : { moreInfo: row.more_info }),
        attempts: row.attempts,
        ...(row.link_host === null ? {} : { linkHost: row.link_host }),
        createdAt: row.created_at,
        ...(row.finished_at === null ? {} : { finishedAt: row.finished_at }),
        events: events
          .filter((event) => event.message_id === row.message_id)
          .map((event) => ({
            status: event.status,
            at: event.at,
            ...(event.provider_status === null ? {} : { providerStatus: event.provider_status }),
            ...(event.provider_code === null ? {} : { providerCode: event.provider_code }),
            ...(event.failure_code === null ? {} : { failureCode: event.failure_code }),
            ...(event.more_info === null ? {} : { moreInfo: event.more_info }),
          })),
      }),
    );
  }
}
