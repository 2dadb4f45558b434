// The desk's words, read as a person would: one way to write a time of day, a date and time never after "a las",
// channels in lower case inside a sentence, and ID written one way in each catalogue.
import { describe, expect, it } from 'vitest';
import { clockTime } from '../../../renderer/src/features/payment/waiting';
import { statusLine } from '../../../renderer/src/features/payment/delivery';
import { bindI18n, CATALOGUES, formatClock, formatHour } from '../../../renderer/src/i18n';

const es = bindI18n('es-MX', () => undefined);
const en = bindI18n('en-US', () => undefined);

describe('one time of day format', () => {
  it('writes an hour without a leading zero, at any hour of the day, wherever the time is shown', () => {
    for (let hour = 0; hour < 24; hour++) {
      const iso = new Date(2026, 10, 27, hour, 56).toISOString();
      expect(clockTime(iso, 'es-MX')).not.toMatch(/^0/);
      expect(clockTime(iso, 'es-MX')).toBe(formatClock(iso, 'es-MX'));
      expect(clockTime(iso, 'en-US')).toBe(formatClock(iso, 'en-US'));
    }
    expect(formatClock('2026-11-27T15:56:00Z', 'es-MX', 'UTC')).toMatch(/^3:56\sp\.\s?m\.$/);
    expect(formatClock('2026-11-27T15:56:00Z', 'en-US', 'UTC')).toMatch(/^3:56\sPM$/);
  });

  it('writes the report’s hours the same way', () => {
    expect(formatHour(9, 'es-MX')).toMatch(/^9:00\sa\.\s?m\.$/);
    expect(formatHour(14, 'en-US')).toMatch(/^2:00\sPM$/);
  });
});

describe('a date and time in a sentence', () => {
  it('is said "el 27 nov 2026, 4:01 p.m.", never "a las 27 nov 2026"', () => {
    const result = {
      messageId: `msg_${'0'.repeat(32)}`,
      paymentId: `pay_${'a'.repeat(32)}`,
      channel: 'sms',
      to: '+52 ******5678',
      provider: 'twilio',
    } as const;
    const line = statusLine(
      { ...result, training: false, attempts: 1, at: '2026-11-27T22:01:00.000Z', final: true, status: 'delivered' },
      es,
    );
    expect(line).toMatch(/^Entregado a \+52 \*+5678 el \d{1,2} \w+\.? 2026, \d{1,2}:01\s[ap]\.\s?m\.$/);
    expect(line).not.toMatch(/a las \d{1,2} \w/);
    expect(
      statusLine(
        { ...result, training: false, attempts: 1, at: '2026-11-27T22:01:00.000Z', final: true, status: 'delivered' },
        en,
      ),
    ).toMatch(/ on \w{3} \d{1,2}, 2026/);
  });

  it('no message puts a date and time after "a las" or "at"', () => {
    const dateTimeKeys = [
      'link.sent',
      'link.sentTraining',
      'link.status.sent',
      'link.status.sentUnconfirmed',
      'link.status.delivered',
      'link.status.read',
      'link.lastSent',
    ] as const;
    for (const key of dateTimeKeys) {
      expect(CATALOGUES['es-MX'][key]).not.toContain('a las {when}');
      expect(CATALOGUES['en-US'][key]).not.toContain('at {when}');
    }
  });
});

describe('words inside a sentence', () => {
  it('a channel is written in lower case after "por" (correo, not Correo)', () => {
    expect(
      es.t('link.lastSent', {
        channel: es.t('link.channelInText.email'),
        to: 'g***@example.com',
        when: '27 nov 2026, 4:01 p.m.',
      }),
    ).toBe('Último envío por correo a g***@example.com el 27 nov 2026, 4:01 p.m.');
    const midSentence = Object.entries(CATALOGUES['es-MX']).filter(([, text]) => /\p{Ll}[,]? Correo\b/u.test(text));
    expect(midSentence).toEqual([]);
  });

  it('writes ID one way in each language (never "Id" or "id")', () => {
    for (const catalogue of Object.values(CATALOGUES)) {
      const other = Object.entries(catalogue).filter(([, text]) => /(?<![{\p{L}])(Id|id)s?(?![}\p{L}])/u.test(text));
      expect(other).toEqual([]);
    }
  });
});
