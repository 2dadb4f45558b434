// The training outbox and "play the cardholder" against the in-process simulator: a real 3DS
// payment in requires_action, its link captured instead of sent, and the challenge page answered over HTTP.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MessagingError, type SendContext } from '../../../main/messaging';
import { useSimulator } from '../../support/simulator';
import { ApiClient, CARDS, advanceClock, newTenant, type Payment } from '../sandbox/support';
import { makeRig, startHttp, startSmtp, type HttpHarness, type Rig, type TestMessenger } from './support';

const PROCESSING_DELAY_MS = 2000;
const sim = useSimulator({ port: 0, processingDelayMs: PROCESSING_DELAY_MS }, { resetAfterEach: false });
let client: ApiClient;
const open: { close(): unknown }[] = [];

beforeAll(async () => {
  client = await newTenant(sim);
});
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

async function threeDsPayment(amount = 2450): Promise<{ payment: Payment; link: string }> {
  const payment = await client.payWith(CARDS.threeDS, { amount });
  expect(payment.status).toBe('requires_action');
  const link = payment.nextAction?.url;
  if (link === undefined) throw new Error('no nextAction.url');
  return { payment, link };
}

function contextOf(payment: Payment, link: string): SendContext {
  return {
    operatorId: 'trainee.ana',
    hotelName: 'Hotel Escuela',
    payment: {
      id: payment.id,
      amount: payment.amount,
      currency: payment.currency,
      status: payment.status,
      brand: 'visa',
      last4: '3220',
      nextActionUrl: link,
    },
  };
}

/** Training mode, with every channel also configured against live servers that must never be reached. */
async function trainingRig(): Promise<{ r: Rig; http: HttpHarness; smtpConnections: () => number }> {
  const http = await startHttp();
  const smtp = await startSmtp();
  open.push(http, smtp);
  const r = makeRig({
    environment: 'training',
    config: {
      providers: { email: 'smtp', sms: 'twilio', whatsapp: 'webhook' },
      smtp: { host: '127.0.0.1', port: smtp.port, security: 'none', from: 'pagos@escuela.example' },
      twilio: { accountSid: `AC${'ab'.repeat(16)}`, baseUrl: http.origin, smsFrom: '+15017122661' },
      webhook: { url: http.origin, statusUrl: `${http.origin}/status/{messageId}` },
    },
    secrets: { twilioAuthToken: 'tok' },
  });
  open.push(r);
  return { r, http, smtpConnections: () => smtp.connections };
}

async function capture(messenger: TestMessenger, channel: 'sms' | 'whatsapp' | 'email' = 'sms') {
  const { payment, link } = await threeDsPayment();
  const destination = channel === 'email' ? 'ana.garcia@example.com' : '+52 55 1234 5678';
  const result = await messenger.send(
    { paymentId: payment.id, channel, destination, language: 'es-MX' },
    contextOf(payment, link),
  );
  return { payment, link, result };
}

describe('the training outbox', () => {
  it('captures every channel instead of sending: no provider is reached', async () => {
    const { r, http, smtpConnections } = await trainingRig();
    expect(r.messenger.channels()).toEqual([
      { channel: 'sms', provider: 'training_outbox', available: true },
      { channel: 'whatsapp', provider: 'training_outbox', available: true },
      { channel: 'email', provider: 'training_outbox', available: true },
    ]);
    const sms = await capture(r.messenger, 'sms');
    const email = await capture(r.messenger, 'email');
    expect(sms.result).toMatchObject({
      status: 'sent',
      final: true,
      training: true,
      provider: 'training_outbox',
      attempts: 1,
      to: '+52 ******5678',
    });
    expect(email.result).toMatchObject({
      status: 'sent',
      training: true,
      provider: 'training_outbox',
      to: 'a***@example.com',
    });
    expect(http.requests).toEqual([]);
    expect(smtpConnections()).toBe(0);
    expect(r.secretReads).toEqual([]);

    const outbox = r.messenger.outbox();
    expect(outbox.map((m) => m.id)).toEqual([email.result.messageId, sms.result.messageId]);
    const [mail, text] = outbox;
    expect(text).toMatchObject({
      paymentId: sms.payment.id,
      operatorId: 'trainee.ana',
      channel: 'sms',
      to: '+52 ******5678',
      language: 'es-MX',
      cardholder: 'waiting',
    });
    // The text exactly as it would go: GSM-7 for SMS (words that need no accent GSM-7 lacks).
    expect(text?.text).toBe(
      `Hotel Escuela: para completar su pago de $2,450.00 USD con su tarjeta Visa que termina en 3220, confirme el cargo con su banco en este enlace: ${new URL(sms.link).origin}/…`,
    );
    expect(mail?.subject).toBe('Hotel Escuela: confirme su pago con su banco');
    // The trainee sees the message, never the link's token.
    const token = new URL(sms.link).pathname.split('/').pop() ?? '';
    expect(token.length).toBeGreaterThan(10);
    expect(JSON.stringify(outbox)).not.toContain(token);
    expect(r.logs.join('\n')).not.toContain(token);
    expect(r.auditBytes()).not.toContain(token);
    // Nothing to follow in training, and a quick second link for the same payment is never questioned.
    expect(r.polls).toEqual([]);
    const again = await r.messenger.sendOutcome(
      { paymentId: sms.payment.id, channel: 'sms', destination: '+52 55 1234 5678', language: 'es-MX' },
      contextOf(sms.payment, sms.link),
    );
    expect(again).toMatchObject({ status: 'sent', training: true });
  });

  it('is refused outside training mode', async () => {
    const r = makeRig({ environment: 'sandbox' });
    open.push(r);
    expect(() => r.messenger.outbox()).toThrow(MessagingError);
    expect(() => r.messenger.outbox()).toThrow(expect.objectContaining({ code: 'training_only' }));
    await expect(r.messenger.playCardholder(`msg_${'0'.repeat(32)}`, 'approve')).rejects.toMatchObject({
      code: 'training_only',
    });
  });
});

