/** Finding a payment from the journal: by reservation, id, guest, last 4, dates or agent. */
import { z } from 'zod';
import { IsoDate } from '../reservations';
import { OperatorId } from '../operators';
import { freeText } from '../text';

export const PaymentQuery = z
  .strictObject({
    reservationId: freeText().trim().max(64).optional(),
    paymentId: freeText().trim().max(64).optional(),
    guestName: freeText().trim().max(200).optional(),
    last4: z.string().regex(/^\d{4}$/, 'Write the last 4 digits of the card.').optional(),
    from: IsoDate.optional(),
    to: IsoDate.optional(),
    operatorId: OperatorId.optional(),
  })
  .refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, { message: 'The first day must come before the last one.', path: ['to'] });
export type PaymentQuery = z.infer<typeof PaymentQuery>;

/** At most this many payments come back, newest first. */
export const MAX_PAYMENT_RESULTS = 100;
