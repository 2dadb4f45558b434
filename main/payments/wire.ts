/**
 * Everything the real service might answer differently from the simulator lives here, in one place
 * (interface-decisions.md): paths, success codes, the error body, the token body.
 */
import { z } from 'zod';

export const PATHS = {
  token: '/oauth2/token',
  methods: '/methods',
  payments: '/payments',
  payment: (id: string) => `/payments/${encodeURIComponent(id)}`,
  confirmation: (id: string) => `/payments/${encodeURIComponent(id)}/confirmation`,
  refunds: (id: string) => `/payments/${encodeURIComponent(id)}/refunds`,
} as const;

/** interface-decisions §3; unknown fields are tolerated. */
export const ErrorBody = z.looseObject({
  error: z.looseObject({
    code: z.string(),
    message: z.string().optional(),
    param: z.string().optional(),
  }),
});

/** interface-decisions §1: `{"error":"invalid_client","error_description":"..."}`. */
export const OAuthErrorBody = z.looseObject({ error: z.string(), error_description: z.string().optional() });

export const TokenBody = z.looseObject({
  access_token: z.string().min(1),
  expires_in: z.number().positive(),
  token_type: z.string().regex(/^bearer$/i),
});

/** Header names as decided (§4, §5). */
export const HEADERS = {
  requestId: 'X-Request-Id',
  idempotencyKey: 'Idempotency-Key',
  replayed: 'Idempotent-Replayed',
  retryAfter: 'Retry-After',
} as const;
