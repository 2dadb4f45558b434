/** The partner's reservation system over REST: configurable paths and field mapping, a secret auth header, a timeout, and errors an agent understands. */
import type { z } from 'zod';
import { toCents } from '../../shared/payments';
import {
  BalanceDue,
  GuestEmail,
  MAX_SEARCH_RESULTS,
  ReservationView,
  guestLanguageOf,
  toE164,
  type ReservationQuery,
} from '../../shared/reservations';
import { findCardData } from '../../shared/text';
import { DEFAULT_FIELD_MAPPING, RESERVATION_FIELDS, RestSourceConfig, type ReservationField } from './config';
import { SecretError } from '../secrets';
import { ReservationError } from './errors';
import { matchRank, queryKeys } from './match';
import { checkConfirmationNumber, checkQuery, closedError, type ReservationSource } from './source';

/** The value of the auth header (e.g. "Bearer abc…" or an API key), read from the secret store at each request. */
export type SecretGetter = () => string | undefined | Promise<string | undefined>;

export interface RestSourceOptions {
  /** The app's one fetch (Electron's net.fetch in the app: the OS proxy, PAC and certificates): never the global one. */
  fetch: typeof fetch;
  /** Required when the config names an authHeader. */
  secret?: SecretGetter;
}

/** Answers larger than this are refused (a search returns at most a few dozen reservations). */
export const MAX_RESPONSE_BYTES = 2 * 1024 * 1024;
/** Records of one search answer that are read; the rest are ignored. */
const MAX_RECORDS_READ = 200;

const TELL_IT_MAPPING = 'Tell IT to check the reservation system settings (field mapping).';

const FIELD_LABEL: Record<ReservationField, string> = {
  confirmationNumber: 'the confirmation number',
  guestName: "the guest's name",
  checkIn: 'the check-in date',
  checkOut: 'the check-out date',
  hotelName: 'the hotel name',
  balanceDue: 'the balance due',
  currency: 'the currency',
  guestPhone: "the guest's phone",
  guestEmail: "the guest's e-mail",
  guestLanguage: "the guest's language",
};

/** The view's fields that come from one field of the partner's record under another name. */
const SOURCE_FIELD: Partial<Record<string, ReservationField>> = {
  balanceDueCents: 'balanceDue',
  guestLanguage: 'guestLanguage',
  guestLanguageFrom: 'guestLanguage',
};

/** Follows "a.b.0.c" through objects and lists; undefined when any step is missing. */
export function readPath(value: unknown, path: string): unknown {
  let current = value;
  for (const step of path.split('.')) {
    if (Array.isArray(current) && /^\d+$/.test(step)) current = current[Number(step)];
    else if (
      current !== null &&
      typeof current === 'object' &&
      !Array.isArray(current) &&
      Object.hasOwn(current, step)
    ) {
      current = (current as Record<string, unknown>)[step];
    } else return undefined;
  }
  return current;
}

const badResponse = (detail: string, status?: number): ReservationError =>
  new ReservationError(
    'bad_response',
    `The reservation system sent an answer the app cannot read: ${detail}. ${TELL_IT_MAPPING}`,
    status,
  );

