/**
 * A Twilio-shaped server on loopback (Twilio is third-party SaaS: it cannot run here). It checks every request against
 * the request shapes of Twilio's published OpenAPI description (twilio-oai, spec/json/twilio_api_v2010.json, operations
 * CreateMessage, FetchMessage and ListMessage), written below as zod schemas, and answers the way Twilio does: a Message
 * resource (201 queued) that then moves on as it is fetched (sent, delivered, or undelivered/failed with an error code),
 * or an error body { code, message, more_info, status }. A message has a date_sent only once it has left the queue, and
 * ListMessage's DateSent filters on it, as the description says ("Filter by Message sent_date").
 *
 * What happens to a message is scripted per destination, like Twilio's own test numbers: delivered; failed afterwards
 * with an error code; refused at creation (21610, 21408…); rate limited (429 + Retry-After); created and then no answer
 * (the client's timeout); a 500, with or without the message created. A WhatsApp message sent with a free-form Body fails
 * with 63016 afterwards, as Twilio does for a business-initiated message outside a conversation.
 *
 * Every request that breaks the published shapes is answered 400 and recorded in `violations`: tests assert it stays empty.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { SegmentedMessage } from 'sms-segments-calculator';
import { z } from 'zod';

export const ACCOUNT_SID = `AC${'0123456789abcdef'.repeat(2)}`;
export const AUTH_TOKEN = 'twilio-auth-token-9f8e7d6c5b4a';

// ---------------------------------------------------------------------------
// Request shapes, from Twilio's OpenAPI description (api_v2010).

/** "pattern": "^AC[0-9a-fA-F]{32}$" and the like: two upper-case letters, 32 hex digits. */
const sid = (prefix: string) =>
  z.string().regex(new RegExp(`^${prefix}[0-9a-fA-F]{32}$`), `must match ^${prefix}[0-9a-fA-F]{32}$`);
const AccountSid = sid('AC');
const MessageSid = z.string().regex(/^(SM|MM)[0-9a-fA-F]{32}$/, 'must match ^(SM|MM)[0-9a-fA-F]{32}$');

const E164 = /^\+[1-9]\d{1,14}$/;
/** `To`, "format": "phone-number": E.164 for SMS, or a channel address such as whatsapp:+15552229999. */
const ToAddress = z
  .string()
  .refine(
    (value) => E164.test(value) || /^whatsapp:\+[1-9]\d{1,14}$/.test(value),
    'must be an E.164 number or a whatsapp:+E.164 channel address',
  );
/** `From`: an E.164 number, an alphanumeric sender ID, a short code, or a channel address. */
const FromAddress = z
  .string()
  .refine(
    (value) =>
      E164.test(value) ||
      /^whatsapp:\+[1-9]\d{1,14}$/.test(value) ||
      /^\d{5,6}$/.test(value) ||
      (/^[A-Za-z0-9 ]{1,11}$/.test(value) && /[A-Za-z]/.test(value)),
    'must be an E.164 number, an alphanumeric sender ID, a short code or a channel address',
  );
/** Form-encoded booleans and integers, as Twilio's helper libraries send them. */
const FormBoolean = z.enum(['true', 'false']);
const FormInteger = (min: number, max: number) =>
  z
    .string()
    .regex(/^-?\d+$/, 'must be an integer')
    .refine((value) => Number(value) >= min && Number(value) <= max, `must be from ${min} to ${max}`);
const DateTime = z
  .string()
  .refine(
    (value) => /^\d{4}-\d{2}-\d{2}$/.test(value) || !Number.isNaN(Date.parse(value)),
    'must be a date or a date-time',
  );

