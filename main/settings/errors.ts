/** The settings capability's one error type: a code and its params (the settings at fault, the file), its issues per field. */
import { UserError, type ErrorParams } from '../errors';

export type SettingsErrorCode =
  /** A value or a combination of values is not allowed (wrong key prefix, http outside training, a missing host…). */
  | 'invalid_settings'
  /** A change to a setting that IT manages (locked, or set in the managed file). */
  | 'locked'
  /** IT's managed file exists but is not valid JSON or not a valid settings document. */
  | 'managed_file_invalid'
  /** IT's managed file exists but cannot be read (permissions, a folder in its place…). */
  | 'managed_file_unreadable'
  /** The user's settings.json is not valid JSON or holds invalid values. */
  | 'user_file_invalid'
  /** The user's settings.json exists but cannot be read. */
  | 'user_file_unreadable';

/** One problem, tied to a setting name (or to the file when no single setting is at fault). */
export interface SettingsIssue {
  field: string;
  message: string;
}

/**
 * Which refusal of its code it is, for the words IT reads (composition's catalogue): the changes not an object, the
 * changes refused, the settings incomplete for the environment (`environment`), the file unreadable (`errno`), over 1 MB
 * (`bytes`) or not JSON (its issue says why); absent, the settings or the file invalid as the issues say.
 */
export type SettingsProblem = 'not_an_object' | 'changes' | 'incomplete' | 'unreadable' | 'too_large' | 'not_json';

export class SettingsError extends UserError<SettingsErrorCode> {
  override readonly name = 'SettingsError';

  constructor(
    code: SettingsErrorCode,
    readonly issues: readonly SettingsIssue[] = [],
    /** The file at fault, when there is one. */
    readonly file?: string,
    params: ErrorParams & { problem?: SettingsProblem } = {},
  ) {
    // The setting at fault when there is one (the language IT locked…); `settings` names which ones when several are.
    const fields = [...new Set(issues.map((issue) => issue.field))];
    super(code, {
      field: fields.length === 1 ? fields[0] : undefined,
      params: {
        ...params,
        ...(fields.length > 0 ? { settings: fields.join(', ') } : {}),
        ...(file === undefined ? {} : { file }),
      },
    });
  }
}

/** "Header: field: message; field: message". */
export function describeIssues(header: string, issues: readonly SettingsIssue[]): string {
  if (issues.length === 0) return header;
  return `${header}: ${issues.map((issue) => `${issue.field}: ${issue.message}`).join('; ')}`;
}
