/**
 * What IT reads outside the app (the command-line modes, the start-up failure dialog), worded in English from a refusal's
 * code and params: the capabilities write no sentence for it. An error this catalogue does not word says its own message.
 */
import { DESK_FILE, DeskIdentityError } from '../center/desk-id';
import { DeskCredentialError, DeskRegistryError } from '../center/registry';
import type { ErrorParams } from '../errors';
import { PROVISION_FLAG, SecretError } from '../secrets';
import { describeIssues, SettingsError } from '../settings';

type Words = (params: ErrorParams) => string;

const text = (params: ErrorParams, key: string): string => String(params[key] ?? '');

const NOTHING_STORED = 'nothing was stored.';
const PROVISION_AGAIN = 'IT must provision the secret again on this computer (--provision-secret).';
const INSTALL_A_KEYRING =
  'IT must install a keyring such as gnome-keyring (libsecret) or KWallet, make sure it runs and is unlocked ' +
  'in the desktop session (or start the app with --password-store=gnome-libsecret or --password-store=kwallet5), then try again.';

/** Where provisioning read the secret from: a file, or standard input. */
const source = (params: ErrorParams): string =>
  params['source'] === 'stdin' ? 'Standard input' : `The file ${text(params, 'file')}`;

const SECRETS: Readonly<Record<string, Words>> = {
  encryption_unavailable: (params) => {
    if (params['reason'] === 'keyring_locked')
      return (
        `The operating system's secure storage cannot open the stored ${text(params, 'secret')} right now (its keychain or keyring is not unlocked yet). ` +
        'Try again in a moment; if it goes on, IT must check that the keychain or keyring of this account is unlocked in the session.'
      );
    if (params['platform'] === 'linux')
      return (
        "Secure storage is not available, so the app's secrets (the client secret…) cannot be stored or read. IT must install a keyring " +
        'such as gnome-keyring (libsecret) or KWallet, and make sure it runs and is unlocked in the desktop session.'
      );
    return (
      `The ${params['platform'] === 'darwin' ? 'macOS Keychain' : 'Windows data protection (DPAPI)'} is not available ` +
      "for this account, so the app's secrets (the client secret…) cannot be stored or read. IT must check the user profile."
    );
  },
  insecure_backend: () =>
    "No keyring answered on this computer, so secure storage fell back to a key built into Electron, which keeps the app's secrets " +
    `as good as plain text; it is refused and nothing was stored. ${INSTALL_A_KEYRING} Then provision the secrets again (--provision-secret).`,
  encryption_failed: (params) =>
    `The operating system's secure storage could not encrypt the ${text(params, 'secret')}. Nothing was stored; IT must check the keychain or keyring of this account.`,
  needs_reprovisioning: (params) =>
    params['reason'] === 'damaged'
      ? `The secret store ${text(params, 'file')} is damaged. ${PROVISION_AGAIN}`
      : `The stored ${text(params, 'secret')} cannot be decrypted (the OS profile or keyring has changed since it was stored). ${PROVISION_AGAIN}`,
  store_unreadable: (params) =>
    `The secret store ${text(params, 'file')} cannot be read (${text(params, 'errno')}). IT must give this user access to it (or remove it and provision the secrets again).`,
  invalid_value: (params) => {
    switch (params['reason']) {
      case 'empty':
        return `The ${text(params, 'secret')} to store is empty.`;
      case 'too_long':
        return `The ${text(params, 'secret')} to store is longer than ${text(params, 'maxLength')} characters.`;
      case 'no_secret':
        return `${source(params)} held no secret; ${NOTHING_STORED}`;
      case 'several_lines':
        return `${source(params)} must hold the secret on one line; ${NOTHING_STORED}`;
      case 'file_unreadable':
        return `The file ${text(params, 'file')} cannot be read (${text(params, 'errno')}); ${NOTHING_STORED}`;
      case 'timeout':
        return `Standard input did not end within ${text(params, 'seconds')} s; nothing was stored. Pipe the secret in, for example from your deployment tool's secret variable.`;
      case 'too_large':
        return `Standard input held more than ${text(params, 'maxBytes')} bytes; ${NOTHING_STORED}`;
      case 'terminal':
        return (
          `Standard input is a terminal, where the ${text(params, 'secret')} would be shown as it is typed; nothing was stored. ` +
          `Pipe it in instead, for example: printf '%s' "$SECRET" | card-payments-desk ${PROVISION_FLAG}`
        );
      default:
        return 'Unknown secret name.';
    }
  },
};

const megabytes = (bytes: unknown): string => `${(Number(bytes) / 1_048_576).toFixed(1)} MB`;

