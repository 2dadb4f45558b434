/** An operation's fingerprint: what is sent, in a form that does not depend on the order of its keys. */
import { createHash } from 'node:crypto';

/** sha256 of the canonical JSON (object keys sorted) of what is sent. */
export function fingerprint(payload: unknown): string {
  return createHash('sha256').update(canonical(payload)).digest('hex');
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .filter((k) => record[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(record[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
