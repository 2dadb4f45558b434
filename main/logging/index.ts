/** Logging: pino to size-rotated files, with card numbers, CVVs, secrets and tokens scrubbed from every call; plain Node, no Electron imports. */
export {
  createLogger,
  DEFAULT_MAX_FILE_SIZE,
  DEFAULT_MAX_FILES,
  type AppLogger,
  type LevelLogger,
  type LoggerOptions,
} from './logger';
export {
  CARD_PLACEHOLDER,
  REDACTED,
  REDACT_PATHS,
  isSensitiveKey,
  redact,
  redactLine,
  redactLogArguments,
  redactRecord,
  redactText,
} from './redact';
