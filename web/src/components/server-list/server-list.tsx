import { Input, Table, type TableProps } from 'antd';
import type { CSSProperties } from 'react';

/** A server list's table: compact, rows keyed by id, no client paging (the server pages), scrolls sideways. */
export function ServerTable<T extends object>(props: TableProps<T>) {
  return <Table<T> rowKey="id" size="small" pagination={false} scroll={{ x: 'max-content' }} {...props} />;
}

export interface ListSearchProps {
  placeholder: string;
  /** The typed keyword and the search of a server list (usePagedList, useUserList). */
  list: { keyword: string; setKeyword: (keyword: string) => void; search: () => void };
  style?: CSSProperties;
}

/** The search box above a server list: searches on Enter or its button; an empty keyword shows the pages again. */
export function ListSearch({ placeholder, list, style }: ListSearchProps) {
  return (
    <Input.Search
      allowClear
      enterButton
      style={style}
      placeholder={placeholder}
      value={list.keyword}
      onChange={(event) => list.setKeyword(event.target.value)}
      onSearch={() => list.search()}
    />
  );
}
