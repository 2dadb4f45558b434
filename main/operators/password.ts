/** Password hashing: scrypt (node:crypto), a random salt per password, the cost stored with the hash so it can be raised later. */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

export interface ScryptCost {
  /** log2 of N (CPU/memory cost). */
  log2N: number;
  /** Block size. */
  r: number;
  /** Parallelism. */
  p: number;
}

/** N = 2^15, r = 8, p = 1: 32 MiB and about 0.1 s per hash on an office desktop. */
export const DEFAULT_COST: Readonly<ScryptCost> = Object.freeze({ log2N: 15, r: 8, p: 1 });
/** The weakest cost accepted for new hashes. */
export const MIN_COST: Readonly<ScryptCost> = Object.freeze({ log2N: 14, r: 8, p: 1 });

const SALT_BYTES = 16;
const KEY_BYTES = 32;
/**
 * Bounds for a stored hash, so a damaged or tampered file cannot make one verification take minutes or gigabytes (the
 * center's functions hold its hashes to the same: center-sql.ts).
 */
export const STORED_LIMITS = { log2N: [10, 20], r: [1, 32], p: [1, 16], salt: [16, 64], key: [16, 64] } as const;

const PHC = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]+={0,2})\$([A-Za-z0-9+/]+={0,2})$/;

interface ParsedHash {
  cost: ScryptCost;
  salt: Buffer;
  key: Buffer;
}

const within = (value: number, [low, high]: readonly [number, number]): boolean => value >= low && value <= high;

/** Checks a configured cost: whole numbers, not below MIN_COST, not absurdly high. */
export function checkCost(cost: ScryptCost): ScryptCost {
  const ok =
    Number.isInteger(cost.log2N) &&
    Number.isInteger(cost.r) &&
    Number.isInteger(cost.p) &&
    cost.log2N >= MIN_COST.log2N &&
    cost.r >= MIN_COST.r &&
    cost.p >= MIN_COST.p &&
    within(cost.log2N, STORED_LIMITS.log2N) &&
    within(cost.r, STORED_LIMITS.r) &&
    within(cost.p, STORED_LIMITS.p);
  if (!ok) {
    throw new RangeError(
      `The scrypt cost must be whole numbers with 2^${MIN_COST.log2N} <= N <= 2^${STORED_LIMITS.log2N[1]}, ` +
        `${MIN_COST.r} <= r <= ${STORED_LIMITS.r[1]}, ${MIN_COST.p} <= p <= ${STORED_LIMITS.p[1]}.`,
    );
  }
  return { log2N: cost.log2N, r: cost.r, p: cost.p };
}

function derive(password: string, salt: Buffer, cost: ScryptCost, keyBytes: number): Promise<Buffer> {
  const N = 2 ** cost.log2N;
  // scrypt needs 128 * N * r * p bytes for its work; room for twice that.
  const options: ScryptOptions = { N, r: cost.r, p: cost.p, maxmem: 256 * N * cost.r * cost.p };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, keyBytes, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** `$scrypt$ln=15,r=8,p=1$<salt, base64>$<key, base64>` */
export async function hashPassword(password: string, cost: ScryptCost = DEFAULT_COST): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, cost, KEY_BYTES);
  return `$scrypt$ln=${cost.log2N},r=${cost.r},p=${cost.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

function parse(stored: string): ParsedHash | undefined {
  const m = PHC.exec(stored);
  if (!m) return undefined;
  const [, ln, r, p, salt64, key64] = m;
  const cost = { log2N: Number(ln), r: Number(r), p: Number(p) };
  const salt = Buffer.from(salt64 ?? '', 'base64');
  const key = Buffer.from(key64 ?? '', 'base64');
  const ok =
    within(cost.log2N, STORED_LIMITS.log2N) &&
    within(cost.r, STORED_LIMITS.r) &&
    within(cost.p, STORED_LIMITS.p) &&
    within(salt.length, STORED_LIMITS.salt) &&
    within(key.length, STORED_LIMITS.key);
  return ok ? { cost, salt, key } : undefined;
}

/** The cost a stored hash was made with, or undefined when it is not one of ours. */
export function costOf(stored: string): ScryptCost | undefined {
  return parse(stored)?.cost;
}

/** True when the stored hash is weaker than `cost` (or unreadable): re-hash it at the next successful sign-in. */
export function needsRehash(stored: string, cost: ScryptCost): boolean {
  const parsed = parse(stored);
  if (!parsed) return true;
  const c = parsed.cost;
  return (
    c.log2N < cost.log2N ||
    c.r < cost.r ||
    c.p < cost.p ||
    parsed.key.length < KEY_BYTES ||
    parsed.salt.length < SALT_BYTES
  );
}

/**
 * Constant-time comparison of the derived key. An unreadable stored hash never matches, but the
 * work is still done (against `fallback`) so that the time taken does not tell.
 */
export async function verifyPassword(password: string, stored: string, fallback: string): Promise<boolean> {
  const parsed = parse(stored);
  const target = parsed ?? parse(fallback);
  if (!target) throw new Error('verifyPassword: the fallback hash is not a valid scrypt hash');
  const key = await derive(password, target.salt, target.cost, target.key.length);
  return timingSafeEqual(key, target.key) && parsed !== undefined;
}

const PARAMS = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]+={0,2})\$(\d{1,2})$/;

/**
 * The key of `password` under a stored hash's cost and salt, as the center answers them without the key
 * (`$scrypt$ln=15,r=8,p=1$<salt, base64>$<key bytes>`), base64; `weaker`: that hash is weaker than `cost` (re-hash it).
 * Parameters outside the bounds of a stored hash are refused (a center's answer cannot make it take minutes).
 */
export async function deriveForParams(
  password: string,
  params: string,
  cost: ScryptCost,
): Promise<{ key: string; weaker: boolean }> {
  const m = PARAMS.exec(params);
  if (!m) throw new Error('deriveForParams: the center answered no scrypt parameters');
  const [, ln, r, p, salt64, keyBytes] = m;
  const stored = { log2N: Number(ln), r: Number(r), p: Number(p) };
  const salt = Buffer.from(salt64 ?? '', 'base64');
  const length = Number(keyBytes);
  const ok =
    within(stored.log2N, STORED_LIMITS.log2N) &&
    within(stored.r, STORED_LIMITS.r) &&
    within(stored.p, STORED_LIMITS.p) &&
    within(salt.length, STORED_LIMITS.salt) &&
    within(length, STORED_LIMITS.key);
  if (!ok) throw new Error('deriveForParams: the scrypt parameters are out of bounds');
  const key = await derive(password, salt, stored, length);
  const weaker =
    stored.log2N < cost.log2N ||
    stored.r < cost.r ||
    stored.p < cost.p ||
    length < KEY_BYTES ||
    salt.length < SALT_BYTES;
  return { key: key.toString('base64'), weaker };
}

/** A cost as the center's functions take it: `ln=15,r=8,p=1`. */
export const costParams = (cost: ScryptCost): string => `ln=${cost.log2N},r=${cost.r},p=${cost.p}`;
