// The simulator's reading of a request: its body (bounded in size and nesting), path, request id and credentials.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { StoredResponse } from './idempotency';

const MAX_BODY_BYTES = 64 * 1024;
const MAX_JSON_DEPTH = 32;

export type Body = { kind: 'empty' } | { kind: 'json'; value: unknown } | { kind: 'invalid'; message: string };

export interface Written extends StoredResponse {
  headers?: Record<string, string>;
}

export interface RawBody {
  text: string;
  tooLarge: boolean;
}

export function readBody(req: IncomingMessage): Promise<RawBody> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => {
      resolve(
        size > MAX_BODY_BYTES
          ? { text: '', tooLarge: true }
          : { text: Buffer.concat(chunks).toString('utf8'), tooLarge: false },
      );
    });
    req.on('error', reject);
  });
}

export function parseJson(raw: RawBody): Body {
  if (raw.tooLarge)
    return { kind: 'invalid', message: `The request body is too large (${MAX_BODY_BYTES / 1024} KiB at most).` };
  if (raw.text.trim() === '') return { kind: 'empty' };
  let value: unknown;
  try {
    value = JSON.parse(raw.text);
  } catch {
    return { kind: 'invalid', message: 'The request body is not valid JSON.' };
  }
  // Hashing and validation walk the body recursively: refuse absurd nesting before they do.
  if (nestedDeeperThan(value, MAX_JSON_DEPTH)) {
    return { kind: 'invalid', message: `The request body is nested too deeply (${MAX_JSON_DEPTH} levels at most).` };
  }
  return { kind: 'json', value };
}

/** Iterative, so that the check itself cannot overflow the stack. */
function nestedDeeperThan(root: unknown, max: number): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value: root, depth: 0 }];
  for (let item = stack.pop(); item; item = stack.pop()) {
    if (typeof item.value !== 'object' || item.value === null) continue;
    if (item.depth >= max) return true;
    for (const child of Object.values(item.value)) stack.push({ value: child, depth: item.depth + 1 });
  }
  return false;
}

export function pathOf(url: string | undefined): string | undefined {
  try {
    return new URL(url ?? '/', 'http://simulator.invalid').pathname;
  } catch {
    return undefined;
  }
}

const PRINTABLE_ID = /^[\x20-\x7e]{1,200}$/;

export function requestIdOf(req: IncomingMessage): string {
  const sent = req.headers['x-request-id'];
  return typeof sent === 'string' && PRINTABLE_ID.test(sent) ? sent : `req_${randomBytes(12).toString('hex')}`;
}

export function bearerOf(req: IncomingMessage): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  return match?.[1];
}

export function basicCredentials(req: IncomingMessage): { id: string; secret: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(req.headers.authorization ?? '');
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { id: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)) };
}

/** RFC 6749 §2.3.1 form-encodes the Basic credentials; a malformed escape is kept as sent. */
function formDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

export function isLoopback(address: string | undefined): boolean {
  return address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';
}
