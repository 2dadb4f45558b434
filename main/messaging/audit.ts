/**
 * The messaging audit (messaging.db, SQLite): who sent which payment's link, by which channel and provider, to which
 * MASKED destination, when, and every status it went through (sending, queued, sent, delivered, read, failed, unknown)
 * with the provider's own status, error number and more_info. A row is written before the provider is called, so a
 * send cut short by a crash still shows ('sending'). The link is never stored: its host at most.
 */
import type { DeliveryFailureCode, DeliveryRecordView, FailureActor, MessageChannel, MessageLanguage, MessagingProvider } from '../../shared/messaging';
import { DeliveryRecordView as DeliveryRecordSchema } from '../../shared/messaging';
import { SqliteFile } from '../storage/sqlite';

export const AUDIT_SCHEMA_VERSION = 2;

const STATUSES = `'sending', 'queued', 'sent', 'delivered', 'read', 'failed', 'unknown'`;

const MIGRATIONS = [
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
  // Version 2: delivery is followed after the provider accepts a message, so a row has a latest status and a history.
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
] as const;

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

interface Row {
  message_id: string;
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
  provider_code: number | null;
  more_info: string | null;
  attempts: number;
  created_at: string;
  finished_at: string | null;
}

interface EventRow {
  message_id: string;
  at: string;
  status: string;
  provider_status: string | null;
  provider_code: number | null;
  failure_code: string | null;
  more_info: string | null;
}

export class MessagingAudit {
  private readonly file: SqliteFile;

  constructor(path: string) {
    this.file = new SqliteFile(path, { label: 'messaging audit', migrations: MIGRATIONS, pragmas: ['secure_delete = ON', 'foreign_keys = ON'] });
  }

  started(entry: AuditStart): void {
    this.file.transaction(() => {
      this.file
        .stmt(
          `INSERT INTO deliveries (message_id, payment_id, operator_id, channel, provider, destination_masked, language, link_host, status, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'sending', ?)`,
        )
        .run(entry.messageId, entry.paymentId, entry.operatorId, entry.channel, entry.provider, entry.destinationMasked, entry.language, entry.linkHost ?? null, entry.at);
      this.file.stmt(`INSERT INTO delivery_events (message_id, at, status) VALUES (?, ?, 'sending')`).run(entry.messageId, entry.at);
    });
  }

  /** The message's latest status, and one more line in its history. */
  reached(messageId: string, update: AuditStatus): void {
    const failure = update.failure;
    this.file.transaction(() => {
      this.file
        .stmt(
          `UPDATE deliveries SET status = ?, attempts = COALESCE(?, attempts), failure_code = ?, failure_actor = ?, failure_message = ?,
             provider_code = ?, more_info = ?, provider_message_id = COALESCE(?, provider_message_id), final = ?,
             finished_at = CASE WHEN ? THEN ? ELSE finished_at END
           WHERE message_id = ?`,
        )
        .run(
          update.status,
          update.attempts ?? null,
          failure?.code ?? null,
          failure?.actor ?? null,
          failure?.message ?? null,
          failure?.providerCode ?? null,
          failure?.moreInfo ?? null,
          update.providerMessageId ?? null,
          update.final ? 1 : 0,
          update.final ? 1 : 0,
          update.at,
          messageId,
        );
      this.file
        .stmt(`INSERT INTO delivery_events (message_id, at, status, provider_status, provider_code, failure_code, more_info) VALUES (?, ?, ?, ?, ?, ?, ?)`)
        .run(messageId, update.at, update.status, update.providerStatus ?? null, failure?.providerCode ?? null, failure?.code ?? null, failure?.moreInfo ?? null);
    });
  }

  /** A payment's deliveries, oldest first. */
  forPayment(paymentId: string): DeliveryRecordView[] {
    const rows = this.file.stmt('SELECT * FROM deliveries WHERE payment_id = ? ORDER BY created_at, rowid').all(paymentId) as Row[];
    return rows.map((row) => this.toView(row));
  }

  /** The provider's ids of a payment's messages (a look-up for a lost answer must not take an earlier one for it). */
  providerIds(paymentId: string): string[] {
    const rows = this.file.stmt('SELECT provider_message_id FROM deliveries WHERE payment_id = ? AND provider_message_id IS NOT NULL').all(paymentId) as {
      provider_message_id: string;
    }[];
    return rows.map((row) => row.provider_message_id);
  }

  /** The latest deliveries on this desk, newest first. */
  recent(limit = 100): DeliveryRecordView[] {
    const rows = this.file.stmt('SELECT * FROM deliveries ORDER BY created_at DESC, rowid DESC LIMIT ?').all(Math.max(1, Math.min(limit, 1000))) as Row[];
    return rows.map((row) => this.toView(row));
  }

  close(): void {
    this.file.close();
  }

  private toView(row: Row): DeliveryRecordView {
    const events = this.file.stmt('SELECT * FROM delivery_events WHERE message_id = ? ORDER BY id').all(row.message_id) as EventRow[];
    return DeliveryRecordSchema.parse({
      messageId: row.message_id,
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
      events: events.map((event) => ({
        status: event.status,
        at: event.at,
        ...(event.provider_status === null ? {} : { providerStatus: event.provider_status }),
        ...(event.provider_code === null ? {} : { providerCode: event.provider_code }),
        ...(event.failure_code === null ? {} : { failureCode: event.failure_code }),
        ...(event.more_info === null ? {} : { moreInfo: event.more_info }),
      })),
    });
  }
}
