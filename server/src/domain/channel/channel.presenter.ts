import type { ChannelRow } from '../../db/tables.js';

/**
 * The channel object of the management API: every key one-api sends, always present.
 * The key is write-only: it is blanked in every answer, lists, search, single reads and the PUT answer
 * alike (one-api returned it from PUT). Only admins reach these routes, but the console never needs to
 * read a key back: an edit with an empty key keeps the stored one.
 */
export function presentChannel(channel: ChannelRow) {
  return {
    id: Number(channel.id),
    type: Number(channel.type),
    key: '',
    status: Number(channel.status),
    name: channel.name ?? '',
    weight: Number(channel.weight ?? 0),
    created_time: Number(channel.created_time ?? 0),
    test_time: Number(channel.test_time ?? 0),
    response_time: Number(channel.response_time ?? 0),
    base_url: channel.base_url ?? '',
    other: channel.other ?? '',
    balance: Number(channel.balance ?? 0),
    balance_updated_time: Number(channel.balance_updated_time ?? 0),
    models: channel.models ?? '',
    group: channel.group ?? '',
    used_quota: Number(channel.used_quota ?? 0),
    model_mapping: channel.model_mapping ?? '',
    priority: Number(channel.priority ?? 0),
    config: channel.config ?? '',
    system_prompt: channel.system_prompt ?? '',
  };
}

export type PresentedChannel = ReturnType<typeof presentChannel>;
