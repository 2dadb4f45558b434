/** The secret store's one error type: a code to branch on and a sentence for IT; never the secret itself. */
import { UserError } from '../errors';

export type SecretErrorCode =
  /** The OS secure storage (DPAPI, Keychain, a Linux keyring) cannot be used right now. */
  | 'encryption_unavailable'
  /** Linux: no keyring answered, and Chromium fell back to its key built into every copy (as good as plain text). */
  | 'insecure_backend'
  /** The OS refused to encrypt (or the result did not decrypt back). */
  | 'encryption_failed'
  /** The stored secret cannot be decrypted any more (new OS profile, keyring reset) or the file is damaged. */
  | 'needs_reprovisioning'
  /** The secret store file exists but cannot be read (permissions, a folder in its place…). */
  | 'store_unreadable'
  /** An empty or oversized value, or a name the store does not know. */
  | 'invalid_value';

/** Its message names what IT must do: it reaches the agent as it is (who tells IT), and IT at provisioning. */
export class SecretError extends UserError<SecretErrorCode> {
  override readonly name = 'SecretError';

  constructor(code: SecretErrorCode, message: string) {
    super(code, message);
  }
}
