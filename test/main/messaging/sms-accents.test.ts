// The guest's SMS in Spanish reads as Spanish: its words need no character GSM-7 lacks (so it keeps every accent it
// has and still goes as GSM-7), and each message is decided as a whole — with its accents when they cost no more
// segments than without them, without them (gsmFriendly) only when they would.
import { describe, expect, it } from 'vitest';
import { renderMessage, renderReceipt, smsSegments, smsText } from '../../../main/messaging';

// A link as long as the simulator's challenge links.
const LINK = 'https://acs.bank.example/challenge/5f1Qm2Zb8rJ0yT7kW4xV9cN3hL6dP1sA';
const data = {
  hotelName: 'Hotel Casa Azul',
  amount: 1234.5,
  currency: 'mxn',
  brand: 'visa',
  last4: '3220',
  link: LINK,
};
/** Words written without the accent Spanish needs on them (what gsmFriendly makes of "terminación", "confírmelo"…). */
const STRIPPED = /\b(terminacion|confirmelo|autorizacion|informacion|aqui|numero)\b/i;

describe('Spanish SMS', () => {
  it('the payment link: proper Spanish, GSM-7, two segments', () => {
    const text = renderMessage('sms', 'es-MX', data).text;
    expect(text).toBe(
      `Hotel Casa Azul: para completar su pago de $1,234.50 MXN con su tarjeta Visa que termina en 3220, confirme el cargo con su banco en este enlace: ${LINK}`,
    );
    expect(text).not.toMatch(STRIPPED);
    expect(smsSegments(text)).toEqual({ encoding: 'GSM-7', segments: 2 });
  });

  it('the receipt: proper Spanish, GSM-7, two segments (UCS-2 would take three)', () => {
    const text = renderReceipt('sms', 'es-MX', {
      hotelName: 'Hotel Casa Azul',
      amount: 1250.5,
      currency: 'mxn',
      brand: 'visa',
      last4: '4242',
      reference: '9F3A-1B2C',
    }).text;
    expect(text).toBe(
      'Hotel Casa Azul: recibimos su pago de $1,250.50 MXN con su tarjeta Visa que termina en 4242. Referencia: 9F3A-1B2C. Gracias. Conserve este mensaje como comprobante.',
    );
    expect(text).not.toMatch(STRIPPED);
    expect(smsSegments(text)).toEqual({ encoding: 'GSM-7', segments: 2 });
  });
});

describe('accents, decided per message', () => {
  it('kept when they cost no more segments (a short text, or one that is UCS-2 anyway)', () => {
    expect(smsText('Río: listo.')).toBe('Río: listo.');
    const tokyo = renderMessage('sms', 'es-MX', { ...data, hotelName: 'Hotel Río ホテル' }).text;
    expect(tokyo.startsWith('Hotel Río ホテル:')).toBe(true);
  });

  it('dropped when they would bill the message as more segments, the link untouched', () => {
    const text = renderMessage('sms', 'es-MX', { ...data, hotelName: 'Hotel Río Azul' }).text;
    expect(text.startsWith('Hotel Rio Azul:')).toBe(true);
    expect(smsSegments(text)).toEqual({ encoding: 'GSM-7', segments: 2 });
    expect(text.endsWith(LINK)).toBe(true);
  });
});
