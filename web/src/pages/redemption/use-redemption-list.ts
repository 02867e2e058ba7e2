import { fetchRedemptionPage, searchRedemptions } from '../../api/redemption';
import { SERVER_PAGE_SIZE, usePagedList } from '../../hooks/use-paged-list';

export const REDEMPTION_PAGE_SIZE = SERVER_PAGE_SIZE;

const source = { fetchPage: fetchRedemptionPage, search: searchRedemptions };

/** Redemption codes, one server page at a time, or search results. */
export const useRedemptionList = () => usePagedList(source);
