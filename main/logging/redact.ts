/** Scrubs what must never reach a log or the audit trail: card data (the shared detector), passwords, secrets, tokens, Bearer credentials. */
import { stdSerializers } from 'pino';
import { isCardNumberDigits, redactCardData } from '../../shared/text';

export const CARD_PLACEHOLDER = '[card]';
export const REDACTED = '[redacted]';

/** Deeper than this, a value is replaced by a marker (logs carry ids and statuses, not deep trees). */
const MAX_DEPTH = 12;

/** Key names (lowercase, letters and digits only) whose values are never logged, whatever they hold. */
const SENSITIVE_KEYS = new Set([
  'cvv',
  'cvc',
  'cvv2',
  'cvc2',
  'securitycode',
  'password',
  'passwd',
  'secret',
  'clientsecret',
  'token',
  'accesstoken',
  'refreshtoken',
  'idtoken',
  'authorization',
  'proxyauthorization',
  'cookie',
  'setcookie',
  'apikey',
  'xapikey',
  'pan',
  'cardnumber',
]);
/** …and any key ending like one of these: cardCvv, operatorPassword, webhookSecret, csrfToken. */
const SENSITIVE_SUFFIXES = ['cvv', 'cvc', 'cvv2', 'cvc2', 'securitycode', 'password', 'secret', 'token', 'cardnumber'];

/** Whether a key's value is always redacted (cvv, client_secret, accessToken, Authorization…). */
export function isSensitiveKey(key: string): boolean {
  const normalized = key.toLowerCase().replace(/[^a-z0-9]/g, '');
  return SENSITIVE_KEYS.has(normalized) || SENSITIVE_SUFFIXES.some((suffix) => normalized.endsWith(suffix));
}

// --- Text ---

/** `Authorization: <anything>` up to the end of the value, in headers, JSON or query strings. */
const AUTHORIZATION_TEXT = /(authorization\\?["']?\s*[:=]\s*\\?["']?)[^"'\r\n\\&,;}]+/gi;
/** `Bearer <credential>` anywhere. */
const BEARER_TEXT = /\b(Bearer)\s+[A-Za-z0-9\-._~+/]+=*/gi;
/** `client_secret=…`, `"access_token":"…"`, `cvv: 123`: a sensitive name followed by its value. */
const KEY_VALUE_TEXT =
  /((?:client[_-]?secret|access[_-]?token|refresh[_-]?token|id[_-]?token|api[_-]?key|password|passwd|secret|token|cvv2?|cvc2?|security[_-]?code)\\?["']?\s*[:=]\s*\\?["']?)[^\s"'&,;}\\]+/gi;
const isCardDigits = isCardNumberDigits;

/**
 * The text with card numbers and CVVs, however spelled, replaced by the one detector the contract refuses them with
 * (shared/text), then credentials after sensitive names and Bearer tokens. Card data first: a credential's placeholder
 * put between a CVV's name and its number ("cvv: es el 123") would hide the number from the detector.
 */
export function redactText(text: string): string {
  const cardDataOut = redactCardData(text, { card: CARD_PLACEHOLDER, securityCode: REDACTED });
  return cardDataOut
    .replace(AUTHORIZATION_TEXT, `$1${REDACTED}`)
    .replace(BEARER_TEXT, `$1 ${REDACTED}`)
    .replace(KEY_VALUE_TEXT, `$1${REDACTED}`);
}

// --- Values ---

function isHttpRequest(value: object): boolean {
  return 'method' in value && 'headers' in value && 'socket' in value;
}

function isHttpResponse(value: object): boolean {
  return 'setHeader' in value && typeof value.setHeader === 'function';
}

function hasToJson(value: object): value is { toJSON: () => unknown } {
  return 'toJSON' in value && typeof value.toJSON === 'function';
}

