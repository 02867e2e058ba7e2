import type { ColumnType } from 'antd/es/table';
import type { ReactNode } from 'react';

type KeysOf<Row, Value> = { [Key in keyof Row]-?: Row[Key] extends Value ? Key : never }[keyof Row] & string;

/** A column of one field whose header click sorts the loaded rows by `compare`; `render` only when given. */
const sortedBy =
  <Row, Value>(compare: (a: Value, b: Value) => number) =>
  (title: string, key: KeysOf<Row, Value>, render?: (value: Value, row: Row) => ReactNode): ColumnType<Row> => ({
    title,
    dataIndex: key,
    sorter: (a, b) => compare(a[key] as Value, b[key] as Value),
    ...(render ? { render } : {}),
  });

/**
 * Table columns whose header click sorts the loaded rows by one field: a text field by localeCompare, a number
 * field by its value. `render` is set only when given, as in a column written out by hand.
 */
export function sortedColumns<Row>() {
  return {
    text: sortedBy<Row, string>((a, b) => a.localeCompare(b)),
    number: sortedBy<Row, number>((a, b) => a - b),
  };
}
