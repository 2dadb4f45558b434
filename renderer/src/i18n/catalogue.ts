/** The typed message catalogue: keys from en-US, es-MX checked against them, `{name}` interpolation. */
import type { Language } from '../../../shared/language';
import { enUS } from './messages.en-US';
import { esMX } from './messages.es-MX';

type Source = typeof enUS;

/** Every message the UI can show; en-US is the source of the keys. */
export type MessageKey = keyof Source;

type PlaceholdersIn<S extends string> = S extends `${string}{${infer Name}}${infer Rest}`
  ? Name | PlaceholdersIn<Rest>
  : never;

/** The `{name}` placeholders of a message, read from its en-US text. */
export type Placeholders<K extends MessageKey> = PlaceholdersIn<Source[K]>;

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

/** A string holding every placeholder in P (any text around them, in any order). */
type Containing<P extends string> = [P] extends [never]
  ? string
  : UnionToIntersection<P extends string ? `${string}{${P}}${string}` : never>;

/**
 * A complete catalogue: every key, each text carrying the en-US text's placeholders.
 * A missing key, an unknown key or a dropped `{placeholder}` fails the type check.
 */
export type Catalogue = { readonly [K in MessageKey]: Containing<Placeholders<K>> };

/** One feature's part of the es-MX catalogue: exactly the keys of its en-US part S, each text carrying their placeholders. */
export type CataloguePart<S> = { readonly [K in keyof S & MessageKey]: Containing<Placeholders<K>> };

/** The values a message needs, by placeholder name. */
export type Vars<K extends MessageKey> = { readonly [P in Placeholders<K>]: string | number };

/** Keys of messages without placeholders, and of messages with them. */
export type PlainKey = { [K in MessageKey]: [Placeholders<K>] extends [never] ? K : never }[MessageKey];
export type TemplateKey = Exclude<MessageKey, PlainKey>;

/** `t(key)` for a message without placeholders; `t(key, vars)`, every placeholder required, for one with. */
export interface Translate {
  (key: PlainKey): string;
  <K extends TemplateKey>(key: K, vars: Vars<K>): string;
}

export const CATALOGUES: { readonly [L in Language]: Catalogue } = { 'en-US': enUS, 'es-MX': esMX };

/** The languages the desk speaks, Spanish first (the default), each named in its own language for a switcher. */
export const LANGUAGES: readonly Language[] = ['es-MX', 'en-US'];
export const LANGUAGE_NAMES: { readonly [L in Language]: string } = {
  'es-MX': 'Español (México)',
  'en-US': 'English (US)',
};

const PLACEHOLDER = /\{(\w+)\}/g;

/** The placeholder names a text uses, in order of first use. */
export function placeholdersOf(text: string): string[] {
  return [...new Set(Array.from(text.matchAll(PLACEHOLDER), (match) => match[1] ?? ''))];
}

/**
 * Fills `{name}` with `vars.name`; numbers are written the language's way. A placeholder without a value
 * stays visible as `{name}` so that the gap is noticed rather than silently dropped.
 */
export function interpolate(
  text: string,
  vars: Readonly<Record<string, string | number>> | undefined,
  language: Language,
): string {
  if (!vars) return text;
  return text.replace(PLACEHOLDER, (whole, name: string, offset: number) => {
    const value = Object.hasOwn(vars, name) ? vars[name] : undefined;
    if (value === undefined) return whole;
    const shown = typeof value === 'number' ? new Intl.NumberFormat(language).format(value) : value;
    // A value that ends a sentence itself ("5:10 a.m.") is not followed by the sentence's own full stop again.
    return shown.endsWith('.') &&
      text.charAt(offset + whole.length) === '.' &&
      text.charAt(offset + whole.length + 1) !== '.'
      ? shown.slice(0, -1)
      : shown;
  });
}

/** The message for a key in a language, with its placeholders filled (unchecked: use `translate` or `t`). */
export const messageFor = (
  language: Language,
  key: MessageKey,
  vars?: Readonly<Record<string, string | number>>,
): string => interpolate(CATALOGUES[language][key], vars, language);

/** The message for a key in a language, with its placeholders filled. */
export function translate(language: Language, key: PlainKey): string;
export function translate<K extends TemplateKey>(language: Language, key: K, vars: Vars<K>): string;
export function translate(
  language: Language,
  key: MessageKey,
  vars?: Readonly<Record<string, string | number>>,
): string {
  return messageFor(language, key, vars);
}
