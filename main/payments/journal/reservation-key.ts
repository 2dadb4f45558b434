/** How the journal compares reservation numbers: by their key. */
/**
 * A reservation number as the journal holds a reservation: upper case, without spaces, dashes of any kind or dots, its
 * full-width letters and digits as ASCII ("cun 6b3d8f", "CUN6B3D8F" and "CUN–6B3D8F" are CUN-6B3D8F, as the lookup finds them).
 */
export function reservationKey(reservationId: string): string {
  return reservationId
    .normalize('NFKC')
    .toUpperCase()
    .replace(/[\s\p{Pd}.]+/gu, '');
}
