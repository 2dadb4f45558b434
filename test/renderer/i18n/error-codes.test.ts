// Every error code main can send through the door has its sentence in both catalogues: the codes
// are found in main's own sources (each capability's code union, every `new …Error('code'`, the door's refusals, the
// service's codes as the simulator answers them), so a new code without words fails here before an agent reads English.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ApiError, describeError, knowsCode } from '../../../renderer/src/bridge/errors';
import { bindI18n } from '../../../renderer/src/i18n/bind';
import { CATALOGUES, placeholdersOf } from '../../../renderer/src/i18n/catalogue';
import { RESERVATION_ERROR_CODES } from '../../../shared/reservations';
import { TEXT_ISSUES } from '../../../shared/text';

const root = fileURLToPath(new URL('../../..', import.meta.url));

function sources(folder: string): string[] {
  return readdirSync(path.join(root, folder)).flatMap((name) => {
    const file = path.join(folder, name);
    return statSync(path.join(root, file)).isDirectory() ? sources(file) : file.endsWith('.ts') ? [file] : [];
  });
}

/** A source without its comments, so that a code named in a comment is not taken for one thrown. */
const code = (file: string): string =>
  readFileSync(path.join(root, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');

const SNAKE = /'([a-z]+(?:_[a-z]+)*)'/g;

/** Every code main can put into an IpcError, with the files that throw it. */
function mainCodes(): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  const add = (name: string, file: string): void => {
    found.set(name, (found.get(name) ?? new Set()).add(file));
  };
  for (const file of sources('main')) {
    const text = code(file);
    if (file.startsWith(path.join('main', 'sandbox'))) {
      // The service's own codes, as the simulator answers them: main passes them on as ServiceError codes.
      for (const m of text.matchAll(/fail\(\s*\d{3},\s*'([a-z_]+)'/g)) add(m[1] ?? '', file);
      continue;
    }
    for (const m of text.matchAll(/export type \w*ErrorCode\s*=([^;]*);/g))
      for (const l of (m[1] ?? '').matchAll(SNAKE)) add(l[1] ?? '', file);
    for (const m of text.matchAll(/extends UserError<'([a-z_]+)'>/g)) add(m[1] ?? '', file);
    // new ServiceError(kind, 'code', …): the kind is a literal or an expression.
    for (const m of text.matchAll(
      /new ServiceError\(\s*(?:'[a-z_]+'|[\w.]+|[^,]*\?[^,]*),\s*(?:[^,'?]*\?\s*)?'([a-z_]+)'/g,
    ))
      add(m[1] ?? '', file);
    for (const m of text.matchAll(/new (?!ServiceError|DeliveryError)\w+Error\(\s*'([a-z_]+)'/g)) add(m[1] ?? '', file);
    for (const m of text.matchAll(/refuse\(\s*'([a-z_]+)'/g)) add(m[1] ?? '', file);
  }
  for (const name of RESERVATION_ERROR_CODES) add(name, 'shared/reservations/view.ts');
  for (const name of Object.keys(TEXT_ISSUES)) add(name, 'shared/text');
  // The four card codes of the spec (§1), which the service answers and main passes on.
  for (const name of ['card_declined', 'insufficient_funds', 'expired_card', 'incorrect_cvc'])
    add(name, 'card-payment-service.md');
  return found;
}

describe('the error codes main can emit', () => {
  const codes = mainCodes();

  it('are found in main’s sources (the scan still works)', () => {
    // A sample from each kind of source: a code union, a ServiceError, the door, the simulator, the reservations list.
    for (const name of [
      'invalid_credentials',
      'refund_limit',
      'payment_abandoned',
      'network_error',
      'signed_out',
      'internal',
      'unavailable',
      'method_expired',
      'unreachable',
      'desk_id_damaged',
      'center_unavailable',
    ]) {
      expect(codes.has(name), name).toBe(true);
    }
    expect(codes.size).toBeGreaterThan(90);
  });

  it('each has words of its own in the catalogues', () => {
    const missing = [...codes.keys()]
      .filter((name) => !knowsCode(name))
      .map((name) => `${name} (${[...(codes.get(name) ?? [])].join(', ')})`);
    expect(missing).toEqual([]);
  });

  it('each is worded in Spanish and in English without main’s message, with no placeholder left unfilled', () => {
    const spanish = bindI18n('es-MX', () => undefined).t;
    const english = bindI18n('en-US', () => undefined).t;
    const englishMessage = 'MAIN SAID THIS IN ENGLISH';
    for (const name of codes.keys()) {
      const error = new ApiError({ code: name, message: englishMessage });
      for (const t of [spanish, english]) {
        const text = describeError(error, t);
        expect(text, name).not.toContain(englishMessage);
        expect(text, name).not.toMatch(/\{\w+\}/);
        expect(text, name).not.toContain('(code ');
        expect(text, name).not.toContain('(código ');
      }
    }
  });

  it('each error sentence has the same placeholders in both languages, and Spanish speaks to the agent as usted', () => {
    const keys = Object.keys(CATALOGUES['en-US']).filter((key) => key.startsWith('error.'));
    for (const key of keys) {
      const en = CATALOGUES['en-US'][key as keyof (typeof CATALOGUES)['en-US']];
      const es = CATALOGUES['es-MX'][key as keyof (typeof CATALOGUES)['es-MX']];
      expect(placeholdersOf(es).sort(), key).toEqual(placeholdersOf(en).sort());
      expect(es, key).not.toMatch(/\b(intenta|revisa|elige|escribe|avisa|inicia|tu|tus|puedes)\b/i);
    }
  });

  it('the whole Spanish catalogue speaks to the agent as usted: no tú pronoun, verb or command anywhere', () => {
    // Words only tú uses (a 3rd-person "espera" or "pide" is also usted's indicative, so they are not listed).
    const TU =
      /(?<![\p{L}])(tu|tus|te|ti|contigo|puedes|tienes|quieres|debes|necesitas|elige|intenta|corrige|di|haz|pon|ten|asegúrate|fíjate|recuerda|selecciona|presiona|ingresa)(?![\p{L}])/iu;
    // "TI" is IT (tecnologías de la información), not the pronoun.
    const informal = Object.entries(CATALOGUES['es-MX']).filter(([, text]) => TU.test(text.replaceAll('TI', '')));
    expect(informal).toEqual([]);
  });
});
