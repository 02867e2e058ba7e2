import { fetchChannelPage, searchChannels } from '../../api/channel';
import { usePagedList } from '../../hooks/use-paged-list';

const channelSource = { fetchPage: fetchChannelPage, search: searchChannels };

/** The channel list state: one server page at a time, or the search results. */
export const useChannelList = () => usePagedList('channel', channelSource);
