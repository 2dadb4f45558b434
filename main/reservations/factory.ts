/** Opens the reservation source the settings name: the built-in store in the data folder, or the partner's REST system. */
import { join } from 'node:path';
import { ReservationError } from './errors';
import { ReservationSourceConfig } from './config';
import { RestReservationSource, type SecretGetter } from './rest';
import { BuiltinReservationStore } from './store';

/** The built-in store's file for real (imported) reservations. */
export const RESERVATIONS_FILE = 'reservations.db';
/** Training mode's own file, so that demo guests never mix with real ones. */
export const TRAINING_RESERVATIONS_FILE = 'reservations-training.db';

export interface ReservationSourceDeps {
  /** The app's data folder (Electron's userData in the app); the built-in store's file is kept here. */
  dataDir: string;
  /** Training mode: the built-in store uses TRAINING_RESERVATIONS_FILE and fills it with demo reservations when empty. */
  training?: boolean;
  /** The REST adapter's auth header value, read from the secret store at each request. */
  secret?: SecretGetter;
  /** The REST adapter's fetch: the app's one fetch (Electron's net.fetch in the app), never the global one. */
  fetch: typeof fetch;
  /** The clock for the built-in store (ms since the epoch). */
  now?: () => number;
}

export type AnyReservationSource = BuiltinReservationStore | RestReservationSource;

/**
 * The source for the `reservations` setting (undefined: the built-in store). Throws `configuration` with the field
 * named when the setting does not hold together, `storage` when the file cannot be opened.
 */
export function createReservationSource(config: unknown, deps: ReservationSourceDeps): AnyReservationSource {
  const parsed = ReservationSourceConfig.safeParse(config);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = ['reservations', ...(issue?.path.map(String) ?? [])].join('.');
    throw new ReservationError('configuration', `The reservation settings are not valid (${field} ${issue?.message ?? 'is not valid'}). Tell IT.`);
  }
  const settings = parsed.data;
  if (settings.kind === 'rest') return new RestReservationSource(settings, { fetch: deps.fetch, ...(deps.secret === undefined ? {} : { secret: deps.secret }) });

  const training = deps.training === true;
  const store = new BuiltinReservationStore(join(deps.dataDir, training ? TRAINING_RESERVATIONS_FILE : RESERVATIONS_FILE), deps.now === undefined ? {} : { now: deps.now });
  if (training) {
    try {
      store.seedDemo();
    } catch (error) {
      void store.close();
      throw error;
    }
  }
  return store;
}