/** A settings file's refusal: unreadable, over 1 MB, not JSON, or invalid as its issues say; `then` is what to do next. */
function settingsFile(error: SettingsError, which: 'managed' | 'user'): string {
  const params = error.params ?? {};
  const file = text(params, 'file');
  const named = which === 'managed' ? `The managed settings file ${file}` : `The settings file ${file}`;
  const ignoredNot = 'the app does not run with it ignored';
  switch (params['problem']) {
    case 'unreadable':
      return which === 'managed'
        ? `${named} exists but cannot be read (${text(params, 'errno')}). IT must make it a file every user can read; ${ignoredNot}.`
        : `${named} cannot be read (${text(params, 'errno')}).`;
    case 'too_large':
      return `${named} is larger than 1 MB (${megabytes(params['bytes'])}): it is not read. ${
        which === 'managed'
          ? `IT must put the settings file there; ${ignoredNot}.`
          : 'Delete it to start from the defaults.'
      }`;
    case 'not_json':
      return `${named} is not valid JSON (${error.issues[0]?.message ?? 'not valid JSON'}). ${
        which === 'managed' ? `IT must fix it; ${ignoredNot}.` : 'Fix it or delete it to start from the defaults.'
      }`;
    default:
      return describeIssues(
        which === 'managed'
          ? `${named} is invalid; IT must fix it (${ignoredNot})`
          : `${named} is invalid (fix it or delete it to start from the defaults)`,
        error.issues,
      );
  }
}

function settingsProblem(error: SettingsError): string {
  const params = error.params ?? {};
  switch (error.code) {
    case 'managed_file_unreadable':
    case 'managed_file_invalid':
      return settingsFile(error, 'managed');
    case 'user_file_unreadable':
    case 'user_file_invalid':
      return settingsFile(error, 'user');
    case 'locked':
      return describeIssues('These settings are managed by IT', error.issues);
    case 'invalid_settings':
      if (params['problem'] === 'not_an_object')
        return 'The settings changes must be an object of setting names and values.';
      if (params['problem'] === 'changes') return describeIssues('The settings changes are not valid', error.issues);
      if (params['problem'] === 'incomplete')
        return describeIssues(`The settings are not complete for ${text(params, 'environment')} mode`, error.issues);
      return describeIssues('The settings are not valid', error.issues);
  }
}

/** The desk's identity on the center: its file damaged, or its id used by another computer (a copied desk.json). */
function deskProblem(error: DeskIdentityError | DeskRegistryError): string {
  const params = error.params ?? {};
  if (error instanceof DeskIdentityError)
    return `This desk's identity file ${text(params, 'file')} is damaged. IT must restore it from a backup (or, for a desk that never worked on a center, delete it so that a new id is made).`;
  return (
    `This desk's id ${text(params, 'deskId')} (${text(params, 'file')}) is used on the center by another computer ("${text(params, 'host')}", last started ` +
    `${text(params, 'lastStartedAt')}): its desk.json was copied, with a disk image or a restored backup. Two computers with one id would ` +
    `take over each other's payments and sessions, so this one does not start on the center. IT: on the computer that is the copy, quit the ` +
    `app, delete ${DESK_FILE} from its data folder (${text(params, 'dataDir')}) and start it again: it makes an id of its own (docs/IT.md, section 8).`
  );
}

/** The desk's center credential and its id disagree: one of them was copied from another desk. */
function credentialProblem(error: DeskCredentialError): string {
  const params = error.params ?? {};
  if (params['reason'] === 'reset_unbound')
    return (
      `This desk's registry row (${text(params, 'deskId')}) was reset on the center, and the login it signs in with is bound to no desk: ` +
      `only the desk's own login may take it again. IT: bind this login to it first (docs/center/add-desk.sql with -v desk_id=${text(params, 'deskId')}), then start the desk.`
    );
  if (params['reason'] === 'login_bound')
    return (
      `This desk (${text(params, 'deskId')}) signs in to the center with the credential of another desk (${text(params, 'boundDesk')}): a credential ` +
      `serves one desk only, so this one does not start on the center. IT: give this desk its own login role with docs/center/add-desk.sql ` +
      `and set it as this desk's center user and centerPassword (docs/it/center-database.md).`
    );
  return (
    `This desk's id ${text(params, 'deskId')} is bound on the center to another desk's login role: its desk.json was copied from that desk, ` +
    `or its credential was changed. IT: on a copy, delete ${DESK_FILE} from its data folder and start it again; otherwise give this desk ` +
    `back the login role it was bound to (docs/it/center-database.md).`
  );
}

/** What IT reads of an error: a refusal this catalogue words, else the error's own message. */
export function describeProblem(error: unknown): string {
  if (error instanceof SettingsError) return settingsProblem(error);
  if (error instanceof DeskIdentityError || error instanceof DeskRegistryError) return deskProblem(error);
  if (error instanceof DeskCredentialError) return credentialProblem(error);
  if (error instanceof SecretError) {
    const words = SECRETS[error.code];
    if (words !== undefined) return words(error.params ?? {});
  }
  return error instanceof Error ? error.message : 'unknown error';
}