/** CreateMessageRequest (application/x-www-form-urlencoded); "required": ["To"]. */
export const CreateMessageRequest = z
  .strictObject({
    To: ToAddress,
    StatusCallback: z.url().optional(),
    ApplicationSid: sid('AP').optional(),
    MaxPrice: z
      .string()
      .regex(/^\d+(?:\.\d+)?$/)
      .optional(),
    ProvideFeedback: FormBoolean.optional(),
    Attempt: FormInteger(1, Number.MAX_SAFE_INTEGER).optional(),
    // "Accepted values are integers from 1 to 36000."
    ValidityPeriod: FormInteger(1, 36_000).optional(),
    ForceDelivery: FormBoolean.optional(),
    ContentRetention: z.enum(['retain', 'discard']).optional(),
    AddressRetention: z.enum(['retain', 'obfuscate']).optional(),
    SmartEncoded: FormBoolean.optional(),
    PersistentAction: z.string().optional(),
    TrafficType: z.enum(['free']).optional(),
    ShortenUrls: FormBoolean.optional(),
    ScheduleType: z.enum(['fixed']).optional(),
    SendAt: DateTime.optional(),
    SendAsMms: FormBoolean.optional(),
    // "Key-value pairs of Template variables": a JSON object.
    ContentVariables: z
      .string()
      .refine((value) => {
        try {
          const parsed: unknown = JSON.parse(value);
          return (
            typeof parsed === 'object' &&
            parsed !== null &&
            !Array.isArray(parsed) &&
            Object.values(parsed).every((v) => typeof v === 'string')
          );
        } catch {
          return false;
        }
      }, 'must be a JSON object of strings')
      .optional(),
    RiskCheck: z.enum(['enable', 'disable']).optional(),
    From: FromAddress.optional(),
    FallbackFrom: FromAddress.optional(),
    MessagingServiceSid: sid('MG').optional(),
    // "Can be up to 1,600 characters in length."
    Body: z.string().max(1600).optional(),
    MediaUrl: z.url().optional(),
    ContentSid: sid('HX').optional(),
  })
  .superRefine((form, ctx) => {
    // The descriptions' rules between fields.
    if (form.From === undefined && form.MessagingServiceSid === undefined)
      ctx.addIssue({ code: 'custom', message: 'From or MessagingServiceSid is required' });
    if (form.Body === undefined && form.MediaUrl === undefined && form.ContentSid === undefined)
      ctx.addIssue({ code: 'custom', message: 'Body, MediaUrl or ContentSid is required' });
    if (form.ContentVariables !== undefined && form.ContentSid === undefined)
      ctx.addIssue({ code: 'custom', message: 'ContentVariables needs ContentSid' });
    if (form.ShortenUrls === 'true' && form.MessagingServiceSid === undefined)
      ctx.addIssue({ code: 'custom', message: 'ShortenUrls needs MessagingServiceSid' });
    if (form.From !== undefined && form.To.startsWith('whatsapp:') !== form.From.startsWith('whatsapp:')) {
      ctx.addIssue({ code: 'custom', message: 'To and From must be on the same channel' });
    }
  });
export type CreateMessageRequest = z.infer<typeof CreateMessageRequest>;

/** ListMessage's query parameters. */
export const ListMessageQuery = z.strictObject({
  To: ToAddress.optional(),
  From: FromAddress.optional(),
  DateSent: DateTime.optional(),
  'DateSent<': DateTime.optional(),
  'DateSent>': DateTime.optional(),
  PageSize: FormInteger(1, 1000).optional(),
  Page: FormInteger(0, Number.MAX_SAFE_INTEGER).optional(),
  PageToken: z.string().optional(),
});

// ---------------------------------------------------------------------------
// The server

type TwilioStatus = 'queued' | 'sending' | 'sent' | 'delivered' | 'undelivered' | 'failed' | 'read';