function walk(value: unknown, depth: number, ancestors: Set<object>): unknown {
  switch (typeof value) {
    case 'string':
      return redactText(value);
    case 'number':
      // A card number logged as a number is still a card number.
      return Number.isSafeInteger(value) && isCardDigits(String(Math.abs(value))) ? CARD_PLACEHOLDER : value;
    case 'bigint':
      return isCardDigits((value < 0n ? -value : value).toString()) ? CARD_PLACEHOLDER : value;
    case 'object':
      break;
    default:
      return value;
  }
  if (value === null) return null;
  if (ancestors.has(value)) return '[Circular]';
  if (depth >= MAX_DEPTH) return '[Too deep]';
  ancestors.add(value);
  try {
    return walkObject(value, depth, ancestors);
  } catch {
    // A throwing getter or toJSON: say so rather than fail the log call.
    return '[Unreadable]';
  } finally {
    ancestors.delete(value);
  }
}

function walkObject(value: object, depth: number, ancestors: Set<object>): unknown {
  const next = depth + 1;
  if (value instanceof Error) return walkEntries(stdSerializers.err(value), next, ancestors);
  // Bytes could spell a card number in ASCII: never dumped.
  if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) return `[binary, ${value.byteLength} bytes]`;
  if (Array.isArray(value)) return value.map((item) => walk(item, next, ancestors));
  if (value instanceof Date) return value;
  if (value instanceof Map)
    return walkEntries(Object.fromEntries([...value].map(([key, item]) => [String(key), item])), next, ancestors);
  if (value instanceof Set) return [...value].map((item) => walk(item, next, ancestors));
  if (isHttpRequest(value))
    return walkEntries(stdSerializers.req(value as Parameters<typeof stdSerializers.req>[0]), next, ancestors);
  if (isHttpResponse(value))
    return walkEntries(stdSerializers.res(value as Parameters<typeof stdSerializers.res>[0]), next, ancestors);
  if (hasToJson(value)) return walk(value.toJSON(), next, ancestors);
  return walkEntries(value, next, ancestors);
}

function walkEntries(value: object, depth: number, ancestors: Set<object>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined) continue;
    out[redactText(key)] = isSensitiveKey(key) ? REDACTED : walk(item, depth, ancestors);
  }
  return out;
}

/**
 * A copy of `value` safe to log: strings (at any depth, keys included) scrubbed by redactText, numbers
 * that are card numbers replaced, values of sensitive keys redacted, errors serialized (message and
 * stack scrubbed, causes included), bytes never dumped. The input is not modified.
 */
export function redact(value: unknown): unknown {
  return walk(value, 0, new Set());
}

/** redact() for a record (log object, child bindings): always returns a plain object. */
export function redactRecord(value: object): Record<string, unknown> {
  const result = redact(value);
  return typeof result === 'object' && result !== null && !Array.isArray(result) ? { ...result } : { value: result };
}

/**
 * The arguments of a pino log call, scrubbed: `(obj, msg, ...args)`, `(msg, ...args)` or `(error, msg?)`.
 * An Error passed first becomes `{ err: <serialized, scrubbed> }`, so pino takes the (scrubbed) message from it.
 */
export function redactLogArguments(args: readonly unknown[]): unknown[] {
  const [first, ...rest] = args;
  if (first instanceof Error) return [{ err: redact(first) }, ...rest.map(redact)];
  return args.map(redact);
}

/**
 * The last pass over a finished JSON line, just before it is written: catches what never went through a
 * log call (child bindings, a message prefix). A line that is not JSON is scrubbed as text.
 */
export function redactLine(line: string): string {
  const newline = line.endsWith('\n') ? '\n' : '';
  const body = newline === '' ? line : line.slice(0, -1);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return `${redactText(body)}${newline}`;
  }
  return `${JSON.stringify(redact(parsed))}${newline}`;
}

/** pino `redact` paths for the usual places (top level and one level down); redactLogArguments covers every depth. */
export const REDACT_PATHS: readonly string[] = [
  'cvv',
  'cvc',
  'cvv2',
  'securityCode',
  'password',
  'secret',
  'clientSecret',
  'client_secret',
  'token',
  'accessToken',
  'access_token',
  'authorization',
]
  .flatMap((key) => [key, `*.${key}`])
  .concat(['headers.authorization', 'headers.cookie', '*.headers.authorization', '*.headers.cookie']);
