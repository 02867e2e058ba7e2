import { fetchTokenList, searchTokens, type TokenOrder } from '../../api/token';
import { SERVER_PAGE_SIZE, usePagedList } from '../../hooks/use-paged-list';
import { StorageKey, writeJson } from '../../lib/storage-keys';

export const TOKEN_PAGE_SIZE = SERVER_PAGE_SIZE;

const source = {
  /** The first page in any order is also kept for the chat page's key picker. */
  fetchPage: async (page: number, order: TokenOrder) => {
    const rows = await fetchTokenList(page, order);
    if (page === 0)
      writeJson(
        StorageKey.tokenList,
        (rows ?? []).map(({ name, key }) => ({ name, key })),
      );
    return rows;
  },
  search: searchTokens,
};

/** The token list state: server pages in a server sort order, or search results. */
export function useTokenList() {
  const list = usePagedList(source);
  return { ...list, tokens: list.rows };
}