/** What happens to a message to a number. */
export type Script =
  /** queued → sent → delivered (→ read), one step per FetchMessage; without a receipt it stays sent (no handset report). */
  | { kind: 'deliver'; read?: boolean; receipt?: boolean }
  /** queued (→ sent) → undelivered or failed with the error code, one step per FetchMessage. */
  | { kind: 'fail'; errorCode: number; status?: 'undelivered' | 'failed'; viaSent?: boolean }
  /** Refused at creation with the error code (HTTP 400 unless said): nothing is created. */
  | { kind: 'refuse'; errorCode: number; httpStatus?: number }
  /** 429 (20429) with Retry-After, `times` times; then as deliver. */
  | { kind: 'rateLimit'; times: number; retryAfterSeconds: number }
  /**
   * The first POST's answer is lost: the message is created (or not), then the connection hangs (the client's timeout
   * ends it) or is reset. Later POSTs as deliver.
   */
  | { kind: 'lostAnswer'; created: boolean; how: 'hang' | 'reset' }
  /** 500 (20500) `times` times, with the message created or not; then as deliver. */
  | { kind: 'error500'; times: number; creates: boolean }
  /**
   * A gateway in front of Twilio answers 502 or 504 (an HTML page, no Twilio error) `times` times; Twilio creates the
   * message behind it (`creates`) or not, and the gateway does not know which; then as deliver.
   */
  | { kind: 'gateway'; status: 502 | 504; times: number; creates: boolean };

export interface RecordedRequest {
  kind: 'create' | 'fetch' | 'list' | 'other';
  method: string;
  path: string;
  query: Record<string, string>;
  form: Record<string, string>;
  /** The request's Authorization was the account's SID and token. */
  authorized: boolean;
}

export interface TwilioMessage {
  sid: string;
  to: string;
  from: string | null;
  messagingServiceSid: string | null;
  body: string;
  form: CreateMessageRequest;
  steps: { status: TwilioStatus; errorCode?: number }[];
  step: number;
  createdAt: number;
  /** When it left Twilio's queue (its date_sent), or null while it waits there. */
  sentAt: number | null;
  segments: number;
  encoding: string;
}

export interface TwilioServer {
  origin: string;
  requests: RecordedRequest[];
  /** Requests that broke the published shapes (each answered 400). */
  violations: string[];
  /** The messages that exist, in creation order. */
  messages: TwilioMessage[];
  /** What happens to messages to `to` (E.164, without whatsapp:); default: delivered. */
  script(to: string, script: Script): void;
  /** The kinds of request, in order ("create", "list", "fetch"…). */
  sequence(): string[];
  close(): Promise<void>;
}

const rfc2822 = (ms: number): string => new Date(ms).toUTCString().replace('GMT', '+0000');

function parseForm(text: string, violations: string[], what: string): Record<string, string> {
  const params = new URLSearchParams(text);
  const form: Record<string, string> = {};
  for (const [key, value] of params) {
    if (Object.hasOwn(form, key)) violations.push(`${what}: ${key} given twice`);
    form[key] = value;
  }
  return form;
}

const issues = (error: z.ZodError): string =>
  error.issues.map((issue) => `${issue.path.join('.') || '(request)'}: ${issue.message}`).join('; ');

