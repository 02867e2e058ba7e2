import { fireEvent, render, screen, within } from '@testing-library/react';
import { Button } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ServerTable } from './server-list';

interface Row {
  id: number;
  name: string;
}

const edit = vi.fn();
const columns: ColumnsType<Row> = [
  { title: 'Name', dataIndex: 'name' },
  { title: 'Shout', key: 'shout', render: (_, row) => row.name.toUpperCase() },
  {
    title: 'Actions',
    key: 'actions',
    fixed: 'right',
    render: (_, row) => <Button onClick={() => edit(row.id)}>Edit</Button>,
  },
];
const rows: Row[] = [
  { id: 1, name: 'alpha' },
  { id: 2, name: 'beta' },
];

const atWidth = (width: number) => Object.defineProperty(window, 'innerWidth', { configurable: true, value: width });

afterEach(() => atWidth(1024));

describe('ServerTable', () => {
  it('is a table with the actions pinned right on a wide screen', () => {
    atWidth(1024);
    render(<ServerTable columns={columns} dataSource={rows} />);
    expect(screen.getByRole('table')).toBeInTheDocument();
    const actions = screen.getByRole('columnheader', { name: 'Actions' });
    expect(actions.className).toMatch(/ant-table-cell-fix-end|ant-table-cell-fix-right/);
  });

  it('is one card per row on a phone, each value labelled and the actions at the bottom', () => {
    atWidth(375);
    render(<ServerTable columns={columns} dataSource={rows} />);
    expect(screen.queryByRole('table')).toBeNull();
    const cards = screen.getAllByTestId('row-card');
    expect(cards).toHaveLength(2);
    const second = within(cards[1]!);
    expect(second.getByText('Name')).toBeInTheDocument();
    expect(second.getByText('beta')).toBeInTheDocument();
    expect(second.getByText('BETA')).toBeInTheDocument();
    // The actions column has no label of its own: its buttons are the card's footer.
    expect(second.queryByText('Actions')).toBeNull();
    fireEvent.click(second.getByRole('button', { name: 'Edit' }));
    expect(edit).toHaveBeenCalledWith(2);
  });

  it('pages the cards when the table paged its rows', () => {
    atWidth(375);
    const many = Array.from({ length: 12 }, (_, index) => ({ id: index + 1, name: `row ${index + 1}` }));
    render(<ServerTable columns={columns} dataSource={many} pagination={{ pageSize: 10 }} />);
    expect(screen.getAllByTestId('row-card')).toHaveLength(10);
    fireEvent.click(screen.getByTitle('Next Page'));
    expect(screen.getAllByTestId('row-card')).toHaveLength(2);
  });
});
