/** Demo reservations for training mode: Mexican and US guests, resort and city hotels, balances on each side of every MSI threshold. */
import { toCents, type Currency } from '../../shared/payments';
import { guestLanguageOf, type ReservationView } from '../../shared/reservations';

const HOTELS = {
  CUN: 'Hotel Costa Turquesa Cancún',
  MEX: 'Gran Hotel Reforma Ciudad de México',
  SJD: 'Casa Pedregal Los Cabos',
  PCM: 'Playa Xcalacoco Resort Playa del Carmen',
  PVR: 'Hotel Malecón Puerto Vallarta',
  MID: 'Hacienda Santa Lucía Mérida',
  OAX: 'Casa de la Cantera Oaxaca',
} as const;

type Row = [
  confirmationNumber: string,
  guestName: string,
  hotel: keyof typeof HOTELS,
  /** Days from today to check-in (negative: the guest is in the house). */
  checkInInDays: number,
  nights: number,
  /** In major units, as a hotel's system writes it (kept in cents). */
  balanceDue: number,
  currency: Currency,
  guestPhone: string | undefined,
  guestEmail: string | undefined,
];

/**
 * MSI plans are offered for mxn from count × 100.00 (interface-decisions §8): 3 from 300.00 … 24 from 2,400.00. The
 * mxn balances sit on and just below each threshold (299.99 / 300.00 … 2,399.99 / 2,400.00), below all of them, and
 * well above; usd balances never offer MSI. Two reservations share a guest (phone and e-mail), two guests share a
 * surname, and one booking is paid in full.
 */
