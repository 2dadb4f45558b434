// Shared: plain, runtime-agnostic definitions used by main, preload and renderer alike (no Node, no DOM).
import { z } from 'zod';

/** Where the app sends payments: a local simulator, the provider's sandbox, or the live service. */
export const Environment = z.enum(['training', 'sandbox', 'production']);
export type Environment = z.infer<typeof Environment>;