describe('play the cardholder', () => {
  it('approve: the simulator takes the answer, the payment goes to processing and then succeeds', async () => {
    const { r } = await trainingRig();
    const { payment, result } = await capture(r.messenger);
    const played = await r.messenger.playCardholder(result.messageId, 'approve');
    expect(played.message).toMatchObject({ id: result.messageId, cardholder: 'approved' });
    expect(Date.parse(played.message.answeredAt ?? '')).not.toBeNaN();
    expect(played.note).toMatch(/approved/);
    expect((await client.getPayment(payment.id)).status).toBe('processing');
    await advanceClock(sim, Math.ceil(PROCESSING_DELAY_MS / 1000) + 1);
    expect((await client.getPayment(payment.id)).status).toBe('succeeded');
    expect(r.messenger.outbox()[0]?.cardholder).toBe('approved');
  });

  it('decline: the payment fails with authentication_failed', async () => {
    const { r } = await trainingRig();
    const { payment, result } = await capture(r.messenger, 'whatsapp');
    const played = await r.messenger.playCardholder(result.messageId, 'decline');
    expect(played.message.cardholder).toBe('declined');
    const after = await client.getPayment(payment.id);
    expect(after.status).toBe('failed');
    expect(after.failure?.code).toBe('authentication_failed');
  });

  it('a second answer does not reach the simulator again: the first one stands', async () => {
    const { r } = await trainingRig();
    const { payment, result } = await capture(r.messenger);
    await r.messenger.playCardholder(result.messageId, 'approve');
    const again = await r.messenger.playCardholder(result.messageId, 'decline');
    expect(again.message.cardholder).toBe('approved');
    expect(again.note).toBe('The cardholder already approved this payment.');
    expect((await client.getPayment(payment.id)).status).toBe('processing');
  });

  it('a link already used elsewhere: "link closed", payment untouched', async () => {
    const { r } = await trainingRig();
    const { payment, link, result } = await capture(r.messenger);
    // The cardholder answered on another device first.
    const answered = await fetch(link, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'outcome=decline',
    });
    expect(answered.status).toBe(200);
    const played = await r.messenger.playCardholder(result.messageId, 'approve');
    expect(played.message.cardholder).toBe('link_closed');
    expect(played.note).toMatch(/already used, or the payment expired/);
    expect((await client.getPayment(payment.id)).status).toBe('failed');
  });

  it('a payment expired after 15 minutes: "link closed"', async () => {
    const { r } = await trainingRig();
    const { payment, result } = await capture(r.messenger);
    await advanceClock(sim, 15 * 60 + 1);
    const played = await r.messenger.playCardholder(result.messageId, 'approve');
    expect(played.message.cardholder).toBe('link_closed');
    await client.refreshToken();
    expect((await client.getPayment(payment.id)).status).toBe('expired');
  });

  it('an unknown message, a bad id or a bad answer is refused', async () => {
    const { r } = await trainingRig();
    const { result } = await capture(r.messenger);
    await expect(r.messenger.playCardholder(`msg_${'0'.repeat(32)}`, 'approve')).rejects.toMatchObject({
      code: 'unknown_message',
    });
    await expect(r.messenger.playCardholder('msg_x', 'approve')).rejects.toMatchObject({
      code: 'invalid_request',
      field: 'messageId',
    });
    await expect(r.messenger.playCardholder(result.messageId, 'maybe' as 'approve')).rejects.toMatchObject({
      code: 'invalid_request',
      field: 'answer',
    });
    expect(r.messenger.outbox()[0]?.cardholder).toBe('waiting');
  });

  it('only links to this computer are played: a real bank page is never answered', async () => {
    const bank = await startHttp([{ status: 200 }]);
    open.push(bank);
    const r = makeRig({ environment: 'training' });
    open.push(r);
    const { payment } = await threeDsPayment();
    const remote = 'https://acs.bank.example/challenge/tok_remote';
    const result = await r.messenger.send(
      { paymentId: payment.id, channel: 'sms', destination: '+52 55 1234 5678', language: 'en-US' },
      contextOf(payment, remote),
    );
    expect(result.status).toBe('sent');
    await expect(r.messenger.playCardholder(result.messageId, 'approve')).rejects.toMatchObject({
      code: 'training_only',
    });
    expect(bank.requests).toEqual([]);
  });
});
