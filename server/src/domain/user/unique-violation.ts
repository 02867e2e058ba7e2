/**
 * True when a database error is a unique-constraint violation, on any of the three engines:
 * SQLite `SQLITE_CONSTRAINT_UNIQUE`, PostgreSQL SQLSTATE 23505, MySQL/MariaDB errno 1062.
 */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, errno } = error as { code?: unknown; errno?: unknown };
  return (
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY' ||
    code === '23505' ||
    code === 'ER_DUP_ENTRY' ||
    errno === 1062
  );
}
