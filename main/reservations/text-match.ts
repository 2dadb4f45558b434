/**
 * The parts of a reservation search that each backend's own text search decides (RANK): SQLite's FTS5 tables, or
 * PostgreSQL's LIKE on search_text served by pg_trgm's indexes.
 */
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { MIN_FRAGMENT_CHARS, type QueryKeys } from './match';
import { CENTER_SCHEMA } from './schema';

const likeEscape = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The conditions of a search that each backend's own text search decides (RANK); undefined where the text has none. */
export interface TextMatch {
  phoneStart?: RawBuilder<SqlBool>;
  reference?: RawBuilder<SqlBool>;
  /** Every word typed is a whole word of the name. */
  nameWords?: RawBuilder<SqlBool>;
  /** Every word typed starts a word of the name. */
  nameWordStart?: RawBuilder<SqlBool>;
  /** Every word typed is in the name (MIN_FRAGMENT_CHARS or more), or starts a word of it (shorter): the least a name match is. */
  nameContains?: RawBuilder<SqlBool>;
}

const and = (conditions: RawBuilder<SqlBool>[]): RawBuilder<SqlBool> =>
  sql<SqlBool>`(${sql.join(conditions, sql` AND `)})`;

/** An FTS5 string: the text in double quotes, its own doubled (the words and keys hold letters and digits only, mostly). */
const ftsString = (text: string): string => `"${text.replace(/"/g, '""')}"`;

/** SQLite: FTS5 MATCH on the tables 0004_search keeps (words by their start, trigram parts). */
export function sqliteMatch(keys: QueryKeys): TextMatch {
  const inTable = (table: 'reservation_words' | 'reservation_fragments', query: string): RawBuilder<SqlBool> =>
    sql<SqlBool>`rowid IN (SELECT rowid FROM ${sql.table(table)} WHERE ${sql.table(table)} MATCH ${query})`;
  const match: TextMatch = {};
  if (keys.phoneDigits !== undefined)
    match.phoneStart = inTable('reservation_words', `{phone_national phone_digits} : ${ftsString(keys.phoneDigits)}*`);
  if (keys.reference !== undefined)
    match.reference = inTable('reservation_fragments', `reference : ${ftsString(keys.reference)}`);
  if (keys.words.length === 0) return match;
  const all = (each: (word: string) => string): string => `name : (${keys.words.map(each).join(' AND ')})`;
  match.nameWords = inTable('reservation_words', all(ftsString));
  match.nameWordStart = inTable(
    'reservation_words',
    all((word) => `${ftsString(word)}*`),
  );
  // The trigram index finds a part of 3 characters or more; a shorter word must start a word of the name.
  const long = keys.words.filter((word) => word.length >= MIN_FRAGMENT_CHARS);
  const short = keys.words.filter((word) => word.length < MIN_FRAGMENT_CHARS);
  match.nameContains = and([
    ...(long.length === 0 ? [] : [inTable('reservation_fragments', `name : (${long.map(ftsString).join(' AND ')})`)]),
    ...(short.length === 0
      ? []
      : [inTable('reservation_words', `name : (${short.map((word) => `${ftsString(word)}*`).join(' AND ')})`)]),
  ]);
  return match;
}

/** PostgreSQL: LIKE on search_name (search_text, unaccent) and the confirmation key, served by pg_trgm's indexes (0002_search). */
export function postgresMatch(keys: QueryKeys): TextMatch {
  const match: TextMatch = {};
  const escape = '\\';
  if (keys.phoneDigits !== undefined) {
    const start = `${keys.phoneDigits}%`;
    match.phoneStart = sql<SqlBool>`(phone_national LIKE ${start} OR phone_digits LIKE ${start})`;
  }
  if (keys.reference !== undefined)
    match.reference = sql<SqlBool>`confirmation_key LIKE ${`%${likeEscape(keys.reference)}%`} ESCAPE ${escape}`;
  if (keys.words.length === 0) return match;
  // Each word folded by the center's own search_text; what is left are letters and digits, never a LIKE wildcard.
  const folded = (word: string) => sql<string>`${sql.table(`${CENTER_SCHEMA}.search_text`)}(${word})`;
  const startsWord = (word: string) =>
    sql<SqlBool>`(search_name LIKE ${folded(word)} || '%' OR search_name LIKE '% ' || ${folded(word)} || '%')`;
  match.nameWords = and(
    keys.words.map((word) => sql<SqlBool>`(' ' || search_name || ' ') LIKE '% ' || ${folded(word)} || ' %'`),
  );
  match.nameWordStart = and(keys.words.map(startsWord));
  match.nameContains = and(
    keys.words.map((word) =>
      word.length >= MIN_FRAGMENT_CHARS
        ? sql<SqlBool>`search_name LIKE '%' || ${folded(word)} || '%'`
        : startsWord(word),
    ),
  );
  return match;
}
