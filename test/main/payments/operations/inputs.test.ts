// The samples the engine parses at its start: each passes every check of its schema, and none is card data.
import { describe, expect, it } from 'vitest';
import { OPERATION_SCHEMAS } from '../../../../main/payments/operations/inputs';
import { findCardData } from '../../../../shared/text';

describe('the operation schemas compiled at the engine’s start', () => {
  it.each(OPERATION_SCHEMAS.map(([schema, sample], i) => [i, schema, sample] as const))(
    'sample %i passes its schema (every check of it runs)',
    (_i, schema, sample) => {
      const result = schema.safeParse(sample);
      expect(result.error?.issues).toBeUndefined();
      expect(result.success).toBe(true);
    },
  );

  it('holds no card number: its zeros are none (only the sample card’s own cvv field reads as a security code)', () => {
    const found = OPERATION_SCHEMAS.flatMap(([, sample]) => findCardData(JSON.stringify(sample)).map((m) => m.kind));
    expect(found).not.toContain('card_number');
  });
});
