// The simulator's routes: the spec's operations, each under its own host prefix, and the one a request is for.

/** The operations of the spec, named as simulator.md names them for faults. */
export const OPERATIONS = [
  'POST /oauth2/token',
  'POST /methods',
  'POST /payments',
  'GET /payments/{id}',
  'PATCH /payments/{id}',
  'POST /payments/{id}/confirmation',
  'POST /payments/{id}/refunds',
] as const;
export type Operation = (typeof OPERATIONS)[number];

export const PREFIXES = {
  auth: '/auth',
  cde: '/cde',
  api: '/api',
  control: '/_sandbox',
  challenge: '/challenge',
} as const;
export const IDEMPOTENT: ReadonlySet<Operation> = new Set([
  'POST /methods',
  'POST /payments',
  'POST /payments/{id}/refunds',
]);

export interface Route {
  operation: Operation;
  method: string;
  prefix: string;
  segments: string[];
}

const ROUTES: Route[] = OPERATIONS.map((operation) => {
  const [method = '', template = ''] = operation.split(' ');
  const prefix = template === '/oauth2/token' ? PREFIXES.auth : template === '/methods' ? PREFIXES.cde : PREFIXES.api;
  return { operation, method, prefix, segments: template.split('/') };
});

/** The route for a request, with its `{id}`; each operation only under its own host prefix. */
export function matchRoute(method: string, path: string): { route: Route; id: string } | undefined {
  for (const route of ROUTES) {
    if (route.method !== method || !path.startsWith(route.prefix + '/')) continue;
    const got = path.slice(route.prefix.length).split('/');
    if (got.length !== route.segments.length) continue;
    let id = '';
    const fits = route.segments.every((seg, i) => {
      const part = got[i] ?? '';
      if (seg !== '{id}') return seg === part;
      id = part;
      return part !== '';
    });
    if (fits) return { route, id };
  }
  return undefined;
}
