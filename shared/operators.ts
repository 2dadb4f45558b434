// Operators as every layer sees them: roles, and the signed-in operator's public view (never a password or hash).
import { z } from 'zod';
import { freeText } from './text';

export const Role = z.enum(['agent', 'supervisor', 'admin']);
export type Role = z.infer<typeof Role>;

/** Free text (shared/text): card data, control and text-direction characters are refused before the id's own rules. */
export const OperatorId = freeText()
  .trim()
  .min(2, 'The operator id needs at least 2 characters.')
  .max(32, 'The operator id can have at most 32 characters.')
  .regex(/^[a-z0-9._-]+$/i, 'The operator id can use letters, digits, dot, dash and underscore.');

/** The audit trail's own actors: main's work (`system`) and calls made before anyone signed in (`anonymous`). */
export const RESERVED_OPERATOR_IDS: readonly string[] = ['system', 'anonymous'];

/**
 * The id of an account being created: an operator id that is not one of the trail's own actors, so that no one's
 * rows can pass for the app's. (Signing in, searching and reading keep OperatorId: an id there only names.)
 */
export const NewOperatorId = OperatorId.refine(
  (id) => !RESERVED_OPERATOR_IDS.includes(id.toLowerCase()),
  'The ids "system" and "anonymous" are kept for the audit trail’s own entries: choose another id.',
);

export const DisplayName = freeText()
  .trim()
  .min(1, 'Enter a name.')
  .max(80, 'The name can have at most 80 characters.');

/** PCI DSS 4.0 (8.3.6): at least 12 characters, letters and digits. */
export const Password = z
  .string()
  .min(12, 'The password needs at least 12 characters.')
  .max(200, 'The password can have at most 200 characters.')
  .refine((p) => /[a-z]/i.test(p) && /\d/.test(p), 'The password needs both letters and digits.');

/** An output: fields it does not name are dropped, never sent. */
export const OperatorView = z.object({
  id: OperatorId,
  displayName: DisplayName,
  role: Role,
  disabled: z.boolean(),
});
export type OperatorView = z.infer<typeof OperatorView>;
