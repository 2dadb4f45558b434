/**
 * What changed at a desk of the center, told to every other desk: the writer sends a PostgreSQL NOTIFY in the transaction
 * of its write (delivered only if it commits), and each desk LISTENs on one dedicated connection, outside the query pool,
 * only while a screen needs it. The payload is small: a kind and ids, never card data. A dropped connection is opened
 * again with backoff, and a `resync` after each LISTEN makes up what was missed meanwhile.
 */
import { Kysely, PostgresDialect, sql, type PostgresPool, type RawBuilder } from 'kysely';
import type pg from 'pg';
import type { Backend } from './store';

/** One channel per kind of record, named once here (a writer and every listener use the same names). */
export const CHANGE_CHANNELS = {
  /** A payment's row or one of its refunds' (payment id and reservation key). */
  payment: 'cpd_payment_changed',
  /** A payment or refund operation begun or answered (its reservation key; its payment for a refund). */
  operation: 'cpd_operation_changed',
  /** A refund request asked for, decided or settled (request id and payment id; the desks it concerns). */
  refundRequest: 'cpd_refund_request_changed',
} as const;
export type ChangeKind = keyof typeof CHANGE_CHANNELS;

/** What a notification says: the desk that wrote it, and ids (each a `V`: a text, or inside a statement a column of its row). */
export type ChangeOf<V> =
  | { kind: 'payment'; deskId: V; paymentId: V; reservationKey?: V | undefined }
  | { kind: 'operation'; deskId: V; operationId: V; reservationKey: V; paymentId?: V | undefined }
  | {
      kind: 'refundRequest';
      deskId: V;
      requestId: V;
      paymentId: V;
      /** The desk where it was asked (told what became of it), and the desk to alert of a late success, when any. */
      askedAt?: V | undefined;
      alertAt?: V | undefined;
    };
export type Change = ChangeOf<string>;

/** Short keys: a NOTIFY payload travels to every listening desk. */
interface WireOf<V> {
  d: V;
  p?: V;
  r?: V;
  o?: V;
  q?: V;
  a?: V;
  l?: V;
}
type Wire = WireOf<string>;

const KINDS = Object.fromEntries(Object.entries(CHANGE_CHANNELS).map(([kind, channel]) => [channel, kind])) as Record<
  string,
  ChangeKind
>;

function toWire<V>(change: ChangeOf<V>): WireOf<V> {
  switch (change.kind) {
    case 'payment':
      return {
        d: change.deskId,
        p: change.paymentId,
        ...(change.reservationKey === undefined ? {} : { r: change.reservationKey }),
      };
    case 'operation':
      return {
        d: change.deskId,
        o: change.operationId,
        r: change.reservationKey,
        ...(change.paymentId === undefined ? {} : { p: change.paymentId }),
      };
    case 'refundRequest':
      return {
        d: change.deskId,
        q: change.requestId,
        p: change.paymentId,
        ...(change.askedAt === undefined ? {} : { a: change.askedAt }),
        ...(change.alertAt === undefined ? {} : { l: change.alertAt }),
      };
  }
}

/** A notification as received; undefined for a channel or payload this version does not know (never thrown at the listener). */
export function parseChange(channel: string, payload: string | undefined): Change | undefined {
  const kind = KINDS[channel];
  if (kind === undefined || payload === undefined) return undefined;
  let wire: Partial<Wire>;
  try {
    wire = JSON.parse(payload) as Partial<Wire>;
  } catch {
    return undefined;
  }
  const text = (value: unknown): string | undefined =>
    typeof value === 'string' && value.length > 0 && value.length <= 200 ? value : undefined;
  const deskId = text(wire.d);
  if (deskId === undefined) return undefined;
  const paymentId = text(wire.p);
  const reservationKey = text(wire.r);
  switch (kind) {
    case 'payment':
      return paymentId === undefined
        ? undefined
        : { kind, deskId, paymentId, ...(reservationKey === undefined ? {} : { reservationKey }) };
    case 'operation': {
      const operationId = text(wire.o);
      if (operationId === undefined || reservationKey === undefined) return undefined;
      return { kind, deskId, operationId, reservationKey, ...(paymentId === undefined ? {} : { paymentId }) };
    }
    case 'refundRequest': {
      const requestId = text(wire.q);
      if (requestId === undefined || paymentId === undefined) return undefined;
      const askedAt = text(wire.a);
      const alertAt = text(wire.l);
      return {
        kind,
        deskId,
        requestId,
        paymentId,
        ...(askedAt === undefined ? {} : { askedAt }),
        ...(alertAt === undefined ? {} : { alertAt }),
      };
    }
  }
}

