import { fetchChannelPage, searchChannels } from '../../api/channel';
import { SERVER_PAGE_SIZE, usePagedList } from '../../hooks/use-paged-list';

export const CHANNEL_PAGE_SIZE = SERVER_PAGE_SIZE;

const source = { fetchPage: fetchChannelPage, search: searchChannels };

/** The channel list state: one server page at a time, or the search results. */
export function useChannelList() {
  const list = usePagedList(source);
  return { ...list, channels: list.rows };
}
