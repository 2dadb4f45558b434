// What test/bench/center.bench.ts and its workers (center-worker.ts) say to each other over the IPC channel of fork().

/** The parent's first message to a worker: what it runs and where. */
export interface WorkerJob {
  /** The indexes of this worker's desks (0…desks-1 across the workers). */
  desks: number[];
  /** The desks that are supervisors (the others are agents). */
  supervisors: number[];
  /** Every operator's password (agentN, supN). */
  password: string;
  paymentsPerDesk: number;
  /** An agent's mean pause between two steps, in ms. */
  thinkMs: number;
  center: { host: string; port: number; database: string };
  /** Each desk's own login on the center (docs/center/add-desk.sql), by the desk's index. */
  logins: Record<number, { user: string; password: string }>;
  simulator: {
    authUrl: string;
    cdeUrl: string;
    baseUrl: string;
    controlUrl: string;
    clientId: string;
    clientSecret: string;
  };
}

export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'agents-done' }
  | {
      type: 'closed';
      queries: number;
      /** BENCH_DEBUG: statements by their text's first 120 characters. */ byText?: Record<string, number>;
    }
  | { type: 'door'; channel: string; ms: number }
  | { type: 'payment-begun'; operationId: string }
  | { type: 'payment-made'; paymentId: string }
  | { type: 'service-payment'; paymentId: string }
  | { type: 'request-made'; requestId: string; at: number }
  | { type: 'request-seen'; requestId: string; desk: number; at: number }
  | { type: 'request-approved'; requestId: string }
  | { type: 'failure'; desk: number; what: string };