/** A value of a change told inside the statement that writes it: a text known before, or a column of the written row (`w`). */
export type StatementValue = string | RawBuilder<unknown>;

/**
 * The NOTIFY of a change inside the statement that writes it (a data-modifying WITH named `w`, as the journal's and the
 * refund requests' writes on the center): sent once for each row the write returns, atomically with it, without a
 * transaction of its own. The payload is toWire's, as notifyChange sends it: its values bound, or read from the written
 * row (a null left out).
 */
export function notificationIn(change: ChangeOf<StatementValue>): RawBuilder<unknown> {
  const pairs = Object.entries(toWire(change))
    .filter((entry): entry is [string, StatementValue] => entry[1] !== undefined)
    .map(([key, value]) => sql`${key}::text, ${typeof value === 'string' ? sql`${value}::text` : value}`);
  return sql`pg_notify(${CHANGE_CHANNELS[change.kind]}, json_strip_nulls(json_build_object(${sql.join(pairs)}))::text)`;
}

/**
 * Sends the change on the center, in the transaction of `db` (a Transaction: delivered when it commits, dropped when it
 * rolls back). The embedded files have no other desk to tell: nothing is sent.
 */
export async function notifyChange(
  db: Pick<Kysely<unknown>, 'selectNoFrom'>,
  backend: Backend,
  change: Change,
): Promise<void> {
  if (backend !== 'postgres') return;
  const channel = CHANGE_CHANNELS[change.kind];
  await db
    .selectNoFrom((eb) => eb.fn('pg_notify', [eb.val(channel), eb.val(JSON.stringify(toWire(change)))]).as('notified'))
    .execute();
}

/** Where a center's live feed stands, for the windows: receiving, or opening its connection again. */
export type ListenState = 'live' | 'reconnecting';

export interface ChangeListenerOptions {
  /** A new connection to the center, connected (its own, outside the pool). */
  connect: () => Promise<pg.Client>;
  onChange: (change: Change) => void;
  /** The connection is (again) listening, or lost and being opened again. */
  onState?: (state: ListenState) => void;
  /** LISTEN is in place after a start or a reconnection: whatever changed before it may have been missed, read again. */
  onResync?: () => void;
  /** Something went wrong with the connection (already retried): for the log. */
  onError?: (error: unknown) => void;
  /** Delays between tries to connect again, ms; the last repeats (default 250 ms … 10 s). */
  backoffMs?: readonly number[];
  /** A quiet connection is checked this often (a standby took the address and the socket hangs), ms; default 30 s. */
  heartbeatMs?: number;
}

const DEFAULT_BACKOFF_MS: readonly number[] = [250, 500, 1000, 2000, 5000, 10_000];
export const LISTEN_HEARTBEAT_MS = 30_000;

/** A Kysely over one client (LISTEN and the heartbeat go through the query builder, not strings). */
function kyselyOver(client: pg.Client): Kysely<unknown> {
  const pool: PostgresPool = {
    connect: () => Promise.resolve({ query: client.query.bind(client) as never, release: () => undefined }),
    end: () => Promise.resolve(),
    options: {},
  };
  return new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
}

