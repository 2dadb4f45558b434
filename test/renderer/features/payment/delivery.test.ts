// The 3DS panel's reading of delivery statuses: each status in words, and a late or repeated event never undoing a newer one.
import { describe, expect, it } from 'vitest';
import { newer, statusLine } from '../../../../renderer/src/features/payment/delivery';
import { bindI18n } from '../../../../renderer/src/i18n';
import type { DeliveryResult } from '../../../../shared/messaging';

const en = bindI18n('en-US', () => undefined);
const es = bindI18n('es-MX', () => undefined);
const base = {
  messageId: `msg_${'0'.repeat(32)}`,
  paymentId: `pay_${'a'.repeat(32)}`,
  channel: 'sms',
  to: '+52 ******5678',
  provider: 'twilio',
  training: false,
  attempts: 1,
  at: '2026-11-22T18:00:00.000Z',
  final: false,
} as const;
const at = (seconds: number): string => new Date(Date.parse(base.at) + seconds * 1000).toISOString();

describe('a delivery in words', () => {
  it('queued → sent → delivered, and "sent" without a handset report once following has stopped', () => {
    expect(statusLine({ ...base, status: 'queued' }, en)).toMatch(
      /^Queued for \+52 \*+5678 \(.+\): waiting for the phone company\.$/,
    );
    expect(statusLine({ ...base, status: 'sent' }, en)).toMatch(/waiting for the phone to confirm it\.$/);
    expect(statusLine({ ...base, status: 'sent', final: true }, en)).toMatch(
      /the phone did not confirm delivery\. Ask the guest whether it arrived\.$/,
    );
    expect(statusLine({ ...base, status: 'delivered', final: true }, en)).toMatch(/^Delivered to \+52 \*+5678 on /);
    expect(statusLine({ ...base, status: 'delivered', final: true }, es)).toMatch(/^Entregado a \+52 \*+5678 el /);
  });

  it('refused before anything was sent ("not sent") is told apart from a failure afterwards ("not delivered")', () => {
    const failure = { code: 'invalid_destination', message: 'x', retryable: false, actor: 'guest' } as const;
    expect(statusLine({ ...base, status: 'failed', final: true, attempts: 0, failure }, en)).toBe(
      'Not sent to +52 ******5678.',
    );
    expect(
      statusLine({ ...base, status: 'failed', final: true, failure: { ...failure, code: 'unreachable' } }, en),
    ).toBe('Not delivered to +52 ******5678.');
    expect(
      statusLine(
        { ...base, status: 'unknown', final: true, failure: { ...failure, code: 'unconfirmed', actor: 'desk' } },
        es,
      ),
    ).toBe('Pudo haberse enviado a +52 ******5678.');
  });

  it('training and e-mail keep their own words', () => {
    expect(
      statusLine({ ...base, status: 'sent', final: true, training: true, provider: 'training_outbox' }, en),
    ).toMatch(/^Training: captured for/);
    expect(statusLine({ ...base, status: 'sent', final: true, channel: 'email', to: 'g***@example.com' }, en)).toMatch(
      /^Sent to g\*\*\*@example\.com on /,
    );
  });
});

describe('newer', () => {
  const queued: DeliveryResult = { ...base, status: 'queued' };
  const sent: DeliveryResult = { ...base, status: 'sent', at: at(2) };
  const delivered: DeliveryResult = { ...base, status: 'delivered', final: true, at: at(5) };

  it('takes a later word and a final one, never an older one over a newer one', () => {
    expect(newer(undefined, queued)).toBe(true);
    expect(newer(queued, sent)).toBe(true);
    expect(newer(sent, queued)).toBe(false);
    expect(newer(sent, delivered)).toBe(true);
    // Once final, only another final word replaces it.
    expect(newer(delivered, { ...sent, at: at(9) })).toBe(false);
  });
});
