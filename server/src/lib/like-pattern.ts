import { sql, type RawBuilder } from 'kysely';

/** The escape character of our LIKE patterns: not backslash, whose meaning differs between MySQL and the others. */
const escapeCharacter = '!';

/** A LIKE pattern matching values that start with `prefix`, its `%`, `_` and `!` taken literally. */
export function prefixPattern(prefix: string): string {
  return `${prefix.replace(/[!%_]/g, (character) => escapeCharacter + character)}%`;
}

/**
 * `column LIKE '<prefix>%' ESCAPE '!'`, portable across SQLite, PostgreSQL and MySQL. The keyword is a bound
 * parameter, so SQL metacharacters in it are data, and LIKE wildcards in it match only themselves.
 */
export function startsWith(column: string, prefix: string): RawBuilder<boolean> {
  return sql<boolean>`${sql.ref(column)} like ${prefixPattern(prefix)} escape ${sql.lit(escapeCharacter)}`;
}
