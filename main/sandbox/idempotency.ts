/** Idempotency as decided (interface-decisions §5): per client, 24 h, by operation and canonical body hash. */
import { createHash } from 'node:crypto';
import { HOUR, type SimClock } from './clock';

export const IDEMPOTENCY_WINDOW = 24 * HOUR;
const SWEEP_EVERY = 1000;

/** A completed answer, kept exactly as it was written. */
export interface StoredResponse {
  status: number;
  body: string;
}

interface Entry {
  operation: string;
  hash: string;
  createdAt: number;
  response: StoredResponse | undefined;
}

export type Begin =
  | { kind: 'new' }
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'conflict' }
  | { kind: 'in_progress' };

export class IdempotencyStore {
  private entries = new Map<string, Entry>();
  private begun = 0;

  constructor(private readonly clock: SimClock) {}

  /** Claims a key for a request, or tells why it cannot be processed anew. */
  begin(clientId: string, key: string, operation: string, hash: string): Begin {
    const now = this.clock.now();
    if (++this.begun % SWEEP_EVERY === 0) this.sweep(now);
    const id = scoped(clientId, key);
    const entry = this.entries.get(id);
    if (entry && now - entry.createdAt < IDEMPOTENCY_WINDOW) {
      if (entry.operation !== operation || entry.hash !== hash) return { kind: 'conflict' };
      return entry.response ? { kind: 'replay', response: entry.response } : { kind: 'in_progress' };
    }
    this.entries.set(id, { operation, hash, createdAt: now, response: undefined });
    return { kind: 'new' };
  }

  /** Stores a completed answer; a 5xx is not stored, so a retry is processed again. */
  complete(clientId: string, key: string, response: StoredResponse): void {
    const id = scoped(clientId, key);
    const entry = this.entries.get(id);
    if (!entry) return;
    if (response.status >= 500) this.entries.delete(id);
    else entry.response = response;
  }

  abandon(clientId: string, key: string): void {
    this.entries.delete(scoped(clientId, key));
  }

  clear(): void {
    this.entries.clear();
  }

  private sweep(now: number): void {
    for (const [id, entry] of this.entries) {
      if (now - entry.createdAt >= IDEMPOTENCY_WINDOW) this.entries.delete(id);
    }
  }
}

const scoped = (clientId: string, key: string): string => `${clientId}\u0000${key}`;

/** sha256 of the canonical JSON (object keys sorted); the raw text when it is not JSON. */
export function bodyHash(raw: string, parsed: unknown, parsedOk: boolean): string {
  return createHash('sha256')
    .update(parsedOk ? canonicalJson(parsed) : `raw:${raw}`)
    .digest('hex');
}

export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
