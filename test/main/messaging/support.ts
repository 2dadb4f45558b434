/**
 * Real servers for the messaging tests: an SMTP server (smtp-server) whose mail is parsed back with mailparser, an
 * HTTP server standing in for a webhook gateway (third-party: it cannot run here; Twilio's stand-in is twilio-server.ts),
 * a server that accepts connections and never answers, and a port where nothing listens. Plus the messenger's injected
 * parts: secrets in memory, a recording logger, a clock that only the waits move, and waits that only record.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingHttpHeaders, type Server as HttpServer } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import {
  createMessenger,
  type Messenger,
  type MessengerOptions,
  type MessagingSecretName,
  type SendContext,
} from '../../../main/messaging';
import type { DeliveryResult, SendLinkRequestInput } from '../../../shared/messaging';

const fixture = (name: string): string => readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8');
/** A self-signed certificate for localhost / 127.0.0.1, made for these tests only (not a secret). */
export const TEST_CERT = fixture('localhost-test-cert.pem');
export const TEST_KEY = fixture('localhost-test-key.pem');

export const PAYMENT_ID = `pay_${'ab12'.repeat(8)}`;
/** A bank challenge link with a query string, so escaping in HTML and in the form body is exercised. */
export const LINK = 'https://acs.bank.example/challenge/tok_3f9a1c7e5b2d4086a1c3e5f7b9d1f3a5?lang=es&session=42';
export const LINK_TOKEN = 'tok_3f9a1c7e5b2d4086a1c3e5f7b9d1f3a5';

export function context(overrides: Partial<SendContext['payment']> = {}, hotelName = 'Hotel Casa Azul'): SendContext {
  return {
    operatorId: 'agent.maria',
    hotelName,
    payment: {
      id: PAYMENT_ID,
      amount: 1234.5,
      currency: 'mxn',
      status: 'requires_action',
      brand: 'visa',
      last4: '3220',
      nextActionUrl: LINK,
      ...overrides,
    },
  };
}

// ---------------------------------------------------------------------------
// SMTP

export interface ReceivedMail {
  from: string | undefined;
  to: string[];
  raw: string;
  parsed: ParsedMail;
  user: string | undefined;
  secure: boolean;
}

export interface SmtpHarness {
  port: number;
  mails: ReceivedMail[];
  /** Connections accepted: one per try. */
  connections: number;
  close(): Promise<void>;
}

export async function startSmtp(options: Partial<SMTPServerOptions> = {}): Promise<SmtpHarness> {
  const mails: ReceivedMail[] = [];
  const harness = { port: 0, mails, connections: 0, close: async () => {} };
  const server = new SMTPServer({
    logger: false,
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    onConnect(_session, callback) {
      harness.connections++;
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        simpleParser(raw)
          .then((parsed) => {
            mails.push({
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined,
              to: session.envelope.rcptTo.map((r) => r.address),
              raw,
              parsed,
              user: typeof session.user === 'string' ? session.user : undefined,
              secure: session.secure,
            });
            callback();
          })
          .catch((error: unknown) => callback(error instanceof Error ? error : new Error(String(error))));
      });
    },
    ...options,
  });
  // A client that gives up during TLS (an untrusted certificate) is an error on the server's side: expected here.
  server.on('error', () => {});
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  harness.port = (server.server.address() as AddressInfo).port;
  harness.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return harness;
}

/** An SMTP error reply for smtp-server callbacks. */
export function smtpReply(code: number, text: string): Error {
  return Object.assign(new Error(text), { responseCode: code });
}

// ---------------------------------------------------------------------------
// HTTP (Twilio, webhook gateway)

export interface CapturedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Never answer (the client's timeout must end it). */
  hang?: boolean;
}

export interface HttpHarness {
  origin: string;
  requests: CapturedRequest[];
  /** Answers to POSTs in order; the last one repeats. */
  replies: Reply[];
  /** Answers to GETs (a gateway's status URL) in order; the last one repeats. */
  getReplies: Reply[];
  close(): Promise<void>;
}

