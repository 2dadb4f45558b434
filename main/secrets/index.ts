/** Secrets (the client secret, later the messaging ones) encrypted by the OS via an injected safeStorage; plain Node, no Electron imports. */
export { SecretError, type SecretErrorCode } from './errors';
export { unreadableSecrets, type StoredSecrets } from './check';
export {
  EncryptedSecretStore,
  SECRET_NAMES,
  isSecretName,
  type EncryptedSecretStoreOptions,
  type SafeStorageLike,
  type SecretName,
} from './store';
export {
  PROVISION_FLAG,
  SECRET_NAME_FLAG,
  STDIN_MARKER,
  WINDOWS_STDIN_REFUSED,
  parseProvisionArgs,
  provisionSecret,
  provisionSecretFromInput,
  type ProvisionArgs,
  type ProvisionSource,
  type SecretInput,
  type SecretWriter,
  type StdinOptions,
} from './provision';
