// Where card data cannot go, checked on the card folder's source: no store, no query cache, no web storage, no
// console, no messaging out of the page; and the prop callbacks other than `tokenize` receive no card data. (The payment
// feature's tokenize is a plain callback, never a react-query mutation: see test/renderer/features/payment/api.test.tsx.)
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const folder = join(import.meta.dirname, '../../../../../../renderer/src/features/payment/ui/card');
const sources = readdirSync(folder)
  .filter((name) => /\.tsx?$/.test(name))
  .map((name) => ({ name, text: readFileSync(join(folder, name), 'utf8') }));

describe('the card folder', () => {
  it('holds the form', () => {
    expect(sources.map((source) => source.name)).toContain('CardCapture.tsx');
  });

  it.each([
    ['zustand', /from ['"]zustand/],
    ['react-query', /from ['"]@tanstack\//],
    ['localStorage', /\blocalStorage\b/],
    ['sessionStorage', /\bsessionStorage\b/],
    ['indexedDB', /\bindexedDB\b/],
    ['cookies', /document\.cookie/],
    ['console', /\bconsole\./],
    ['postMessage', /\bpostMessage\b/],
    ['window.api', /window\.api\b/],
    ['the clipboard API', /navigator\.clipboard/],
  ])('never uses %s', (_, pattern) => {
    for (const { name, text } of sources)
      expect(`${name}: ${pattern.test(text) ? 'uses it' : 'clean'}`).toBe(`${name}: clean`);
  });

  it('emits only cta_clicked with a button name through onEvent', () => {
    const form = sources.find((source) => source.name === 'CardCapture.tsx')?.text ?? '';
    const calls = Array.from(form.matchAll(/onEvent\?\.\(([^)]*)\)/g), (match) => match[1]);
    expect(calls).toEqual([
      "{ type: 'cta_clicked', button: 'continue' }",
      "{ type: 'cta_clicked', button: 'save_method' }",
    ]);
  });

  it('tells onCardDataPresent a yes or no only', () => {
    const form = sources.find((source) => source.name === 'CardCapture.tsx')?.text ?? '';
    const presence = sources.find((source) => source.name === 'presence.ts')?.text ?? '';
    expect(form).not.toMatch(/onCardDataPresent\?*\.?\(/);
    expect(Array.from(presence.matchAll(/listener\?\.\(([^)]*)\)/g), (match) => match[1])).toEqual([
      'present',
      'false',
    ]);
    expect(presence).toMatch(/update\(present, listener\)/);
  });

  it('builds the card in one place, and hands it to tokenize and to nothing else (brand and last 4 are read from it for the summary)', () => {
    expect(sources.filter((source) => /buildCardInput\(/.test(source.text)).map((source) => source.name)).toEqual([
      'fields.ts',
      'useCardOperations.ts',
    ]);
    const operations = sources.find((source) => source.name === 'useCardOperations.ts')?.text ?? '';
    const uses = operations.match(/built\.card\b/g) ?? [];
    const calls = Array.from(
      operations.matchAll(/(\w+)\(built\.card(\.number)?\)/g),
      (match) => `${match[1]}(${match[2] ? 'number' : 'card'})`,
    );
    expect(calls.length).toBe(uses.length);
    expect(new Set(calls)).toEqual(new Set(['tokenize(card)', 'cardBrand(number)', 'lastFour(number)']));
  });
});
