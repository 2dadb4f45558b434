/** At start: each stored secret is decrypted once, so one the OS can no longer open is said at once, not in mid-call. */
import { SecretError } from './errors';
import { SECRET_NAMES, type SecretName } from './store';

export interface StoredSecrets {
  has(name: SecretName): Promise<boolean>;
  read(name: SecretName): Promise<string | undefined>;
}

/**
 * The secret-store errors of the stored secrets (undecryptable, no keyring, unreadable store), one per distinct refusal
 * (code and params); empty when every stored secret can be read. Secrets never provisioned are not errors here: the feature
 * that needs one says so when it is used. The values read are dropped at once.
 */
export async function unreadableSecrets(
  store: StoredSecrets,
  names: readonly SecretName[] = SECRET_NAMES,
): Promise<SecretError[]> {
  const problems = new Map<string, SecretError>();
  for (const name of names) {
    try {
      if (await store.has(name)) await store.read(name);
    } catch (error) {
      if (!(error instanceof SecretError)) throw error;
      problems.set(error.message, error);
    }
  }
  return [...problems.values()];
}