const ROWS: readonly Row[] = [
  ['CUN-7F3K2A', 'Sofía Núñez Ortega', 'CUN', 1, 4, 12_450, 'mxn', '+529981234567', 'sofia.nunez@example.mx'],
  ['CUN-7T2V5W', 'Sofía Núñez Ortega', 'CUN', 40, 3, 15_300, 'mxn', '+529981234567', 'sofia.nunez@example.mx'],
  ['CUN-9M4P7Q', 'Joaquín Núñez Ortega', 'CUN', 1, 4, 2_400, 'mxn', '+529981234570', 'joaquin.nunez@example.mx'],
  ['MEX-2H8R5T', 'José Ángel Muñoz Pérez', 'MEX', 0, 2, 3_600, 'mxn', '+525512345678', 'jose.munoz@example.mx'],
  [
    'MEX-4K6W9Z',
    'María Fernanda Gutiérrez Ríos',
    'MEX',
    3,
    3,
    1_800,
    'mxn',
    '+525587654321',
    'mafer.gutierrez@example.mx',
  ],
  ['SJD-3B7N1C', "Emily O'Connor", 'SJD', 5, 7, 5_680, 'usd', '+14155550143', 'emily.oconnor@example.com'],
  ['SJD-8D2F6G', 'Michael Johnson', 'SJD', 12, 5, 3_125.4, 'usd', '+13125550187', 'michael.johnson@example.com'],
  ['PVR-5J1L3M', 'Héctor Ibáñez Salazar', 'PVR', 2, 3, 899.99, 'mxn', '+523222241987', 'hector.ibanez@example.mx'],
  ['MID-6P9Q2R', 'Ximena Peña Córdova', 'MID', 7, 2, 900, 'mxn', '+529999284411', 'ximena.pena@example.mx'],
  ['OAX-1S4T8V', 'Raúl Domínguez Aguilar', 'OAX', 9, 3, 600, 'mxn', '+529515163308', 'raul.dominguez@example.mx'],
  ['CUN-2W5X9Y', 'Begoña Sáenz Treviño', 'CUN', 14, 5, 599.99, 'mxn', '+528183564120', 'begona.saenz@example.mx'],
  ['MEX-7A3C6E', 'Ramón Echeverría Lugo', 'MEX', 1, 1, 300, 'mxn', '+523336157742', 'ramon.echeverria@example.mx'],
  ['MEX-9F2H5J', 'Lucía Chávez Beltrán', 'MEX', 4, 2, 299.99, 'mxn', '+525543218765', 'lucia.chavez@example.mx'],
  ['PCM-3K8M1N', 'Andrés Martínez Solís', 'PCM', 6, 4, 1_200, 'mxn', '+529848736215', 'andres.martinez@example.mx'],
  ['PCM-5P7R2S', 'Mónica Zúñiga Olvera', 'PCM', 10, 6, 1_199.99, 'mxn', '+529848736290', 'monica.zuniga@example.mx'],
  ['CUN-8T1V4W', 'Iñaki Garza Villarreal', 'CUN', 20, 7, 42_180.75, 'mxn', '+528187451236', 'inaki.garza@example.mx'],
  ['SJD-4X6Y9Z', 'Chloé Dubois-Smith', 'SJD', 8, 4, 1_450, 'usd', '+16175550112', 'chloe.duboissmith@example.com'],
  ['CUN-6B3D8F', 'Zoë Anderson', 'CUN', 3, 5, 980, 'usd', '+13055550164', 'zoe.anderson@example.com'],
  ['MEX-1G5H7K', 'Jesús Hernández Álvarez', 'MEX', -1, 3, 185.5, 'mxn', '+525566778899', 'jesus.hernandez@example.mx'],
  ['PVR-2L9M4N', 'Renée Castañeda Ruiz', 'PVR', 15, 3, 1_799.99, 'mxn', '+523221567834', 'renee.castaneda@example.mx'],
  ['MID-8P1Q6R', 'Fátima Cortés Alcántara', 'MID', 30, 4, 8_750.5, 'mxn', '+529991234987', 'fatima.cortes@example.mx'],
  ['OAX-3S7T2V', 'Efraín Téllez Ocaña', 'OAX', 2, 2, 450, 'mxn', '+529512087643', 'efrain.tellez@example.mx'],
  ['SJD-9W4X1Y', 'Noah García', 'SJD', 18, 6, 12_400, 'usd', '+17135550199', 'noah.garcia@example.com'],
  ['CUN-5Z2A8B', 'Sarah Nguyen', 'CUN', 4, 3, 612.35, 'usd', '+12065550135', 'sarah.nguyen@example.com'],
  ['PCM-7C4D1E', 'David Kim', 'PCM', 11, 5, 2_399.99, 'mxn', '+19725550178', 'david.kim@example.com'],
  ['MEX-6F8G3H', 'Olivia Brooks', 'MEX', 2, 2, 245.6, 'usd', '+12015550123', 'olivia.brooks@example.com'],
  ['CUN-4J7K9L', 'Valeria Ruiz Esparza', 'CUN', 25, 10, 128_900, 'mxn', '+529982456718', 'valeria.ruiz@example.mx'],
  ['SJD-2M5N8P', 'James Rodríguez', 'SJD', 6, 3, 0, 'usd', '+13125550144', 'james.rodriguez@example.com'],
  // Booked through an agency: no e-mail on file, and one with no phone — the agent asks the guest.
  ['MEX-3Q6R9S', 'Ashley Thompson', 'MEX', 1, 2, 89, 'usd', '+14155550177', undefined],
  ['PVR-1X4Y7Z', 'Guadalupe Yáñez Montaño', 'PVR', 9, 2, 25_000, 'mxn', undefined, 'lupita.yanez@example.mx'],
];

const DAY_MS = 86_400_000;
const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** The demo reservations, their stays placed around `now` (ms since the epoch) so that they look current. */
export function demoReservations(now: number): ReservationView[] {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  return ROWS.map(
    ([confirmationNumber, guestName, hotel, inDays, nights, balanceDue, currency, guestPhone, guestEmail]) => {
      const checkIn = today + inDays * DAY_MS;
      return {
        confirmationNumber,
        guestName,
        checkIn: isoDay(checkIn),
        checkOut: isoDay(checkIn + nights * DAY_MS),
        hotelName: HOTELS[hotel],
        balanceDueCents: toCents(balanceDue),
        currency,
        ...(guestPhone === undefined ? {} : { guestPhone }),
        ...(guestEmail === undefined ? {} : { guestEmail }),
        ...guestLanguageOf({ guestPhone }),
      };
    },
  );
}
