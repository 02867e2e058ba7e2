import { Card, Empty, Flex, Pagination, Spin, Typography, type TableProps } from 'antd';
import type { ColumnType } from 'antd/es/table';
import { isValidElement, useState, type Key, type ReactNode } from 'react';

/** A column the table pins to the right (`fixed: 'right'`): the row's actions, a card's footer on a phone. */
export const isPinnedRight = <T,>(column: ColumnType<T>): boolean => column.fixed === 'right';

function cellValue<T extends object>(column: ColumnType<T>, row: T, index: number): ReactNode {
  const { dataIndex } = column;
  const value =
    typeof dataIndex === 'string' || typeof dataIndex === 'number'
      ? (row as Record<string | number, unknown>)[dataIndex]
      : undefined;
  if (!column.render) return value as ReactNode;
  const rendered = column.render(value, row, index);
  // A render may answer antd's { children, props } cell; only its content is shown here.
  if (rendered && typeof rendered === 'object' && !isValidElement(rendered) && 'children' in rendered)
    return rendered.children as ReactNode;
  return rendered as ReactNode;
}

function rowKeyOf<T extends object>(rowKey: TableProps<T>['rowKey'], row: T, index: number): Key {
  if (typeof rowKey === 'function') return rowKey(row, index);
  const field = typeof rowKey === 'string' ? rowKey : 'id';
  return String((row as Record<string, unknown>)[field] ?? index);
}

/**
 * A server list on a phone: one card per row, each column as a label and its value, the pinned actions as the
 * card's footer, so every value and action shows within the screen's width, with no sideways scrolling.
 */
export function RowCards<T extends object>({
  columns = [],
  dataSource = [],
  rowKey,
  loading,
  pagination,
}: TableProps<T>) {
  const [page, setPage] = useState(1);
  const leaves = columns as ColumnType<T>[];
  const fields = leaves.filter((column) => !isPinnedRight(column));
  const actions = leaves.filter(isPinnedRight);
  // Client paging when the table had it (the user list pages what it loaded); server lists page themselves.
  const pageSize = pagination ? (pagination.pageSize ?? 10) : dataSource.length || 1;
  const pages = Math.max(1, Math.ceil(dataSource.length / pageSize));
  const current = Math.min(page, pages);
  const shown = pagination ? dataSource.slice((current - 1) * pageSize, current * pageSize) : dataSource;
  return (
    <Spin spinning={Boolean(loading)}>
      <Flex vertical gap={12} className="row-cards">
        {shown.length === 0 && !loading ? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} /> : null}
        {shown.map((row) => {
          const index = dataSource.indexOf(row);
          return (
            <Card key={rowKeyOf(rowKey, row, index)} size="small" data-testid="row-card">
              <Flex vertical gap={6}>
                {fields.map((column, position) => (
                  <Flex key={String(column.key ?? column.dataIndex ?? position)} gap={8} align="baseline">
                    <Typography.Text type="secondary" style={{ flex: '0 0 38%', minWidth: 0 }}>
                      {typeof column.title === 'function' ? null : column.title}
                    </Typography.Text>
                    <div
                      style={{ flex: '1 1 auto', minWidth: 0, overflowWrap: 'anywhere' }}
                      data-testid="row-card-value"
                    >
                      {cellValue(column, row, index)}
                    </div>
                  </Flex>
                ))}
                {actions.map((column, position) => (
                  <div key={String(column.key ?? position)} className="row-card-actions">
                    {cellValue(column, row, index)}
                  </div>
                ))}
              </Flex>
            </Card>
          );
        })}
        {pagination && pages > 1 ? (
          <Pagination
            simple
            align="center"
            current={current}
            pageSize={pageSize}
            total={dataSource.length}
            onChange={setPage}
          />
        ) : null}
      </Flex>
    </Spin>
  );
}