export async function startHttp(
  replies: Reply[] = [{ status: 201, body: {} }],
  getReplies: Reply[] = [{ status: 404 }],
): Promise<HttpHarness> {
  const requests: CapturedRequest[] = [];
  const harness: HttpHarness = { origin: '', requests, replies, getReplies, close: async () => {} };
  const counts = { GET: 0, POST: 0 };
  const server: HttpServer = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const get = req.method === 'GET';
      const list = get ? harness.getReplies : harness.replies;
      const n = get ? counts.GET++ : counts.POST++;
      const reply = list[Math.min(n, list.length - 1)] ?? { status: 500 };
      if (reply.hang === true) return;
      const body = reply.body === undefined ? '' : JSON.stringify(reply.body);
      res.writeHead(reply.status, { 'Content-Type': 'application/json', ...reply.headers });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  harness.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  harness.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return harness;
}

/** Accepts TCP connections and never says anything (an SMTP server that hangs before its greeting). */
export async function startSilent(): Promise<{ port: number; connections: () => number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let count = 0;
  const server: NetServer = createNetServer((socket) => {
    count++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A port on 127.0.0.1 where nothing listens (taken, then released). */
export async function closedPort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

// ---------------------------------------------------------------------------
// The messenger with its injected parts

/** The messenger, its send answering a delivery (a `confirm_resend` there fails the test: sendOutcome gets it). */
export type TestMessenger = Omit<Messenger, 'send'> & {
  send(request: SendLinkRequestInput, context: SendContext): Promise<DeliveryResult>;
  sendOutcome: Messenger['send'];
};

export interface Rig {
  messenger: TestMessenger;
  dir: string;
  logs: string[];
  /** The waits between tries of a request. */
  sleeps: number[];
  /** The waits between reads of a followed message's status. */
  polls: number[];
  /** Every status published (onDelivery), in order. */
  deliveries: DeliveryResult[];
  /** The messenger's clock (epoch ms): starts at the real time, moved only by the waits and advance(). */
  clock: () => number;
  advance: (ms: number) => void;
  /** Resolves once nothing is being sent or followed. */
  settled: () => Promise<void>;
  secrets: Partial<Record<MessagingSecretName, string>>;
  secretReads: MessagingSecretName[];
  /** Every byte the audit wrote (the database and its WAL), as text. */
  auditBytes: () => string;
  close: () => Promise<void>;
}

export function makeRig(
  options: Omit<MessengerOptions, 'secrets' | 'dataDir' | 'fetch'> & {
    fetch?: typeof fetch;
    secrets?: Partial<Record<MessagingSecretName, string>>;
  },
): Rig {
  const dir = mkdtempSync(join(tmpdir(), 'messaging-test-'));
  const logs: string[] = [];
  const sleeps: number[] = [];
  const secrets = options.secrets ?? {};
  const secretReads: MessagingSecretName[] = [];
  const polls: number[] = [];
  const deliveries: DeliveryResult[] = [];
  let clock = Date.now();
  const messenger = createMessenger({
    fetch,
    now: () => clock,
    sleep: (ms) => {
      sleeps.push(ms);
      clock += ms;
      return Promise.resolve();
    },
    followSleep: (ms) => {
      polls.push(ms);
      clock += ms;
      return Promise.resolve();
    },
    random: () => 0.5,
    logger: {
      info: (fields, message) => logs.push(`info ${JSON.stringify(fields)} ${message ?? ''}`),
      warn: (fields, message) => logs.push(`warn ${JSON.stringify(fields)} ${message ?? ''}`),
    },
    ...options,
    secrets: {
      read: (name) => {
        secretReads.push(name);
        return Promise.resolve(secrets[name]);
      },
    },
    dataDir: dir,
  });
  messenger.onDelivery((result) => deliveries.push(result));
  const wrapped: TestMessenger = {
    ...messenger,
    sendOutcome: (request, context) => messenger.send(request, context),
    async send(request, context) {
      const outcome = await messenger.send(request, context);
      if (outcome.status === 'confirm_resend') throw new Error('the messenger asked to confirm a re-send');
      return outcome;
    },
  };
  return {
    messenger: wrapped,
    dir,
    logs,
    sleeps,
    polls,
    deliveries,
    clock: () => clock,
    advance: (ms) => {
      clock += ms;
    },
    settled: () => messenger.idle(),
    secrets,
    secretReads,
    auditBytes: () =>
      ['messaging.db', 'messaging.db-wal']
        .map((name) => {
          try {
            return readFileSync(join(dir, name)).toString('latin1');
          } catch {
            return '';
          }
        })
        .join('\n'),
    close: async () => {
      await messenger.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Digit runs of 12 or more (a card number would be one), ignoring the separators a template could add. */
export function longDigitRuns(text: string): string[] {
  return text.match(/\d(?:[ -]?\d){11,}/g) ?? [];
}
