/** The simulator's start options (simulator.md), for code and for command-line flags. */
import { parseArgs } from 'node:util';
import { z } from 'zod';

const whole = (min: number) => z.number().int().min(min);

export const SimulatorOptionsSchema = z.strictObject({
  port: whole(0).max(65535).default(0),
  processingDelayMs: whole(0).default(2000),
  refundDelayMs: whole(0).default(3000),
  tokenTtlS: whole(1).default(3600),
  methodTtlS: whole(1).optional(),
  rateLimit: whole(1).optional(),
  latencyMs: whole(0).max(60_000).default(0),
  /** The first tenant's credentials; random when not given. */
  clientId: z.string().min(1).max(200).optional(),
  clientSecret: z.string().min(16).max(200).optional(),
});

export type SimulatorOptions = z.input<typeof SimulatorOptionsSchema>;
export type ResolvedOptions = z.output<typeof SimulatorOptionsSchema>;

const FLAGS = {
  port: 'port',
  'processing-delay-ms': 'processingDelayMs',
  'refund-delay-ms': 'refundDelayMs',
  'token-ttl-s': 'tokenTtlS',
  'method-ttl-s': 'methodTtlS',
  'rate-limit': 'rateLimit',
  'latency-ms': 'latencyMs',
} as const satisfies Record<string, keyof ResolvedOptions>;

/** Reads `--port 0 --latency-ms 20 …`; throws an Error whose message says which flag is wrong. */
export function optionsFromArgs(args: readonly string[]): ResolvedOptions {
  const { values } = parseArgs({
    args: [...args],
    strict: true,
    allowPositionals: false,
    options: Object.fromEntries(Object.keys(FLAGS).map((flag) => [flag, { type: 'string' as const }])),
  });
  const options: Record<string, number> = {};
  for (const [flag, key] of Object.entries(FLAGS)) {
    const raw = values[flag];
    if (typeof raw !== 'string') continue;
    const n = Number(raw);
    if (raw.trim() === '' || !Number.isInteger(n)) throw new Error(`--${flag} needs a whole number, not "${raw}".`);
    options[key] = n;
  }
  const parsed = SimulatorOptionsSchema.safeParse(options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = String(issue?.path[0] ?? '');
    const flag = Object.entries(FLAGS).find(([, k]) => k === key)?.[0] ?? key;
    throw new Error(`--${flag}: ${issue?.message ?? 'invalid value'}`);
  }
  return parsed.data;
}
