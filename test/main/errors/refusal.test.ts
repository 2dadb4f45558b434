// A refusal is a code with its field and params: zodRefusal reads a failed parse once for every module, and a UserError
// crosses the door without a sentence (the renderer words it), its code and params kept for the logs.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { UserError, zodRefusal, type UserErrorOptions } from '../../../main/errors';
import { freeText } from '../../../shared/text';

class TestError extends UserError<'test_refusal'> {
  constructor(options?: UserErrorOptions) {
    super('test_refusal', options);
  }
}

const CARD = '4242 4242 4242 4242';

describe('zodRefusal', () => {
  const schema = z.strictObject({ amountCents: z.number().int(), card: z.object({ holderName: freeText() }) });
  const fail = (input: unknown): z.ZodError => {
    const parsed = schema.safeParse(input);
    if (parsed.success) throw new Error('the input was expected to fail');
    return parsed.error;
  };

  it('names the first issue’s field, dotted, with the code asked for and none of zod’s English', () => {
    expect(zodRefusal(fail({ amountCents: 1.5, card: { holderName: 'Ana' } }), 'invalid_input')).toEqual({
      code: 'invalid_input',
      field: 'amountCents',
    });
    expect(zodRefusal(fail({ amountCents: 1, card: {} }), 'invalid_request')).toEqual({
      code: 'invalid_request',
      field: 'card.holderName',
    });
  });

  it('keeps the free-text check’s own code (card data in a name)', () => {
    expect(zodRefusal(fail({ amountCents: 1, card: { holderName: CARD } }), 'invalid_input')).toEqual({
      code: 'card_number_in_text',
      field: 'card.holderName',
    });
  });

  it('names an unknown key, unless it could not be a field’s name (card data, too long)', () => {
    const base = { amountCents: 1, card: { holderName: 'Ana' } };
    expect(zodRefusal(fail({ ...base, extra: 1 }), 'invalid_input')).toEqual({ code: 'invalid_input', field: 'extra' });
    expect(zodRefusal(fail({ ...base, [CARD]: 1 }), 'invalid_input')).toEqual({ code: 'invalid_input' });
    expect(zodRefusal(fail({ ...base, ['k'.repeat(65)]: 1 }), 'invalid_input')).toEqual({ code: 'invalid_input' });
  });

  it('puts the value where it sits first: the field of a value parsed alone', () => {
    const parsed = z.string().min(2).safeParse('a');
    if (parsed.success) throw new Error('the input was expected to fail');
    expect(zodRefusal(parsed.error, 'invalid_query', ['reservationId'])).toEqual({
      code: 'invalid_query',
      field: 'reservationId',
    });
    expect(zodRefusal(parsed.error, 'invalid_query')).toEqual({ code: 'invalid_query' });
  });
});

describe('UserError', () => {
  it('crosses the door as its code, field and params, never a sentence', () => {
    const error = new TestError({ field: 'amountCents', params: { limitCents: 5000, currency: 'usd' } });
    expect(error.toIpcError()).toEqual({
      code: 'test_refusal',
      field: 'amountCents',
      params: { limitCents: 5000, currency: 'usd' },
    });
    expect(new TestError().toIpcError()).toEqual({ code: 'test_refusal' });
  });

  it('keeps its code, field and params as its message, for the logs', () => {
    expect(new TestError({ field: 'amountCents', params: { limitCents: 5000 } }).message).toBe(
      'test_refusal [amountCents] {"limitCents":5000}',
    );
    expect(new TestError().message).toBe('test_refusal');
  });
});
