/** App settings: defaults < the user's settings.json < IT's managed (and lockable) file, checked by one zod schema; plain Node, no Electron imports. */
export {
  describeIssues,
  SettingsError,
  type SettingsErrorCode,
  type SettingsIssue,
  type SettingsProblem,
} from './errors';
export {
  DEFAULT_SETTINGS,
  Language,
  POLICY_KEYS,
  SETTING_KEYS,
  SettingKey,
  isPolicyKey,
  type PolicyKey,
  SettingsFile,
  SettingsSchema,
  consistencyIssues,
  type Settings,
} from './schema';
export { USER_SETTINGS_FILE, managedSettingsPath, userSettingsPath } from './paths';
export {
  MAX_SETTINGS_FILE_BYTES,
  ManagedSettingsFile,
  loadSettings,
  type LoadSettingsOptions,
  type LoadedSettings,
  type SettingSource,
} from './load';
export { saveUserSettings, type SettingsChanges } from './save';
export { toServiceSettings } from './service';
export { languagePreference, type LanguagePreference } from './preferences';
export { UpdateChannel, UpdatesSettings } from './schema';
export {
  PRINT_CONFIG_FLAG,
  configReport,
  formatConfigReport,
  parsePrintConfigArgs,
  printConfig,
  type ConfigEntry,
  type ConfigReport,
  type PrintConfigArgs,
  type PrintConfigFormat,
  type PrintConfigResult,
  type SecretPresence,
  type SecretState,
} from './print-config';
export { MANAGED_SCHEMA_PATH, managedSettingsJsonSchema, managedSettingsJsonSchemaText } from './managed-schema';
