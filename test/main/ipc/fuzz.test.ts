// Fuzz every channel: wrong types, extra keys, __proto__, huge strings, bad amounts — all refused, no handler runs.
import { describe, expect, it } from 'vitest';
import { CHANNEL_NAMES, type Channel } from '../../../shared/ipc';
import { VALID_INPUTS, allowedCaller, door, trusted } from './fixtures';

function wrongTypes(value: unknown): unknown[] {
  if (typeof value === 'string') return [12345, {}, [], true, null];
  if (typeof value === 'number') return ['10', true, {}, null, [1]];
  if (typeof value === 'boolean') return ['yes', 1, null];
  // A list's wrong type is not an empty list (live:watch takes one: it watches nothing then).
  if (Array.isArray(value)) return ['card', 7, {}, null];
  if (typeof value === 'object' && value !== null) return ['card', 7, [], null];
  return [];
}

/** Inputs that must all be refused for this channel, each with a name for the report. */
function mutations(channel: Channel): [string, unknown][] {
  const valid = VALID_INPUTS[channel] as Record<string, unknown>;
  const out: [string, unknown][] = [
    ['null', null],
    ['an array', [valid]],
    ['a string', 'payments'],
    ['a number', 42],
    ['an extra key', { ...valid, extra: 1 }],
    ['a __proto__ key', { ...valid, ...(JSON.parse('{"__proto__": {"role": "admin"}}') as object) }],
    ['a constructor key', { ...valid, constructor: { prototype: { polluted: true } } }],
  ];
  // A CSV file may be large (5 MB); past that it is refused too.
  const HUGE_FILE = 'x'.repeat(5_242_881);
  for (const [key, value] of Object.entries(valid)) {
    for (const wrong of wrongTypes(value)) out.push([`${key} = ${JSON.stringify(wrong)}`, { ...valid, [key]: wrong }]);
    if (typeof value === 'string')
      out.push([`${key} huge`, { ...valid, [key]: key === 'csv' ? HUGE_FILE : 'x'.repeat(100_000) }]);
    if (key === 'amount' || key === 'installmentsCount') {
      for (const bad of [-1, 0, 0.001, 10.005, 1e12, Number.NaN, Number.POSITIVE_INFINITY, -0.01])
        out.push([`${key} = ${bad}`, { ...valid, [key]: bad }]);
    }
    if (key === 'card' && typeof value === 'object' && value !== null) {
      const card = value as Record<string, unknown>;
      for (const [field, fieldValue] of Object.entries(card)) {
        for (const wrong of wrongTypes(fieldValue))
          out.push([`card.${field} = ${JSON.stringify(wrong)}`, { ...valid, card: { ...card, [field]: wrong } }]);
        if (typeof fieldValue === 'string')
          out.push([`card.${field} huge`, { ...valid, card: { ...card, [field]: '4'.repeat(100_000) } }]);
      }
      out.push(['card with an extra key', { ...valid, card: { ...card, pin: '1234' } }]);
    }
  }
  return out;
}

describe.each(CHANNEL_NAMES)('%s', (channel) => {
  const who = allowedCaller(channel);

  it('refuses every malformed input with invalid_input, and its handler never runs', async () => {
    const { dispatch, calls } = door(who);
    const cases = mutations(channel);
    expect(cases.length).toBeGreaterThanOrEqual(7);
    const accepted: string[] = [];
    for (const [name, input] of cases) {
      const result = await dispatch(channel, trusted, input);
      if (result.ok || result.error.code !== 'invalid_input')
        accepted.push(`${name}: ${JSON.stringify(result).slice(0, 120)}`);
    }
    expect(accepted).toEqual([]);
    expect(calls).toEqual([]);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(({} as Record<string, unknown>)['role']).toBeUndefined();
  });
});
