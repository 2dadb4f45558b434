// Main's refusals in the renderer: a free-text refusal as the agent reads it (in the desk's language, the field named by
// its label on screen), and which refusals leave an operation open to be sent again with the same id.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError, describeError, FIELD_LABELS, isRetryable, textProblem } from '../../../renderer/src/bridge/errors';
import { PaymentNote } from '../../../shared/payments';
import { bindI18n } from '../../../renderer/src/i18n/bind';
import { CHANNELS, CHANNEL_NAMES } from '../../../shared/ipc';
import { textIssueCode, TEXT_ISSUES } from '../../../shared/text';
import { VALID_INPUTS } from '../../main/ipc/fixtures';

const inSpanish = bindI18n('es-MX', () => undefined).t;
const inEnglish = bindI18n('en-US', () => undefined).t;

const refusal = (code: string, field?: string) =>
  new ApiError({
    code,
    message: code in TEXT_ISSUES ? TEXT_ISSUES[code as keyof typeof TEXT_ISSUES] : 'Main said so.',
    ...(field ? { field } : {}),
  });

describe('describeError', () => {
  it('a card number in the payment note, in Spanish (usted) and in English, the field named', () => {
    expect(describeError(refusal('card_number_in_text', 'note'), inSpanish)).toBe(
      'Nota: esto parece un número de tarjeta. Los números de tarjeta se escriben solo en el formulario de la tarjeta.',
    );
    expect(describeError(refusal('card_number_in_text', 'note'), inEnglish)).toBe(
      'Note: this looks like a card number. Card numbers go only in the card form.',
    );
  });

  it('a CVV, and hidden characters, each in its own words', () => {
    expect(describeError(refusal('security_code_in_text', 'destination'), inEnglish)).toBe(
      'Where to send the link: this looks like a card’s security code. The security code goes only in the card form.',
    );
    expect(describeError(refusal('hidden_characters', 'displayName'), inSpanish)).toBe(
      'Nombre: tiene caracteres invisibles de control o de dirección del texto. Escríbalo de nuevo sin ellos.',
    );
  });

  it('any other refusal is worded from the catalogues by its code, never in main’s words; an error that is not a refusal gets the generic sentence', () => {
    expect(describeError(refusal('forbidden'), inSpanish)).toBe('Su rol no permite hacer esto.');
    expect(describeError(refusal('no_such_code_yet'), inSpanish)).toBe(
      'La aplicación no pudo hacer esto (código no_such_code_yet). Intente de nuevo; si vuelve a ocurrir, avise a TI.',
    );
    expect(describeError(new Error('boom'), inEnglish)).toMatch(/^Something went wrong in the app/);
  });

  it('fills a message from main’s params: amounts in the desk’s format, the role by its name, minutes', () => {
    const limit = new ApiError({
      code: 'refund_limit',
      message: 'This refund is $600.00 USD…',
      field: 'amountCents',
      params: { amountCents: 60000, limitCents: 50000, currency: 'usd', role: 'supervisor' },
    });
    expect(describeError(limit, inEnglish)).toBe(
      'This refund is $600.00 USD; as supervisor you may refund up to $500.00 USD at a time. An administrator must make it.',
    );
    expect(describeError(limit, inSpanish)).toMatch(
      /^Este reembolso es de \$600\.00 USD; como supervisor puede reembolsar hasta \$500\.00 USD por vez/,
    );
    expect(
      describeError(
        new ApiError({ code: 'locked', message: 'Locked for 5 minutes.', params: { minutes: 5 } }),
        inSpanish,
      ),
    ).toMatch(/Intente de nuevo en 5 min/);
    // The same code without its params (a setting IT locked): the sentence that needs none.
    expect(
      describeError(
        new ApiError({ code: 'locked', message: 'IT manages this setting.', field: 'language' }),
        inSpanish,
      ),
    ).toBe('TI administra este ajuste: no se puede cambiar aquí.');
  });

  it('every field the contract guards has a label on screen, in both languages', () => {
    // The guarded fields, found from the contract itself: a card number there is refused with card_number_in_text.
    const guarded = new Set<string>();
    for (const channel of CHANNEL_NAMES) {
      const schema = z.toJSONSchema(CHANNELS[channel].input, { io: 'input', unrepresentable: 'any' }) as {
        properties?: Record<string, { type?: string; properties?: Record<string, unknown> }>;
      };
      const paths = Object.entries(schema.properties ?? {}).flatMap(([key, child]) =>
        child.type === 'object' ? Object.keys(child.properties ?? {}).map((sub) => [key, sub]) : [[key]],
      );
      for (const path of paths) {
        const base = VALID_INPUTS[channel] as Record<string, unknown>;
        const input =
          path.length === 1
            ? { ...base, [path[0] ?? '']: '4242 4242 4242 4242' }
            : {
                ...base,
                [path[0] ?? '']: { ...(base[path[0] ?? ''] as object), [path[1] ?? '']: '4242 4242 4242 4242' },
              };
        const issue = CHANNELS[channel].input.safeParse(input).error?.issues[0];
        if (textIssueCode(issue) === 'card_number_in_text') guarded.add(path.join('.'));
      }
    }
    expect(guarded.size).toBeGreaterThan(10);
    const missing = [...guarded].filter((field) => !Object.hasOwn(FIELD_LABELS, field));
    expect(missing).toEqual([]);
    for (const field of guarded) {
      const spanish = describeError(refusal('card_number_in_text', field), inSpanish);
      expect(spanish.startsWith(`${field}:`), field).toBe(false);
      expect(spanish).toMatch(/^[^:]+: esto parece un número de tarjeta/);
    }
  });
});

describe('textProblem', () => {
  it('checks a note with the contract’s own schema before anything is sent: a card number is said at once, ordinary text passes', () => {
    expect(textProblem(PaymentNote, 'Pagó con 4242 4242 4242 4242', 'note', inSpanish)).toBe(
      'Nota: esto parece un número de tarjeta. Los números de tarjeta se escriben solo en el formulario de la tarjeta.',
    );
    expect(textProblem(PaymentNote, 'Depósito; tel. +52 998 123 4567', 'note', inSpanish)).toBeUndefined();
    // Other problems (a note too long) are main's to say when it is sent.
    expect(textProblem(PaymentNote, 'x'.repeat(600), 'note', inEnglish)).toBeUndefined();
  });
});

describe('isRetryable', () => {
  it('a lost or late answer keeps the attempt open; a refusal ends it', () => {
    expect(isRetryable(new ApiError({ code: 'network_error', message: 'x' }))).toBe(true);
    expect(isRetryable(new ApiError({ code: 'timeout', message: 'x' }))).toBe(true);
    expect(isRetryable(new Error('bridge gone'))).toBe(true);
    expect(isRetryable(new ApiError({ code: 'refund_limit', message: 'x' }))).toBe(false);
    expect(isRetryable(new ApiError({ code: 'forbidden', message: 'x' }))).toBe(false);
    expect(isRetryable(new ApiError({ code: 'refund_exceeds_remaining', message: 'x' }))).toBe(false);
  });
});
