import { Input, Table, type TableProps } from 'antd';
import type { CSSProperties } from 'react';
import { useWindowWidth } from '../../hooks/use-media';
import { NARROW_SCREEN_PX } from '../../lib/menu';
import { RowCards } from './row-cards';

/**
 * A server list's table: compact, rows keyed by id, no client paging (the server pages). Wide screens scroll it
 * sideways with the actions column (`fixed: 'right'`) pinned in view; narrow screens (the spec's 600 px) show a
 * card per row instead, where nothing needs a sideways swipe.
 */
export function ServerTable<T extends object>(props: TableProps<T>) {
  const narrow = useWindowWidth() <= NARROW_SCREEN_PX;
  if (narrow) return <RowCards<T> rowKey="id" pagination={false} {...props} />;
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
