/** The reservation source the settings name (the built-in store, or the partner's system) and what the door asks of it. */
import { MAX_SEARCH_RESULTS } from '../../shared/reservations';
import type { DeskIdentity } from '../center';
import type { ReservationsPort } from '../ipc';
import type { Journal } from '../payments';
import {
  BuiltinReservationStore,
  createReservationSource,
  ReservationError,
  searchWithShortReference,
  type AnyReservationSource,
} from '../reservations';
import type { Storage } from '../storage';
import type { MainStackOptions } from './options';

export function openReservations(
  storage: Storage,
  identity: DeskIdentity,
  training: boolean,
  options: MainStackOptions,
): Promise<AnyReservationSource> {
  return createReservationSource(options.reservations, {
    dataDir: options.dataDir,
    storage,
    deskId: identity.deskId,
    training,
    fetch: options.fetch,
    ...(options.reservationsSecret ? { secret: options.reservationsSecret } : {}),
  });
}

export function reservationsPort(source: AnyReservationSource, journal: Journal): ReservationsPort {
  return {
    search: (query) =>
      searchWithShortReference(source, query, (key) =>
        journal.searchPayments({ shortReference: key, limit: MAX_SEARCH_RESULTS }),
      ),
    get: (id) => source.get(id),
    importCsv: (csv) => {
      // Reservations from the partner's system: there is nothing to import on this desk.
      if (!(source instanceof BuiltinReservationStore)) throw new ReservationError('configuration');
      return source.importCsv(csv);
    },
  };
}
