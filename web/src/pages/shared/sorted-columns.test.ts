import { describe, expect, it } from 'vitest';
import { sortedColumns } from './sorted-columns';

interface Row {
  id: number;
  name: string;
}

const rows: Row[] = [
  { id: 3, name: 'beta' },
  { id: 1, name: 'gamma' },
  { id: 2, name: 'alpha' },
];
const sorted = sortedColumns<Row>();
const order = (sorter: unknown) => [...rows].sort(sorter as (a: Row, b: Row) => number).map((row) => row.id);

describe('sortedColumns', () => {
  it('sorts a text column by its field, a number column by its value', () => {
    expect(order(sorted.text('Name', 'name').sorter)).toEqual([2, 3, 1]);
    expect(order(sorted.number('ID', 'id').sorter)).toEqual([1, 2, 3]);
  });

  it('keeps the title and field, and sets render only when one is given', () => {
    expect(sorted.number('ID', 'id')).toEqual({ title: 'ID', dataIndex: 'id', sorter: expect.any(Function) });
    expect('render' in sorted.number('ID', 'id')).toBe(false);
    const render = (id: number) => `#${id}`;
    expect(sorted.number('ID', 'id', render).render).toBe(render);
    expect('render' in sorted.text('Name', 'name')).toBe(false);
    const shout = (name: string) => name.toUpperCase();
    expect(sorted.text('Name', 'name', shout).render).toBe(shout);
  });
});
