/** Tokenize (POST /methods): the card lives only in this call; the journal keeps brand, last 4 and expiry. */
import type { z } from 'zod';
import { cardBrand } from '../../../shared/payments';
import type { MethodView } from '../../../shared/ipc/views';
import type { RequestTrace } from '../client';
import { methodView } from '../view-projection';
import type { PaymentContext } from './context';
import { checked, TokenizeInput } from './inputs';

export async function tokenize(
  ctx: PaymentContext,
  input: z.input<typeof TokenizeInput>,
  trace: RequestTrace | undefined,
): Promise<MethodView> {
  const { operationId, card, guestEmail, reservationId, operatorId } = checked(TokenizeInput, input);
  // Kept: what the card is, never its number or CVV. A tokenization is never sent again (the card is not kept).
  const redacted = {
    type: 'card',
    guestEmail,
    card: {
      brand: cardBrand(card.number),
      last4: card.number.slice(-4),
      expMonth: card.expMonth,
      expYear: card.expYear,
    },
  };
  const op = await ctx.ledger.beginOrResume(operationId, 'tokenize', redacted, {
    reservationId,
    operatorId,
    resendable: false,
  });
  if (op.state === 'done' && op.resultId) {
    const known = (await ctx.journal.methodsOf(reservationId)).find((m) => m.id === op.resultId);
    if (known) return methodView(known);
  }
  // Sent with the operation's key; kept: the method, for the reservation.
  const method = await ctx.ledger.run(
    op,
    (key) => ctx.client.tokenize(card, key, guestEmail, trace),
    async (m, journal) => {
      await journal.saveMethod(m, reservationId);
      return m.id;
    },
  );
  const { brand, last4, expMonth, expYear } = method.card;
  // A new card is not kept: the guest's consent comes with its payment (`keepCard`).
  return {
    id: method.id,
    brand,
    last4,
    expMonth,
    expYear,
    expiresAt: method.expiresAt,
    createdAt: method.createdAt,
    keptBy: undefined,
    keptAt: undefined,
  };
}
