/** From the app settings to what the payment engine connects with (main/payments/connect.ts). */
import type { ServiceSettings } from '../payments';
import { consistencyIssues, type Settings } from './schema';
import { SettingsError } from './errors';

/** Training needs nothing more (the simulator brings its own); sandbox and production take the hosts and client id. */
export function toServiceSettings(settings: Settings): ServiceSettings {
  const { environment, authUrl, cdeUrl, baseUrl, clientId, returnUrl } = settings;
  if (environment === 'training') return { environment };
  const issues = consistencyIssues(settings);
  if (
    issues.length > 0 ||
    authUrl === undefined ||
    cdeUrl === undefined ||
    baseUrl === undefined ||
    clientId === undefined
  ) {
    throw new SettingsError('invalid_settings', issues, undefined, { problem: 'incomplete', environment });
  }
  return { environment, authUrl, cdeUrl, baseUrl, clientId, ...(returnUrl === undefined ? {} : { returnUrl }) };
}
