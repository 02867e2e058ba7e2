import { fetchRedemptionPage, searchRedemptions } from '../../api/redemption';
import { usePagedList } from '../../hooks/use-paged-list';

const redemptionSource = { fetchPage: fetchRedemptionPage, search: searchRedemptions };

/** Redemption codes, one server page at a time, or search results. */
export const useRedemptionList = () => usePagedList('redemption', redemptionSource);
