/** Opens the reservation source the settings name: the built-in store (the center's, or the data folder's), or the partner's REST system. */
import type { Storage } from '../storage';
import { ReservationError } from './errors';
import { ReservationSourceConfig } from './config';
import { RestReservationSource, type SecretGetter } from './rest';
import { BuiltinReservationStore } from './store';

export { RESERVATIONS_FILE, TRAINING_RESERVATIONS_FILE } from './schema';

export interface ReservationSourceDeps {
  /** The app's data folder (Electron's userData in the app): training's demo guests are kept here, in its own file. */
  dataDir: string;
  /** Where imported reservations are kept (the stack's storage: the embedded files, or the center); the data folder's files when not given. */
  storage?: Storage;
  /** The desk that imports (recorded on each reservation). */
  deskId?: string;
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
export async function createReservationSource(
  config: unknown,
  deps: ReservationSourceDeps,
): Promise<AnyReservationSource> {
  const parsed = ReservationSourceConfig.safeParse(config);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = ['reservations', ...(issue?.path.map(String) ?? [])].join('.');
    throw new ReservationError(
      'configuration',
      `The reservation settings are not valid (${field} ${issue?.message ?? 'is not valid'}). Tell IT.`,
    );
  }
  const settings = parsed.data;
  if (settings.kind === 'rest')
    return new RestReservationSource(settings, {
      fetch: deps.fetch,
      ...(deps.secret === undefined ? {} : { secret: deps.secret }),
    });

  const training = deps.training === true;
  const options = {
    training,
    ...(deps.now === undefined ? {} : { now: deps.now }),
    ...(deps.deskId === undefined ? {} : { deskId: deps.deskId }),
  };
  // Demo guests never go to the center: training keeps its own file in the desk's data folder.
  const store =
    training || deps.storage === undefined
      ? await BuiltinReservationStore.openFolder(deps.dataDir, options)
      : await BuiltinReservationStore.open(deps.storage, options);
  if (training) {
    try {
      await store.seedDemo();
    } catch (error) {
      await store.close();
      throw error;
    }
  }
  return store;
}
