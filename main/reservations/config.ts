/** Where reservations come from: the built-in store (default) or the partner's REST system — checked before anything is opened or sent. */
import { z } from 'zod';
/**
 * Our fields, each read from a dotted path in the partner's JSON ("guest.name", "stay.rooms.0.rate"). `balanceDue` is
 * read as the partner writes it (major units, or cents with `amountsInMinorUnits`) and becomes the view's
 * `balanceDueCents`; `guestLanguage` is the reservation's own language ("es", "en-US", "Spanish"…), optional.
 */
export const RESERVATION_FIELDS = [
  'confirmationNumber',
  'guestName',
  'checkIn',
  'checkOut',
  'hotelName',
  'balanceDue',
  'currency',
  'guestPhone',
  'guestEmail',
  'guestLanguage',
] as const;
export type ReservationField = (typeof RESERVATION_FIELDS)[number];

/** Unless mapped otherwise, each field is read from the property of the same name. */
export const DEFAULT_FIELD_MAPPING: Readonly<Record<ReservationField, string>> = Object.fromEntries(
  RESERVATION_FIELDS.map((field) => [field, field]),
) as Record<ReservationField, string>;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

const BaseUrl = z
  .url({ protocol: /^https?$/, error: (issue) => (issue.input === undefined ? 'is required' : 'must be an https URL') })
  .superRefine((value, ctx) => {
    const url = new URL(value);
    if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname)) {
      ctx.addIssue({ code: 'custom', message: 'must use https (http is allowed only for localhost)' });
    }
    if (url.username !== '' || url.password !== '') {
      ctx.addIssue({
        code: 'custom',
        message:
          'must not contain a user name or password: the access key is kept in the secret store and sent in the header named by authHeader',
      });
    }
    if (url.search !== '' || url.hash !== '')
      ctx.addIssue({ code: 'custom', message: 'must not contain a ?query or #fragment' });
  });

const PATH_CHARS = /^\/[A-Za-z0-9\-._~!$&'()*+,;=:@/%{}]*$/;
const RequestPath = z
  .string()
  .max(500, 'must have at most 500 characters')
  .regex(PATH_CHARS, 'must be a path that starts with / (no ?query)');

/** A path inside the partner's JSON: names (or list positions) separated by dots. */
export const DottedPath = z
  .string()
  .max(200, 'must have at most 200 characters')
  .regex(/^[^.\s]+(\.[^.\s]+)*$/, 'must be names separated by dots, for example guest.fullName');

/** An HTTP header name (RFC 9110 token). */
const HeaderName = z
  .string()
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/, 'must be an HTTP header name, for example Authorization or X-Api-Key');

export const MIN_TIMEOUT_MS = 1_000;
export const MAX_TIMEOUT_MS = 60_000;
export const DEFAULT_TIMEOUT_MS = 10_000;

export const BuiltinSourceConfig = z.strictObject({ kind: z.literal('builtin') });

export const RestSourceConfig = z.strictObject({
  kind: z.literal('rest'),
  /** https://pms.example.com/api/v2 — the paths below are appended to it. */
  baseUrl: BaseUrl,
  /** GET {baseUrl}{searchPath}?{queryParam}=<text>. */
  searchPath: RequestPath.default('/reservations'),
  queryParam: z
    .string()
    .regex(/^[A-Za-z0-9_.\-[\]]{1,50}$/, 'must be a query parameter name, for example q')
    .default('q'),
  /** GET {baseUrl}{getPath} with {id} replaced by the URL-encoded confirmation number; 404 means "no such reservation". */
  getPath: RequestPath.refine(
    (path) => path.split('{id}').length === 2,
    'must contain {id} once, for example /reservations/{id}',
  ).default('/reservations/{id}'),
  /** Where the list is in the search answer ("data.items"); absent: the answer is the list. */
  resultsPath: DottedPath.optional(),
  /** Where the reservation is in the get answer ("data"); absent: the answer is the reservation. */
  recordPath: DottedPath.optional(),
  /** The header that carries the access key (its value is the secret, sent as is); absent: no key is sent. */
  authHeader: HeaderName.refine(
    (name) => !/^(host|content-length|connection|transfer-encoding|accept)$/i.test(name),
    'cannot be a header the app sets itself',
  ).optional(),
  timeoutMs: z
    .int({ error: `must be a whole number of milliseconds from ${MIN_TIMEOUT_MS} to ${MAX_TIMEOUT_MS}` })
    .min(MIN_TIMEOUT_MS, `must be at least ${MIN_TIMEOUT_MS} ms`)
    .max(MAX_TIMEOUT_MS, `must be at most ${MAX_TIMEOUT_MS} ms`)
    .default(DEFAULT_TIMEOUT_MS),
  /** true when the partner sends balances in cents (124550 for 1,245.50). */
  amountsInMinorUnits: z.boolean().default(false),
  /** Our field → their dotted path; fields not named keep DEFAULT_FIELD_MAPPING. */
  mapping: z
    .strictObject(
      Object.fromEntries(RESERVATION_FIELDS.map((field) => [field, DottedPath.optional()])) as Record<
        ReservationField,
        z.ZodOptional<typeof DottedPath>
      >,
      {
        error: (issue) =>
          issue.code === 'unrecognized_keys'
            ? `cannot map ${issue.keys.map((key) => `"${key}"`).join(', ')}: the fields are ${RESERVATION_FIELDS.join(', ')}`
            : undefined,
      },
    )
    .default({}),
});
export type RestSourceConfig = z.output<typeof RestSourceConfig>;

/** The `reservations` setting: absent means the built-in store. */
export const ReservationSourceConfig = z
  .discriminatedUnion('kind', [BuiltinSourceConfig, RestSourceConfig], { error: 'must be "builtin" or "rest"' })
  .default({ kind: 'builtin' });
export type ReservationSourceConfig = z.output<typeof ReservationSourceConfig>;
