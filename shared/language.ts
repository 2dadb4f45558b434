// Shared: the languages the desk speaks; the UI, the settings and the messages to guests use the same list.
import { z } from 'zod';

export const Language = z.enum(['es-MX', 'en-US'], { error: 'must be es-MX or en-US' });
export type Language = z.infer<typeof Language>;
