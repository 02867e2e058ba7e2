import { fetchTokenList, searchTokens, type TokenDetails, type TokenOrder } from '../../api/token';
import { usePagedList, type PagedSource } from '../../hooks/use-paged-list';
import { StorageKey, writeJson } from '../../lib/storage-keys';

const tokenSource: PagedSource<TokenDetails, TokenOrder> = {
  /** The first page in any order is also kept for the chat page's key picker. */
  fetchPage: async (page, order) => {
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
export const useTokenList = () => usePagedList('token', tokenSource);
