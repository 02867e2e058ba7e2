import type { ColumnType } from 'antd/es/table';
import type { ReactNode } from 'react';

type KeysOf<Row, Value> = { [Key in keyof Row]-?: Row[Key] extends Value ? Key : never }[keyof Row] & string;

/**
 * Table columns whose header click sorts the loaded rows by one field: a text field by localeCompare, a number
 * field by its value. `render` is set only when given, as in a column written out by hand.
 */
export function sortedColumns<Row>() {
  return {
    text: (
      title: string,
      key: KeysOf<Row, string>,
      render?: (value: string, row: Row) => ReactNode,
    ): ColumnType<Row> => ({
      title,
      dataIndex: key,
      sorter: (a, b) => (a[key] as string).localeCompare(b[key] as string),
      ...(render ? { render } : {}),
    }),
    number: (
      title: string,
      key: KeysOf<Row, number>,
      render?: (value: number, row: Row) => ReactNode,
    ): ColumnType<Row> => ({
      title,
      dataIndex: key,
      sorter: (a, b) => (a[key] as number) - (b[key] as number),
      ...(render ? { render } : {}),
    }),
  };
}
