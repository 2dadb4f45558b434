/** The secret store's one error type: a code and its params (the secret's name, the store's file), never the secret itself. */
import type { IpcError } from '../../shared/ipc';
import { CodedRefusal } from '../errors';

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

/**
 * What IT must do is worded from the code and params by composition (the start-up dialog, the command-line modes); the
 * renderer words it for the agent, who tells IT.
 */
export class SecretError extends CodedRefusal<SecretErrorCode> {
  override readonly name = 'SecretError';

  /**
   * Only the code crosses the door: the params (the store's path on this machine, the OS's errno, the secret's name) are
   * for IT's words in composition, and the agent's screen says to call IT from the code alone.
   */
  override toIpcError(): IpcError {
    return { code: this.code };
  }
}
