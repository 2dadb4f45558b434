// Generated from the contract: every string field of every channel's input, given a card number (20 spellings) or a
// CVV, is refused at the door with the field named — free text by the shared detector, formats by their own shape.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CHANNELS, CHANNEL_NAMES, type Channel } from '../../../shared/ipc';
import { CARD_SPELLINGS, CVV_PHRASES } from '../../shared/text/spellings';
import { VALID_INPUTS, allowedCaller, door, trusted } from './fixtures';

/** String fields that may hold anything, each for a reason; every other string field is checked below. */
const EXEMPT: Partial<Record<Channel, Record<string, string>>> = {
  'session:signIn': { password: 'hashed with scrypt, never stored or logged as typed' },
  'session:createFirstAdmin': { password: 'hashed with scrypt, never stored or logged as typed' },
  'operators:create': { password: 'hashed with scrypt, never stored or logged as typed' },
  'operators:resetPassword': { password: 'hashed with scrypt, never stored or logged as typed' },
  'refunds:override': { approverPassword: 'checked against the hash, never stored or logged as typed' },
  'payments:tokenize': { 'card.number': 'the card form itself', 'card.cvv': 'the card form itself' },
  'reservations:importCsv': {
    csv: 'a whole file: checked cell by cell, each card number refused by line and column (test/main/reservations/csv.test.ts)',
  },
};

/** The free-text fields the detector guards: a new one must be added here (and is, by this test failing). */
const GUARDED = [
  'messaging:sendLink destination',
  'messaging:sendReceipt destination',
  'operators:create displayName',
  'operators:create id',
  'operators:resetPassword id',
  'operators:update id',
  'payments:pay note',
  'payments:pay reservationId',
  'payments:search guestName',
  'payments:search operatorId',
  'payments:search paymentId',
  'payments:search reservationId',
  'payments:tokenize card.holderName',
  'payments:tokenize guestEmail',
  'payments:tokenize reservationId',
  'refunds:override approverId',
  'refunds:reject note',
  'refunds:request note',
  'reservations:get reservationId',
  'reservations:overview reservationId',
  'reservations:search text',
  'session:createFirstAdmin displayName',
  'session:createFirstAdmin id',
  'session:signIn id',
  'audit:exportCsv action',
  'audit:exportCsv actor',
  'audit:exportCsv resource',
  'audit:list action',
  'audit:list actor',
  'audit:list resource',
].sort();

interface JsonSchema {
  type?: string;
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
}

/** Every string leaf of a channel's input (closed choices left out), as paths. */
function stringFields(schema: JsonSchema, prefix: string[] = []): string[][] {
  if (schema.type === 'object')
    return Object.entries(schema.properties ?? {}).flatMap(([key, child]) => stringFields(child, [...prefix, key]));
  return schema.type === 'string' && schema.enum === undefined ? [prefix] : [];
}

function withField(base: unknown, path: readonly string[], value: string): unknown {
  const [head, ...rest] = path;
  const record = (typeof base === 'object' && base !== null ? base : {}) as Record<string, unknown>;
  if (head === undefined) return value;
  return { ...record, [head]: rest.length === 0 ? value : withField(record[head], rest, value) };
}

const fields = CHANNEL_NAMES.flatMap((channel) =>
  stringFields(z.toJSONSchema(CHANNELS[channel].input, { io: 'input', unrepresentable: 'any' }) as JsonSchema)
    .map((path) => ({ channel, path, name: path.join('.') }))
    .filter(({ channel: c, name }) => EXEMPT[c]?.[name] === undefined),
);

describe('card data in the contract’s string fields', () => {
  it('finds the string fields (a sanity check on the walk)', () => {
    expect(fields.length).toBeGreaterThanOrEqual(GUARDED.length);
    expect(fields.map((f) => `${f.channel} ${f.name}`)).toEqual(
      expect.arrayContaining(['payments:pay note', 'session:signIn id']),
    );
  });

  it.each(fields)(
    '$channel $name: a card number in any of 20 spellings, or a CVV, is refused, the field named',
    async ({ channel, path, name }) => {
      const { dispatch, calls } = door(allowedCaller(channel));
      const base = VALID_INPUTS[channel];
      const probes = [
        ...CARD_SPELLINGS.map((s) => ({ text: s.text, code: 'card_number_in_text' })),
        ...CVV_PHRASES.slice(0, 3).map((p) => ({ text: p.text, code: 'security_code_in_text' })),
      ];
      const answers = await Promise.all(
        probes.map(async (probe) => ({
          probe,
          result: await dispatch(channel, trusted, withField(base, path, probe.text)),
        })),
      );
      const accepted = answers.filter(({ result }) => result.ok).map(({ probe }) => probe.text);
      expect(accepted).toEqual([]);
      expect(calls).toEqual([]);
      expect(answers.every(({ result }) => !result.ok && result.error.field === name)).toBe(true);
      // Free text (it takes an ordinary word) says why: the card message. A format (an id, a date) refuses its own way.
      const takesWords = (await dispatch(channel, trusted, withField(base, path, 'Nota'))).ok;
      const codes = new Set(answers.map(({ result }) => (result.ok ? 'ok' : result.error.code)));
      if (takesWords || GUARDED.includes(`${channel} ${name}`)) {
        expect(GUARDED).toContain(`${channel} ${name}`);
        for (const { probe, result } of answers) {
          expect(result, probe.text).toEqual({ ok: false, error: { code: probe.code, field: name } });
        }
      } else {
        expect(codes.has('card_number_in_text')).toBe(false);
      }
    },
  );

  it('the guarded fields are exactly those listed', async () => {
    const guarded: string[] = [];
    for (const { channel, path, name } of fields) {
      const { dispatch } = door(allowedCaller(channel));
      const result = await dispatch(
        channel,
        trusted,
        withField(VALID_INPUTS[channel], path, CARD_SPELLINGS[1]?.text ?? ''),
      );
      if (!result.ok && result.error.code === 'card_number_in_text') guarded.push(`${channel} ${name}`);
    }
    expect(guarded.sort()).toEqual(GUARDED);
  });

  it('ordinary text with numbers in it still passes: a phone, an amount, a date, a reservation number', async () => {
    const { dispatch } = door(allowedCaller('payments:pay'));
    const note = 'Tel. +52 998 123 4567; cobrar 12,450.00 MXN del 2026-03-14 al 2026-03-18 (CUN-6B3D8F)';
    expect(
      await dispatch('payments:pay', trusted, { ...(VALID_INPUTS['payments:pay'] as object), note }),
    ).toMatchObject({ ok: true });
  });
});

describe('control and text-direction characters in names and ids', () => {
  it.each([
    ['operators:create', 'displayName', 'Sam\u202Enimda'],
    ['operators:create', 'id', 'sam\u200F'],
    ['session:signIn', 'id', 'ana\u0000'],
    ['refunds:override', 'approverId', '\u2066sam\u2069'],
    ['reservations:get', 'reservationId', 'CUN-6B3D8F\u202E'],
    ['payments:pay', 'note', 'ok \u202Eevil'],
  ] as const)('%s %s is refused with hidden_characters, the field named', async (channel, field, text) => {
    const { dispatch, calls } = door(allowedCaller(channel));
    expect(await dispatch(channel, trusted, { ...(VALID_INPUTS[channel] as object), [field]: text })).toEqual({
      ok: false,
      error: {
        code: 'hidden_characters',
        field,
      },
    });
    expect(calls).toEqual([]);
  });
});