/**
 * The desk's LISTEN connection: opened at the first `acquire`, closed when the last is released, opened again with backoff
 * while wanted. Never more than one connection.
 */
export class ChangeListener {
  private users = 0;
  private client: pg.Client | undefined;
  /** Bumped at each start and stop: a connection made for an older generation is closed at once. */
  private generation = 0;
  private attempt = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  private state: ListenState | undefined;
  private closed = false;

  constructor(private readonly options: ChangeListenerOptions) {}

  /** Whether the connection is open and listening now. */
  get listening(): boolean {
    return this.state === 'live';
  }

  /** A screen needs the feed: the connection is opened if it is not. Answers the release. */
  acquire(): () => void {
    if (this.closed) return () => undefined;
    this.users += 1;
    if (this.users === 1) this.start();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.users -= 1;
      if (this.users === 0) void this.stop();
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.users = 0;
    await this.stop();
  }

  private start(): void {
    const generation = ++this.generation;
    this.attempt = 0;
    void this.connect(generation);
  }

  private async stop(): Promise<void> {
    this.generation += 1;
    this.clearTimers();
    this.state = undefined;
    const client = this.client;
    this.client = undefined;
    if (client) await client.end().catch(() => undefined);
  }

  private clearTimers(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.retryTimer = undefined;
    this.heartbeat = undefined;
  }

  private setState(state: ListenState): void {
    if (this.state === state) return;
    this.state = state;
    this.options.onState?.(state);
  }

  private async connect(generation: number): Promise<void> {
    let client: pg.Client | undefined;
    try {
      client = await this.options.connect();
      if (generation !== this.generation) {
        await client.end().catch(() => undefined);
        return;
      }
      const connected = client;
      connected.on('notification', (message) => {
        const change = parseChange(message.channel, message.payload);
        if (change !== undefined && generation === this.generation) this.options.onChange(change);
      });
      connected.on('error', (error) => this.lost(generation, connected, error));
      connected.on('end', () => this.lost(generation, connected, undefined));
      const db = kyselyOver(connected);
      for (const channel of Object.values(CHANGE_CHANNELS)) await sql`listen ${sql.id(channel)}`.execute(db);
      if (generation !== this.generation) {
        await connected.end().catch(() => undefined);
        return;
      }
      this.client = connected;
      this.attempt = 0;
      this.heartbeat = setInterval(
        () => void this.beat(generation, connected, db),
        this.options.heartbeatMs ?? LISTEN_HEARTBEAT_MS,
      );
      this.setState('live');
      this.options.onResync?.();
    } catch (error) {
      if (client) await client.end().catch(() => undefined);
      if (generation !== this.generation) return;
      this.options.onError?.(error);
      this.retry(generation);
    }
  }

  /** One query on a quiet connection: a socket that hangs (a standby behind the address) is found and replaced. */
  private async beat(generation: number, client: pg.Client, db: Kysely<unknown>): Promise<void> {
    try {
      await db.selectNoFrom((eb) => eb.val(1).as('alive')).execute();
    } catch (error) {
      this.lost(generation, client, error);
    }
  }

  private lost(generation: number, client: pg.Client, error: unknown): void {
    if (generation !== this.generation || this.client !== client) return;
    this.client = undefined;
    this.clearTimers();
    client.end().catch(() => undefined);
    if (error !== undefined) this.options.onError?.(error);
    this.retry(generation);
  }

  private retry(generation: number): void {
    this.setState('reconnecting');
    const schedule = this.options.backoffMs ?? DEFAULT_BACKOFF_MS;
    const base = schedule[Math.min(this.attempt, schedule.length - 1)] ?? 1000;
    this.attempt += 1;
    // Hundreds of desks lose the center at the same moment: each comes back at its own time.
    const delay = Math.round(base * (0.75 + Math.random() * 0.5));
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (generation === this.generation) void this.connect(generation);
    }, delay);
  }
}
