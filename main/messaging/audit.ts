/**
 * The messaging audit (messaging.db, SQLite): who sent which payment's link, by which channel and provider, to which
 * MASKED destination, when, and how it ended. A row is written before the provider is called and closed after, so a
 * send cut short by a crash still shows ('sending'). The link is never stored: its host at most.
 */
import type { DeliveryFailureCode, DeliveryRecordView, MessageChannel, MessageLanguage, MessagingProvider } from '../../shared/messaging';
import { DeliveryRecordView as DeliveryRecordSchema } from '../../shared/messaging';
import { SqliteFile } from '../storage/sqlite';

export const AUDIT_SCHEMA_VERSION = 1;

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

export interface AuditFinish {
  status: 'sent' | 'failed';
  attempts: number;
  failureCode?: DeliveryFailureCode | undefined;
  failureMessage?: string | undefined;
  providerMessageId?: string | undefined;
  at: string;
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
  attempts: number;
  created_at: string;
  finished_at: string | null;
}

export class MessagingAudit {
  private readonly file: SqliteFile;

  constructor(path: string) {
    this.file = new SqliteFile(path, { label: 'messaging audit', migrations: MIGRATIONS, pragmas: ['secure_delete = ON'] });
  }

  started(entry: AuditStart): void {
    this.file
      .stmt(
        `INSERT INTO deliveries (message_id, payment_id, operator_id, channel, provider, destination_masked, language, link_host, status, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'sending', ?)`,
      )
      .run(entry.messageId, entry.paymentId, entry.operatorId, entry.channel, entry.provider, entry.destinationMasked, entry.language, entry.linkHost ?? null, entry.at);
  }

  finished(messageId: string, outcome: AuditFinish): void {
    this.file
      .stmt(
        `UPDATE deliveries SET status = ?, attempts = ?, failure_code = ?, failure_message = ?, provider_message_id = ?, finished_at = ?
         WHERE message_id = ?`,
      )
      .run(outcome.status, outcome.attempts, outcome.failureCode ?? null, outcome.failureMessage ?? null, outcome.providerMessageId ?? null, outcome.at, messageId);
  }

  /** A payment's deliveries, oldest first. */
  forPayment(paymentId: string): DeliveryRecordView[] {
    const rows = this.file.stmt('SELECT * FROM deliveries WHERE payment_id = ? ORDER BY created_at, rowid').all(paymentId) as Row[];
    return rows.map(toView);
  }

  /** The latest deliveries on this desk, newest first. */
  recent(limit = 100): DeliveryRecordView[] {
    const rows = this.file.stmt('SELECT * FROM deliveries ORDER BY created_at DESC, rowid DESC LIMIT ?').all(Math.max(1, Math.min(limit, 1000))) as Row[];
    return rows.map(toView);
  }

  close(): void {
    this.file.close();
  }
}

function toView(row: Row): DeliveryRecordView {
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
    attempts: row.attempts,
    ...(row.link_host === null ? {} : { linkHost: row.link_host }),
    createdAt: row.created_at,
    ...(row.finished_at === null ? {} : { finishedAt: row.finished_at }),
  });
}
