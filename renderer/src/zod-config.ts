// Imported first by main.tsx: the CSP forbids eval, so zod must not even probe for it (its JIT tries
// `new Function`, and the browser reports that as a CSP violation even though zod catches the error).
import { z } from 'zod';

z.config({ jitless: true });
