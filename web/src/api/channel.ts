import type { balanceAnswer, channel, channelTestAnswer, RunProgress } from '@modelgate/wire';
import type { z } from 'zod';
import { api, requestEnvelope } from './client';

/** A channel as the management API returns it (key blanked except in the PUT answer). */
export type Channel = z.infer<typeof channel>;

/** The fields the form sends on create and edit. */
export type ChannelInput = Pick<
  Channel,
  'name' | 'type' | 'key' | 'base_url' | 'other' | 'model_mapping' | 'system_prompt' | 'models' | 'group' | 'config'
> & { id?: number };

export type ChannelTestAnswer = z.infer<typeof channelTestAnswer>;

export type BulkTestProgress = RunProgress;

export const fetchChannelPage = (page: number) => api.get<Channel[]>('/api/channel/', { params: { p: page } });
export const searchChannels = (keyword: string) => api.get<Channel[]>('/api/channel/search', { params: { keyword } });
export const fetchChannel = (id: number) => api.get<Channel>(`/api/channel/${id}`);
export const createChannel = (input: ChannelInput) => api.post<unknown>('/api/channel/', input);
export const updateChannel = (input: ChannelInput) => api.put<Channel>('/api/channel/', input);
/** Changes one field (status, priority or weight) of a channel. */
export const patchChannel = (id: number, fields: Partial<Pick<Channel, 'status' | 'priority' | 'weight'>>) =>
  api.put<Channel>('/api/channel/', { id, ...fields });
export const deleteChannel = (id: number) => api.delete<unknown>(`/api/channel/${id}`);
export const deleteDisabledChannels = () => api.delete<number>('/api/channel/disabled');
export const startBulkTest = (scope: 'all' | 'disabled') =>
  api.get<unknown>('/api/channel/test', { params: { scope } });
export const fetchBulkTestProgress = () => api.get<BulkTestProgress>('/api/channel/test/status', { silent: true });

/** Tests one channel; the answer carries time and model at the top level, beside success and message. */
export async function testChannel(id: number, model: string): Promise<ChannelTestAnswer> {
  const answer = await requestEnvelope<unknown>({ url: `/api/channel/test/${id}`, method: 'GET', params: { model } });
  return answer as unknown as ChannelTestAnswer;
}

/** Refreshes a channel's balance; `balance` is at the top level of the answer. */
export async function updateChannelBalance(id: number): Promise<z.infer<typeof balanceAnswer>> {
  const answer = await requestEnvelope<unknown>({ url: `/api/channel/update_balance/${id}`, method: 'GET' });
  return answer as unknown as z.infer<typeof balanceAnswer>;
}

/** Channel type id → default model names (GET /api/models). */
export const fetchChannelModels = () => api.get<Record<string, string[] | null>>('/api/models', { silent: true });
/** Group names (keys of GroupRatio). */
export const fetchGroups = () => api.get<string[]>('/api/group/');
