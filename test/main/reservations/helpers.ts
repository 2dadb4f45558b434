// Shared set-up for the reservations tests: temp folders, reservation builders, and catching a ReservationError by code.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatCents } from '../../../shared/payments';
import { guestLanguageOf, type ReservationErrorCode, type ReservationView } from '../../../shared/reservations';
import { BuiltinReservationStore, ReservationError, TRAINING_RESERVATIONS_FILE } from '../../../main/reservations';

export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'reservations-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export const T0 = Date.UTC(2026, 10, 23, 15, 0, 0);

/** The store in `dir`'s own files: reservations.db, or training's reservations-training.db. */
export function openStore(dir: string, name = 'reservations.db'): Promise<BuiltinReservationStore> {
  const training = name === TRAINING_RESERVATIONS_FILE;
  // Another store than the folder's own: a folder of its own (each store's file name is fixed).
  const folder = training || name === 'reservations.db' ? dir : join(dir, name.replace(/\.db$/, ''));
  mkdirSync(folder, { recursive: true });
  return BuiltinReservationStore.openFolder(folder, { now: () => T0, training });
}

/** A reservation; its language is the phone's (as a source without a language field gives it) unless given. */
export const reservation = (overrides: Partial<ReservationView> = {}): ReservationView => {
  const view = {
    confirmationNumber: 'TST-000001',
    guestName: 'Ana López',
    checkIn: '2026-12-01',
    checkOut: '2026-12-04',
    hotelName: 'Hotel Costa Turquesa Cancún',
    balanceDueCents: 450_000,
    currency: 'mxn' as const,
    guestPhone: '+529981112233',
    guestEmail: 'ana.lopez@example.mx',
    ...overrides,
  };
  return { ...guestLanguageOf({ guestPhone: view.guestPhone }), ...view };
};

/** A reservation in our own field names, as a partner without a mapping sends it: its balance in major units, no language. */
export function plain(view: ReservationView): Record<string, unknown> {
  const {
    confirmationNumber,
    guestName,
    checkIn,
    checkOut,
    hotelName,
    balanceDueCents,
    currency,
    guestPhone,
    guestEmail,
  } = view;
  return {
    confirmationNumber,
    guestName,
    checkIn,
    checkOut,
    hotelName,
    balanceDue: balanceDueCents / 100,
    currency,
    guestPhone,
    guestEmail,
  };
}

export const CSV_HEADER =
  'confirmation_number,guest_name,check_in,check_out,hotel_name,balance_due,currency,guest_phone,guest_email';

/** One CSV line for a reservation (cells with commas or quotes quoted). */
export function csvLine(view: ReservationView): string {
  const cells = [
    view.confirmationNumber,
    view.guestName,
    view.checkIn,
    view.checkOut,
    view.hotelName,
    formatCents(view.balanceDueCents, { grouping: false }),
    view.currency,
    view.guestPhone ?? '',
    view.guestEmail ?? '',
  ];
  return cells.map((cell) => (/[",\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell)).join(',');
}

export const csvOf = (views: readonly ReservationView[]): string =>
  [CSV_HEADER, ...views.map(csvLine)].join('\n') + '\n';

/** The ReservationError a call throws or rejects with; fails the test when it does anything else. */
export async function reservationError(fn: () => unknown): Promise<ReservationError> {
  try {
    await fn();
  } catch (error) {
    if (error instanceof ReservationError) return error;
    throw error;
  }
  throw new Error('expected a ReservationError, but the call succeeded');
}

export async function expectCode(fn: () => unknown, code: ReservationErrorCode): Promise<ReservationError> {
  const error = await reservationError(fn);
  if (error.code !== code) throw new Error(`expected ReservationError ${code}, got ${error.code}: ${error.message}`);
  return error;
}
