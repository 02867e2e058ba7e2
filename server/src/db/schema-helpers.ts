import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';
import type { DialectName } from './connect.js';

export type ColumnKind =
  'id' | 'int' | 'bigint' | 'bool' | 'double' | 'text' | 'string' | `varchar(${number})` | 'char(32)' | 'char(48)';

/** name, kind, default value (omitted for text: MySQL refuses defaults on TEXT). */
export type ColumnSpec = readonly [name: string, kind: ColumnKind, defaultValue?: string | number | boolean | null];

function dataType(kind: ColumnKind, dialect: DialectName) {
  switch (kind) {
    case 'id':
      return dialect === 'postgres' ? 'serial' : 'integer';
    case 'int':
      return 'integer';
    case 'bigint':
      return 'bigint';
    case 'bool':
      return 'boolean';
    case 'double':
      return 'double precision';
    case 'text':
      return 'text';
    // Indexed strings must be bounded on MySQL (191 characters fit the utf8mb4 index limit).
    case 'string':
      return 'varchar(191)';
    default:
      return kind;
  }
}

function defineColumn(kind: ColumnKind, dialect: DialectName, defaultValue: ColumnSpec[2]) {
  return (column: ColumnDefinitionBuilder) => {
    let built = column;
    if (kind === 'id') {
      built = built.primaryKey();
      if (dialect !== 'postgres') built = built.autoIncrement();
    }
    if (defaultValue !== undefined) built = built.defaultTo(defaultValue);
    return built;
  };
}

/**
 * Creates the table, or adds the columns an older one-api database lacks, so that such a database opens as is.
 */
export async function ensureTable(
  db: Kysely<any>,
  dialect: DialectName,
  table: string,
  columns: readonly ColumnSpec[],
  primaryKey?: readonly string[],
): Promise<void> {
  const existing = (await db.introspection.getTables()).find((candidate) => candidate.name === table);
  if (!existing) {
    let builder = db.schema.createTable(table);
    for (const [name, kind, defaultValue] of columns) {
      builder = builder.addColumn(name, dataType(kind, dialect), defineColumn(kind, dialect, defaultValue));
    }
    if (primaryKey) builder = builder.addPrimaryKeyConstraint(`${table}_pkey`, primaryKey as never[]);
    await builder.execute();
    return;
  }
  const present = new Set(existing.columns.map((column) => column.name));
  for (const [name, kind, defaultValue] of columns) {
    if (present.has(name)) continue;
    await db.schema
      .alterTable(table)
      .addColumn(name, dataType(kind, dialect), defineColumn(kind, dialect, defaultValue))
      .execute();
  }
}

export async function indexExists(
  db: Kysely<any>,
  dialect: DialectName,
  table: string,
  name: string,
): Promise<boolean> {
  const query =
    dialect === 'sqlite'
      ? sql`select name from sqlite_master where type = 'index' and name = ${name}`
      : dialect === 'postgres'
        ? sql`select indexname from pg_indexes where indexname = ${name}`
        : sql`select index_name from information_schema.statistics
              where table_schema = database() and table_name = ${table} and index_name = ${name}`;
  const result = await query.execute(db);
  return result.rows.length > 0;
}

/** Creates an index unless one of that name exists (MySQL has no CREATE INDEX IF NOT EXISTS). */
export async function ensureIndex(
  db: Kysely<any>,
  dialect: DialectName,
  table: string,
  name: string,
  columns: readonly string[],
  unique = false,
): Promise<void> {
  if (await indexExists(db, dialect, table, name)) return;
  let builder = db.schema
    .createIndex(name)
    .on(table)
    .columns(columns as string[]);
  if (unique) builder = builder.unique();
  await builder.execute();
}

/** Drops an index when it exists (MySQL has no DROP INDEX IF EXISTS and names the table). */
export async function dropIndexIfExists(
  db: Kysely<any>,
  dialect: DialectName,
  table: string,
  name: string,
): Promise<void> {
  if (!(await indexExists(db, dialect, table, name))) return;
  const drop = db.schema.dropIndex(name);
  await (dialect === 'mysql' ? drop.on(table) : drop).execute();
}
