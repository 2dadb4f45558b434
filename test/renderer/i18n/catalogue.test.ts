// The catalogues: es-MX has every en-US key with the same placeholders; interpolation fills them the language's way.
import { describe, expect, it } from 'vitest';
import {
  CATALOGUES,
  interpolate,
  placeholdersOf,
  translate,
  type MessageKey,
} from '../../../renderer/src/i18n/catalogue';
import { enUS } from '../../../renderer/src/i18n/messages.en-US';
import { esMX } from '../../../renderer/src/i18n/messages.es-MX';
import { DELIVERY_FAILURE_CODES, FAILURE_ACTORS } from '../../../shared/messaging';

const keys = (catalogue: object): string[] => Object.keys(catalogue).sort();
const enKeys = Object.keys(enUS) as MessageKey[];

describe('the catalogues', () => {
  it('have the same keys in es-MX and en-US', () => {
    expect(keys(esMX)).toEqual(keys(enUS));
    expect(enKeys.length).toBeGreaterThan(40);
  });

  it.each(enKeys)('%s has the same {placeholders} in both languages', (key) => {
    expect(placeholdersOf(esMX[key]).sort()).toEqual(placeholdersOf(enUS[key]).sort());
  });

  it('have no empty or untrimmed texts', () => {
    for (const catalogue of Object.values(CATALOGUES)) {
      for (const text of Object.values(catalogue)) {
        expect(text.trim()).not.toBe('');
        expect(text).toBe(text.trim());
      }
    }
  });

  it('are translated: a text is the same in both languages only when it has no words (or is listed here)', () => {
    /** Texts that are rightly the same in Spanish and English: brand names, codes. */
    // Words that are the same in Spanish: product and channel names, "Hotel", "Plan", "supervisor".
    const SAME_IN_BOTH = new Set<string>([
      'ws.sandbox',
      'audit.value.no',
      'role.supervisor',
      'reservation.hotel',
      'plans.choose',
      'result.plan',
      'link.channel.sms',
      'link.channel.whatsapp',
      'link.channelInText.sms',
      'link.channelInText.whatsapp',
    ]);
    const words = (text: string): boolean => /\p{L}/u.test(text.replace(/\{\w+\}/g, ''));
    const untranslated = enKeys.filter((key) => esMX[key] === enUS[key] && words(enUS[key]) && !SAME_IN_BOTH.has(key));
    expect(untranslated).toEqual([]);
    expect(esMX['card.summary']).toBe(enUS['card.summary']);
  });

  it('have the common group the screens share', () => {
    for (const key of [
      'common.cancel',
      'common.continue',
      'common.retry',
      'common.close',
      'common.loading',
      'common.requiredField',
    ] as const) {
      expect(enUS[key]).toBeTruthy();
      expect(esMX[key]).toBeTruthy();
    }
    expect(esMX['common.requiredField']).toBe('Este campo es obligatorio.');
  });

  it('speak the agent’s Mexican Spanish for the card fields', () => {
    expect(translate('es-MX', 'card.number.label')).toBe('Número de tarjeta');
    expect(translate('es-MX', 'card.expiry.label')).toBe('Vencimiento (MM/AA)');
    expect(translate('es-MX', 'card.cvc.label')).toBe('Código de seguridad (CVV)');
    expect(translate('es-MX', 'card.installments.legend')).toBe('Meses sin intereses (MSI)');
    expect(translate('en-US', 'card.number.label')).toBe('Card number');
  });
});

describe('the 3DS link’s delivery in words', () => {
  it('every failure has a sentence in both languages that says what to do next, and who can act is named', () => {
    for (const code of DELIVERY_FAILURE_CODES) {
      const key = `delivery.failure.${code}` as const;
      expect(enUS[key]).toMatch(/\.$/);
      expect(esMX[key]).toMatch(/\.$/);
      expect(esMX[key]).not.toBe(enUS[key]);
      expect(enUS[`link.actor.${FAILURE_ACTORS[code]}`]).toBeTruthy();
    }
  });

  it('the guest’s failures suggest another channel or number', () => {
    for (const code of DELIVERY_FAILURE_CODES.filter((c) => FAILURE_ACTORS[c] === 'guest')) {
      expect(enUS[`delivery.failure.${code}`]).toMatch(/another (channel|number)|by SMS or e-mail/);
      expect(esMX[`delivery.failure.${code}`]).toMatch(/otro (canal|número)|por SMS o por correo/);
    }
  });

  it('speak to the agent as "usted" in Spanish, never "tú"', () => {
    const informal = /\b(tú|usa|intenta|elige|pide|llama|verifícalo|envía|espera|pregunta|avisa|revisa)\b/i;
    const texts = Object.entries(esMX).filter(([key]) => key.startsWith('delivery.') || key.startsWith('link.'));
    expect(texts.length).toBeGreaterThan(40);
    expect(texts.filter(([, text]) => informal.test(text))).toEqual([]);
    expect(esMX['delivery.failure.unreachable']).toContain('Use otro canal');
  });
});

describe('placeholdersOf', () => {
  it('lists each placeholder once, in order of first use', () => {
    expect(placeholdersOf('{count} months of {amount}, {count} again')).toEqual(['count', 'amount']);
    expect(placeholdersOf('no placeholders')).toEqual([]);
  });
});

describe('interpolate', () => {
  it('fills every placeholder', () => {
    expect(translate('es-MX', 'card.installments.plan', { count: 3, amount: '$333.33 MXN' })).toBe(
      '3 meses de $333.33 MXN',
    );
    expect(translate('en-US', 'card.summary', { brand: 'Visa', last4: '4242' })).toBe('Visa •••• 4242');
  });

  it('writes numbers the language’s way', () => {
    expect(interpolate('{n}', { n: 1234.5 }, 'en-US')).toBe('1,234.5');
    expect(interpolate('{n}', { n: 12 }, 'es-MX')).toBe('12');
  });

  it('does not double the full stop after a value that ends with one (a Spanish time, "5:10 a.m.")', () => {
    expect(interpolate('Siguiente verificación a las {time}.', { time: '5:10:42 a.m.' }, 'es-MX')).toBe(
      'Siguiente verificación a las 5:10:42 a.m.',
    );
    expect(interpolate('Next check at {time}.', { time: '5:10:42 PM' }, 'en-US')).toBe('Next check at 5:10:42 PM.');
    expect(interpolate('{a}... {b}', { a: 'x.', b: 'y' }, 'en-US')).toBe('x.... y');
  });

  it('leaves a placeholder without a value visible rather than dropping it', () => {
    expect(interpolate('{brand} •••• {last4}', { brand: 'Visa' }, 'en-US')).toBe('Visa •••• {last4}');
  });

  it('never fills a placeholder from the object prototype', () => {
    expect(interpolate('{constructor} {toString}', {}, 'en-US')).toBe('{constructor} {toString}');
  });

  it('leaves the text as it is without values', () => {
    expect(interpolate('{a} b', undefined, 'en-US')).toBe('{a} b');
  });
});
