/** Finding a payment from the journal: by reservation, id, short reference, guest, last 4, dates or agent. */
import { z } from 'zod';
import { IsoDate } from '../reservations';
import { OperatorId } from '../operators';
import { freeText } from '../text';
import { shortReferenceKey } from '../payments';

export const PaymentQuery = z
  .strictObject({
    reservationId: freeText().trim().max(64).optional(),
    paymentId: freeText().trim().max(64).optional(),
    /** The short reference read to the guest ("9D21-F5A0"), any case, with or without the dash. */
    shortReference: z
      .string()
      .trim()
      .refine(
        (text) => shortReferenceKey(text) !== undefined,
        'Write the 8 characters of the short reference, as the receipt shows it: 9D21-F5A0.',
      )
      .optional(),
    guestName: freeText().trim().max(200).optional(),
    last4: z
      .string()
      .regex(/^\d{4}$/, 'Write the last 4 digits of the card.')
      .optional(),
    from: IsoDate.optional(),
    to: IsoDate.optional(),
    operatorId: OperatorId.optional(),
  })
  .refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, {
    message: 'The first day must come before the last one.',
    path: ['to'],
  });
export type PaymentQuery = z.infer<typeof PaymentQuery>;

/** At most this many payments come back, newest first. */
export const MAX_PAYMENT_RESULTS = 100;
