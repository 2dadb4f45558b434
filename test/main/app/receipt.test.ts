// The receipt, main's side, through the real door: a succeeded payment's receipt goes to the guest by e-mail or SMS
// through the messaging module (here the training outbox, which captures instead of sending), in the guest's language
// unless the agent chose another: amount, card brand and last 4, and the short reference — never a card number.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shortReference } from '../../../shared/payments';
import type { Output } from '../../../shared/ipc';
import { AGENT, SUPERVISOR, openDesk, type Desk } from './desk-kit';

let desk: Desk;
const outbox = async () => (await desk.ok<Output<'messaging:outbox'>>('messaging:outbox', {})).messages;

async function paid(
  reservationId: string,
  currency: 'usd' | 'mxn',
  amountCents: number,
  number = '4242424242424242',
): Promise<string> {
  const methodId = await desk.card(reservationId, number);
  // Above what is still owed (the reservation paid in full by an earlier test), charged as the agent confirms both amounts.
  const { balance } = await desk.ok<Output<'reservations:overview'>>('reservations:overview', { reservationId });
  const owedCents = balance?.owedCents ?? amountCents;
  const overBalance = amountCents > owedCents ? { overBalance: { owedCents, amountCents } } : {};
  const payment = await desk.ok<Output<'payments:pay'>>('payments:pay', {
    operationId: randomUUID(),
    methodId,
    amountCents,
    currency,
    reservationId,
    ...overBalance,
  });
  return (await desk.until(payment.id, (s) => s !== 'processing')).id;
}

beforeAll(async () => {
  desk = await openDesk();
  await desk.signIn(AGENT);
});
afterAll(async () => {
  await desk.close();
});

describe('shortReference', () => {
  it('is the last 8 characters of the payment id, upper case, in two groups of 4', () => {
    expect(shortReference('pay_0123456789abcdef0123456789abcdef')).toBe('89AB-CDEF');
  });
});

describe('messaging:sendReceipt', () => {
  it('by e-mail, in the guest’s language (José: a Mexican phone, es-MX): amount, card and reference; recorded', async () => {
    const paymentId = await paid('MEX-2H8R5T', 'mxn', 125_050);
    const result = await desk.ok<Output<'messaging:sendReceipt'>>('messaging:sendReceipt', {
      paymentId,
      channel: 'email',
      destination: 'jose.munoz@example.mx',
    });
    expect(result).toMatchObject({ status: 'sent', paymentId, channel: 'email', training: true });
    const [message] = (await outbox()).filter((m) => m.paymentId === paymentId);
    expect(message).toMatchObject({ channel: 'email', language: 'es-MX' });
    expect(message?.subject).toContain('comprobante');
    expect(message?.text).toContain('recibimos su pago de $1,250.50 MXN con su tarjeta Visa terminación 4242');
    expect(message?.text).toContain(`Referencia: ${shortReference(paymentId)}.`);
    expect(message?.text).not.toContain('4242424242424242');
    const [row] = await desk.stack.audit.query({ action: 'receipt.send', resource: paymentId }, 1);
    expect(row).toMatchObject({ actor: AGENT.id, outcome: 'ok', details: { channel: 'email', delivery: 'sent' } });
  });

  it('by SMS in the language the agent chose, and in English for a US guest by default', async () => {
    const paymentId = await paid('CUN-6B3D8F', 'usd', 98_000);
    await desk.ok('messaging:sendReceipt', { paymentId, channel: 'sms', destination: '+1 305 555 0164' });
    await desk.ok('messaging:sendReceipt', {
      paymentId,
      channel: 'sms',
      destination: '+1 305 555 0164',
      language: 'es-MX',
    });
    const texts = (await outbox()).filter((m) => m.paymentId === paymentId).map((m) => [m.language, m.text]);
    expect(texts).toContainEqual([
      'en-US',
      expect.stringContaining(
        `we received your payment of $980.00 USD with your Visa card ending in 4242. Reference: ${shortReference(paymentId)}.`,
      ),
    ]);
    expect(texts).toContainEqual(['es-MX', expect.stringContaining(`Referencia: ${shortReference(paymentId)}.`)]);
  });

  it('refuses a payment that did not go through (no receipt), and WhatsApp, which carries only approved templates', async () => {
    const declined = await paid('CUN-6B3D8F', 'usd', 1_000, '4000000000000002');
    expect(
      await desk.refused('messaging:sendReceipt', {
        paymentId: declined,
        channel: 'email',
        destination: 'zoe.anderson@example.com',
      }),
    ).toMatchObject({ code: 'receipt_not_available' });
    expect(
      await desk.refused('messaging:sendReceipt', {
        paymentId: declined,
        channel: 'whatsapp',
        destination: '+1 305 555 0164',
      }),
    ).toMatchObject({ code: 'invalid_input', field: 'channel' });
  });
});