/** RFC 9110 field-value characters: no CR, LF or NUL, so a secret can never split a header. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]+$/;

const NOT_FOUND = Symbol('not found');

export class RestReservationSource implements ReservationSource {
  readonly kind = 'rest' as const;
  readonly config: RestSourceConfig;
  private readonly mapping: Record<ReservationField, string>;
  private readonly secret: SecretGetter | undefined;
  private readonly fetch: typeof fetch;
  private readonly closing = new AbortController();

  /** Throws `configuration` when the config does not hold together (the field named, never a value). */
  constructor(config: z.input<typeof RestSourceConfig>, options: RestSourceOptions) {
    const parsed = RestSourceConfig.safeParse(config);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path.map(String).join('.') ?? '';
      throw new ReservationError(
        'configuration',
        `The reservation system settings are not valid (${field === '' ? 'reservations' : field} ${issue?.message ?? 'is not valid'}). Tell IT.`,
      );
    }
    this.config = parsed.data;
    this.mapping = { ...DEFAULT_FIELD_MAPPING, ...stripUndefined(parsed.data.mapping) };
    this.secret = options.secret;
    this.fetch = options.fetch;
  }

  async search(query: ReservationQuery): Promise<ReservationView[]> {
    const { text } = checkQuery(query);
    const body = await this.request(this.config.searchPath, { [this.config.queryParam]: text }, false);
    const list = this.config.resultsPath === undefined ? body : readPath(body, this.config.resultsPath);
    if (!Array.isArray(list)) {
      throw badResponse(
        this.config.resultsPath === undefined
          ? 'the search answer is not a list of reservations'
          : `the list of reservations (their field "${this.config.resultsPath}") is missing`,
      );
    }
    const views: ReservationView[] = [];
    let firstProblem: ReservationError | undefined;
    for (const record of list.slice(0, MAX_RECORDS_READ)) {
      try {
        views.push(this.toView(record));
      } catch (error) {
        if (!(error instanceof ReservationError)) throw error;
        firstProblem ??= error;
      }
    }
    // One unreadable record is skipped; a mapping that fits none of them is IT's to fix, so it is said.
    if (views.length === 0 && firstProblem !== undefined) throw firstProblem;

    const keys = queryKeys(text);
    const unique = [...new Map(views.map((view) => [view.confirmationNumber.toLowerCase(), view])).values()];
    return unique
      .map((view, index) => ({ view, index, rank: matchRank(view, keys) ?? Number.MAX_SAFE_INTEGER }))
      .sort((a, b) => a.rank - b.rank || a.index - b.index)
      .slice(0, MAX_SEARCH_RESULTS)
      .map(({ view }) => view);
  }

  async get(confirmationNumber: string): Promise<ReservationView | undefined> {
    const id = checkConfirmationNumber(confirmationNumber);
    const body = await this.request(this.config.getPath.replace('{id}', encodeURIComponent(id)), undefined, true);
    if (body === NOT_FOUND) return undefined;
    const record = this.config.recordPath === undefined ? body : readPath(body, this.config.recordPath);
    if (record === undefined || record === null) return undefined;
    const view = this.toView(record);
    if (view.confirmationNumber.toLowerCase() !== id.toLowerCase()) {
      throw badResponse('it sent a different reservation than the one asked for');
    }
    return view;
  }

  close(): Promise<void> {
    this.closing.abort();
    return Promise.resolve();
  }

  /** One GET; the parsed JSON body, or NOT_FOUND for a 404 when `notFoundIsEmpty`. */
  private async request(
    path: string,
    params: Record<string, string> | undefined,
    notFoundIsEmpty: boolean,
  ): Promise<unknown> {
    if (this.closing.signal.aborted) throw closedError();
    const url = new URL(this.config.baseUrl.replace(/\/+$/, '') + path);
    for (const [name, value] of Object.entries(params ?? {})) url.searchParams.set(name, value);

    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.config.authHeader !== undefined) headers[this.config.authHeader] = await this.secretValue();

    const timeout = AbortSignal.timeout(this.config.timeoutMs);
    const signal = AbortSignal.any([timeout, this.closing.signal]);
    let response: Response;
    try {
      // Redirects are not followed: a redirect would carry the access key to another address.
      response = await this.fetch(url, { method: 'GET', headers, signal, redirect: 'manual' });
    } catch {
      throw this.transportError(timeout);
    }

    const status = response.status;
    if (status >= 200 && status < 300) {
      const text = await this.readBody(response, timeout);
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw badResponse('it is not JSON', status);
      }
    }
    await response.body?.cancel().catch(() => undefined);
    if (status === 404 && notFoundIsEmpty) return NOT_FOUND;
    if (status === 401 || status === 403) {
      throw new ReservationError('unauthorized', { status });
    }
    if (status === 429) {
      throw new ReservationError('unavailable', { status });
    }
    if (status >= 500) {
      throw new ReservationError('unavailable', { status });
    }
    if (status >= 300 && status < 400) throw badResponse(`it answered with a redirect (HTTP ${status})`, status);
    if (status === 404) {
      throw new ReservationError('rejected', { status });
    }
    throw new ReservationError('rejected', { status });
  }

  private async secretValue(): Promise<string> {
    const missing = new ReservationError(
      'configuration',
      'The access key for the reservation system is not set up on this computer. Tell IT.',
    );
    if (this.secret === undefined) throw missing;
    let value: string | undefined;
    try {
      value = await this.secret();
    } catch (error) {
      // The secret store's own errors say what IT must do and never quote the key; anything else stays here.
      if (error instanceof SecretError) throw error;
      throw missing;
    }
    if (value === undefined || value.trim() === '') throw missing;
    if (!HEADER_VALUE.test(value)) {
      throw new ReservationError(
        'configuration',
        'The access key for the reservation system has characters that cannot be sent (a line break?). Tell IT to set it again.',
      );
    }
    return value;
  }

  private transportError(timeout: AbortSignal): ReservationError {
    if (this.closing.signal.aborted) return closedError();
    if (timeout.aborted) {
      const seconds = Math.round(this.config.timeoutMs / 1000);
      return new ReservationError('timeout', { params: { seconds } });
    }
    return new ReservationError('unreachable');
  }

  /** The body as text, at most MAX_RESPONSE_BYTES, within the same timeout as the request. */
  private async readBody(response: Response, timeout: AbortSignal): Promise<string> {
    const declared = Number(response.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > MAX_RESPONSE_BYTES) {
      await response.body?.cancel().catch(() => undefined);
      throw badResponse('it is too large', response.status);
    }
    if (response.body === null) return '';
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > MAX_RESPONSE_BYTES) {
          await reader.cancel().catch(() => undefined);
          throw badResponse('it is too large', response.status);
        }
        chunks.push(value);
      }
    } catch (error) {
      if (error instanceof ReservationError) throw error;
      throw this.transportError(timeout);
    }
    return new TextDecoder().decode(Buffer.concat(chunks));
  }

  /** One partner record as our view: values converted where the partner's form differs, then the shared schema. */
  private toView(record: unknown): ReservationView {
    if (record === null || typeof record !== 'object' || Array.isArray(record))
      throw badResponse('a reservation is not an object');
    const raw = Object.fromEntries(
      RESERVATION_FIELDS.map((field) => [field, readPath(record, this.mapping[field])]),
    ) as Record<ReservationField, unknown>;
    this.refuseCardData(raw);

    const candidate: Record<string, unknown> = {
      confirmationNumber:
        typeof raw.confirmationNumber === 'number' ? String(raw.confirmationNumber) : raw.confirmationNumber,
      guestName: raw.guestName,
      checkIn: datePart(raw.checkIn),
      checkOut: datePart(raw.checkOut),
      hotelName: raw.hotelName,
      currency: typeof raw.currency === 'string' ? raw.currency.trim().toLowerCase() : raw.currency,
    };
    // The balance is checked as the partner writes it (major units, two decimals at most) and kept in cents.
    const balance = BalanceDue.safeParse(this.amount(raw.balanceDue));
    candidate.balanceDueCents = balance.success ? toCents(balance.data) : undefined;
    // Contact details the partner has in a form we cannot use are left out: the agent asks the guest instead.
    const phone = typeof raw.guestPhone === 'string' ? toE164(raw.guestPhone) : undefined;
    if (phone !== undefined) candidate.guestPhone = phone;
    const email = typeof raw.guestEmail === 'string' ? GuestEmail.safeParse(raw.guestEmail.trim()) : undefined;
    if (email?.success === true) candidate.guestEmail = email.data;
    // A language the app does not speak (or none) leaves it to the phone's country.
    Object.assign(
      candidate,
      guestLanguageOf({
        language: typeof raw.guestLanguage === 'string' ? raw.guestLanguage : undefined,
        guestPhone: phone,
      }),
    );

    const parsed = ReservationView.safeParse(candidate);
    if (parsed.success) return parsed.data;
    const path = parsed.error.issues[0]?.path[0];
    const field = typeof path === 'string' ? (SOURCE_FIELD[path] ?? (path as ReservationField)) : undefined;
    if (field === undefined || !(field in FIELD_LABEL))
      throw badResponse('a reservation does not fit the field mapping');
    const missing = raw[field] === undefined || raw[field] === null;
    throw badResponse(
      `${FIELD_LABEL[field]} (their field "${this.mapping[field]}") is ${missing ? 'missing' : 'not in a form the app understands'}`,
    );
  }

  /** A reservation holding card data (the detector every free-text field uses) is never shown: its field is named, never its value. */
  private refuseCardData(raw: Record<ReservationField, unknown>): void {
    for (const field of RESERVATION_FIELDS) {
      const value = raw[field];
      if (typeof value !== 'string' && typeof value !== 'number') continue;
      const found = findCardData(String(value));
      if (found.length === 0) continue;
      const where = `${FIELD_LABEL[field]} (their field "${this.mapping[field]}")`;
      throw new ReservationError(
        'bad_response',
        found.some((match) => match.kind === 'card_number')
          ? `The reservation system sent a reservation in which ${where} looks like a card number: it is not shown. Tell IT: card numbers must never be kept in reservations.`
          : `The reservation system sent a reservation in which ${where} looks like a card’s security code: it is not shown. Tell IT: card data must never be kept in reservations.`,
      );
    }
  }

  private amount(value: unknown): unknown {
    let amount = value;
    if (typeof amount === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(amount)) amount = Number(amount);
    if (typeof amount !== 'number' || !this.config.amountsInMinorUnits) return amount;
    return Number.isInteger(amount) ? amount / 100 : Number.NaN;
  }
}

/** "2026-03-14" or the date of "2026-03-14T15:00:00-06:00" (the hotel's day, as written). */
function datePart(value: unknown): unknown {
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}(T|$)/.test(value.trim()) ? value.trim().slice(0, 10) : value;
}

function stripUndefined<T extends object>(object: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as {
    [K in keyof T]: Exclude<T[K], undefined>;
  };
}
