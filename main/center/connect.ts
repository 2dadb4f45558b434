/** How IT's commands connect to the center: the setting, the password asked for, and the command named to the server. */
import { UserError } from '../errors';
import { centerConnection, type CenterConnectionOptions, type CenterSettings } from '../storage';

/**
 * The connection options of IT's `command` (--check-center…) to `center`; a setting or password it cannot use (the TLS
 * files, no password) is answered as its UserError, to be said, and anything else thrown.
 */
export async function commandConnection(
  center: CenterSettings,
  password: () => Promise<string | undefined>,
  command: string,
): Promise<CenterConnectionOptions | UserError> {
  try {
    return await centerConnection(center, { password, applicationName: `card-payments-desk ${command}` });
  } catch (error) {
    if (error instanceof UserError) return error;
    throw error;
  }
}