export async function startTwilio(): Promise<TwilioServer> {
  const requests: RecordedRequest[] = [];
  const violations: string[] = [];
  const messages: TwilioMessage[] = [];
  const scripts = new Map<string, Script>();
  const used = new Map<string, number>();
  const sockets = new Set<Socket>();
  const base = `/2010-04-01/Accounts/`;

  function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  }
  const error = (
    res: ServerResponse,
    status: number,
    code: number,
    message: string,
    headers: Record<string, string> = {},
  ): void =>
    json(res, status, { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status }, headers);

  function resource(message: TwilioMessage): Record<string, unknown> {
    const current = message.steps[message.step] ?? { status: 'queued' };
    return {
      account_sid: ACCOUNT_SID,
      api_version: '2010-04-01',
      body: message.body,
      date_created: rfc2822(message.createdAt),
      // "When Twilio sent the message": none while it waits in Twilio's queue (queued, accepted).
      date_sent: message.sentAt === null ? null : rfc2822(message.sentAt),
      date_updated: rfc2822(Date.now()),
      direction: 'outbound-api',
      error_code: current.errorCode ?? null,
      error_message: null,
      from: message.from,
      messaging_service_sid: message.messagingServiceSid,
      num_media: '0',
      num_segments: String(message.segments),
      price: null,
      price_unit: 'USD',
      sid: message.sid,
      status: current.status,
      subresource_uris: { media: `${base}${ACCOUNT_SID}/Messages/${message.sid}/Media.json` },
      to: message.to,
      uri: `${base}${ACCOUNT_SID}/Messages/${message.sid}.json`,
    };
  }

  function create(form: CreateMessageRequest, script: Script): TwilioMessage {
    const whatsapp = form.To.startsWith('whatsapp:');
    let body = form.Body ?? '';
    if (form.ContentSid !== undefined) {
      // The template as WhatsApp shows it, its variables filled in.
      const vars = JSON.parse(form.ContentVariables ?? '{}') as Record<string, string>;
      body = `${vars['1'] ?? ''}: confirm your payment of ${vars['2'] ?? ''} with your bank: ${vars['3'] ?? ''}`;
    }
    const counted = new SegmentedMessage(body, 'auto', form.SmartEncoded === 'true');
    let steps: TwilioMessage['steps'];
    if (whatsapp && form.ContentSid === undefined) {
      // A business-initiated WhatsApp message that is not an approved template: accepted, then failed.
      steps = [{ status: 'queued' }, { status: 'failed', errorCode: 63016 }];
    } else if (script.kind === 'fail') {
      steps = [
        { status: 'queued' },
        ...(script.viaSent === false ? [] : [{ status: 'sent' as const }]),
        { status: script.status ?? 'undelivered', errorCode: script.errorCode },
      ];
    } else if (script.kind === 'deliver' && script.receipt === false) {
      steps = [{ status: 'queued' }, { status: 'sent' }];
    } else {
      steps = [
        { status: 'queued' },
        { status: 'sent' },
        { status: 'delivered' },
        ...(script.kind === 'deliver' && script.read === true ? [{ status: 'read' as const }] : []),
      ];
    }
    const message: TwilioMessage = {
      sid: `SM${randomBytes(16).toString('hex')}`,
      to: form.To,
      from: form.From ?? null,
      messagingServiceSid: form.MessagingServiceSid ?? null,
      body,
      form,
      steps,
      step: 0,
      createdAt: Date.now(),
      sentAt: null,
      segments: counted.segmentsCount,
      encoding: counted.encodingName,
    };
    messages.push(message);
    return message;
  }

  function handle(req: IncomingMessage, res: ServerResponse, text: string): void {
    const url = new URL(req.url ?? '/', 'http://twilio.test');
    const query = Object.fromEntries(url.searchParams);
    const authorized =
      req.headers.authorization === `Basic ${Buffer.from(`${ACCOUNT_SID}:${AUTH_TOKEN}`).toString('base64')}`;
    const record: RecordedRequest = {
      kind: 'other',
      method: req.method ?? '',
      path: url.pathname,
      query,
      form: {},
      authorized,
    };
    requests.push(record);

    const match = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages(?:\/([^/]+))?\.json$/.exec(url.pathname);
    if (!match) {
      violations.push(`${req.method} ${url.pathname}: not a Messages operation`);
      return error(res, 404, 20404, 'The requested resource was not found');
    }
    const [, account = '', messageSid] = match;
    if (!AccountSid.safeParse(account).success)
      violations.push(`AccountSid ${account}: must match ^AC[0-9a-fA-F]{32}$`);
    if (!authorized || account !== ACCOUNT_SID) return error(res, 401, 20003, 'Authenticate');

    if (messageSid === undefined && req.method === 'POST') {
      record.kind = 'create';
      if (req.headers['content-type'] !== 'application/x-www-form-urlencoded')
        violations.push(`CreateMessage: Content-Type ${req.headers['content-type'] ?? '(none)'}`);
      if (url.search !== '') violations.push('CreateMessage: parameters in the query string');
      record.form = parseForm(text, violations, 'CreateMessage');
      const parsed = CreateMessageRequest.safeParse(record.form);
      if (!parsed.success) {
        violations.push(`CreateMessage: ${issues(parsed.error)}`);
        return error(res, 400, 21000, `The request does not match CreateMessageRequest: ${issues(parsed.error)}`);
      }
      const to = parsed.data.To.replace(/^whatsapp:/, '');
      const script = scripts.get(to) ?? { kind: 'deliver' };
      const n = (used.get(to) ?? 0) + 1;
      used.set(to, n);
      if (script.kind === 'refuse')
        return error(res, script.httpStatus ?? 400, script.errorCode, `Refused (error ${script.errorCode})`);
      if (script.kind === 'rateLimit' && n <= script.times)
        return error(res, 429, 20429, 'Too Many Requests', { 'Retry-After': String(script.retryAfterSeconds) });
      if (script.kind === 'error500' && n <= script.times) {
        if (script.creates) create(parsed.data, { kind: 'deliver' });
        return error(res, 500, 20500, 'Internal Server Error');
      }
      if (script.kind === 'gateway' && n <= script.times) {
        if (script.creates) create(parsed.data, { kind: 'deliver' });
        res.writeHead(script.status, { 'Content-Type': 'text/html' });
        res.end(`<html><body><h1>${script.status}</h1></body></html>`);
        return;
      }
      if (script.kind === 'lostAnswer' && n === 1) {
        if (script.created) create(parsed.data, { kind: 'deliver' });
        if (script.how === 'reset') req.socket.destroy();
        return;
      }
      const message = create(parsed.data, script);
      return json(res, 201, resource(message));
    }

    if (req.method !== 'GET') {
      violations.push(`${req.method} ${url.pathname}: not a Messages operation`);
      return error(res, 405, 20004, 'Method not allowed');
    }
    if (text !== '') violations.push(`${messageSid === undefined ? 'ListMessage' : 'FetchMessage'}: a GET with a body`);

    if (messageSid !== undefined) {
      record.kind = 'fetch';
      if (!MessageSid.safeParse(messageSid).success) {
        violations.push(`FetchMessage: Sid ${messageSid} must match ^(SM|MM)[0-9a-fA-F]{32}$`);
        return error(res, 404, 20404, 'The requested resource was not found');
      }
      if (url.search !== '') violations.push('FetchMessage: takes no query parameters');
      const message = messages.find((m) => m.sid === messageSid);
      if (!message) return error(res, 404, 20404, 'The requested resource was not found');
      message.step = Math.min(message.step + 1, message.steps.length - 1);
      if (
        message.sentAt === null &&
        message.steps.slice(0, message.step + 1).some((step) => step.status !== 'queued' && step.status !== 'failed')
      )
        message.sentAt = Date.now();
      return json(res, 200, resource(message));
    }

    record.kind = 'list';
    const parsed = ListMessageQuery.safeParse(query);
    if (!parsed.success) {
      violations.push(`ListMessage: ${issues(parsed.error)}`);
      return error(res, 400, 21000, `The request does not match ListMessage: ${issues(parsed.error)}`);
    }
    const after = parsed.data['DateSent>'];
    const from =
      after === undefined
        ? undefined
        : /^\d{4}-\d{2}-\d{2}$/.test(after)
          ? Date.parse(`${after}T00:00:00Z`)
          : Date.parse(after);
    const pageSize = Number(parsed.data.PageSize ?? '50');
    // DateSent filters on date_sent: a message still in Twilio's queue has none, so it is not in a DateSent> list.
    const found = messages
      .filter(
        (m) =>
          (parsed.data.To === undefined || m.to === parsed.data.To) &&
          (from === undefined || (m.sentAt !== null && m.sentAt >= from)),
      )
      .reverse()
      .slice(0, pageSize);
    const uri = `${url.pathname}${url.search}`;
    return json(res, 200, {
      end: Math.max(0, found.length - 1),
      first_page_uri: uri,
      next_page_uri: null,
      page: 0,
      page_size: pageSize,
      previous_page_uri: null,
      start: 0,
      uri,
      messages: found.map(resource),
    });
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));

  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    violations,
    messages,
    script: (to, script) => {
      scripts.set(to, script);
      used.delete(to);
    },
    sequence: () => requests.map((request) => request.kind),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
