import type { LimitsUsage, TokenLimitsUsage } from '@modelgate/wire';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api } from '../../api/client';
import { fetchTokenList, searchTokens, type TokenDetails, type TokenOrder } from '../../api/token';
import { usePagedList, type PagedSource } from '../../hooks/use-paged-list';
import { queryKeys } from '../../lib/query-keys';
import { StorageKey, writeJson } from '../../lib/storage-keys';

/** A row of the token list: the token, and what it uses now of its limits when it has any (issue 31). */
export type TokenListRow = TokenDetails & { limits_usage?: LimitsUsage };

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

/** Whether a token has any limit or budget of its own (only those show a usage). */
export const hasLimits = (token: TokenDetails): boolean =>
  token.rpm_limit > 0 || token.tpm_limit > 0 || token.concurrency_limit > 0 || token.budget_quota > 0;

export const fetchLimitsUsage = (ids: readonly number[]) =>
  api.get<TokenLimitsUsage>('/api/token/limits_usage', { params: { ids: ids.join(',') } });

/**
 * The token list state: server pages in a server sort order, or search results; the rows with limits carry
 * their current usage, read in one request per page (again when the page's spend changes, as after a refresh).
 */
export function useTokenList() {
  const list = usePagedList('token', tokenSource);
  const limited = list.rows.filter(hasLimits);
  const ids = limited.map((token) => token.id);
  const spend = limited.reduce((sum, token) => sum + token.used_quota, 0);
  const usage = useQuery({
    queryKey: queryKeys.read('token', 'limits_usage', { ids, spend }),
    queryFn: () => fetchLimitsUsage(ids),
    enabled: ids.length > 0,
  }).data;
  const rows = useMemo<TokenListRow[]>(
    () => list.rows.map((token) => (usage?.[token.id] ? { ...token, limits_usage: usage[token.id] } : token)),
    [list.rows, usage],
  );
  return { ...list, rows };
}