describe('the short reference on the receipt', () => {
  it('keeps card data out of the receipt: a destination holding a card number or a security code is refused, nothing sent', async () => {
    const paymentId = await paid('CUN-6B3D8F', 'usd', 2_000);
    const before = (await outbox()).length;
    expect(
      await desk.refused('messaging:sendReceipt', {
        paymentId,
        channel: 'email',
        destination: '4242424242424242@example.com',
      }),
    ).toMatchObject({
      code: 'card_number_in_text',
      field: 'destination',
    });
    expect(
      await desk.refused('messaging:sendReceipt', { paymentId, channel: 'email', destination: 'cvv123@example.com' }),
    ).toMatchObject({ code: 'security_code_in_text' });
    expect((await outbox()).length).toBe(before);
  });

  // OPEN (adv14b): the guest keeps the receipt "as proof" with its reference (the payment id's last 8 characters), but a
  // supervisor's payments search matches payment ids by their beginning only (journal.searchPayments, `LIKE id%`), so the
  // reference a guest reads back on a later call finds nothing. journal.ts is being rewritten by another helper: the
  // fix (match a reference "XXXX-XXXX" against the id's end, dash and case ignored) belongs there. Remove `.fails` then.
  it.fails('finds the payment from the reference read back by the guest', async () => {
    const paymentId = await paid('CUN-6B3D8F', 'usd', 3_000);
    await desk.signIn(SUPERVISOR);
    try {
      const found = await desk.ok<Output<'payments:search'>>('payments:search', {
        paymentId: shortReference(paymentId),
      });
      expect(found.payments.map((p) => p.id)).toContain(paymentId);
    } finally {
      await desk.signIn(AGENT);
    }
  });

  // OPEN (adv14b): a payment refunded in full keeps the status `succeeded` (spec §3), and main checks only the status:
  // the guest is sent "we received your payment of $40.00" for money given back. Whether to refuse it
  // (`receipt_not_available`) or to state the refunds on the receipt is a decision to take; remove `.fails` then.
  it.fails('does not tell the guest a payment refunded in full was received', async () => {
    const paymentId = await paid('CUN-6B3D8F', 'usd', 4_000);
    await desk.signIn(SUPERVISOR);
    try {
      await desk.ok('refunds:create', { operationId: randomUUID(), paymentId, reason: 'requested_by_customer' });
      for (
        let i = 0;
        i < 50 && (await desk.ok<Output<'payments:get'>>('payments:get', { paymentId })).refundableCents > 0;
        i += 1
      ) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      await desk.signIn(AGENT);
    }
    const sent = await desk.call('messaging:sendReceipt', {
      paymentId,
      channel: 'email',
      destination: 'zoe.anderson@example.com',
    });
    if (sent.ok) {
      const [message] = (await outbox()).filter((m) => m.paymentId === paymentId);
      expect(message?.text).not.toContain('we received your payment of $40.00');
    }
  });
});
