import type { ChannelRow } from '../../db/tables.js';
import type { ChannelConfig, ChannelSettings } from '../adaptor.js';
import { ChannelType } from '../../domain/channel/channel.constants.js';
import { describeChannelType } from '../channel-types.js';

function parseObject(text: string | null | undefined): Record<string, unknown> {
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** The channel's config JSON, with the legacy `other` column copied in where one-api did. */
export function channelConfig(row: Pick<ChannelRow, 'config' | 'other' | 'type'>): ChannelConfig {
  const config: ChannelConfig = {};
  for (const [key, value] of Object.entries(parseObject(row.config))) {
    if (typeof value === 'string') (config as Record<string, string>)[key] = value;
  }
  const other = row.other ?? '';
  if (other) {
    if (row.type === ChannelType.AIProxyLibrary) config.library_id ||= other;
    else if (row.type === ChannelType.Ali) config.plugin ||= other;
    else config.api_version ||= other;
  }
  return config;
}

/** What an adaptor needs to know about a channel. */
export function channelSettings(row: ChannelRow): ChannelSettings {
  const baseUrl = (row.base_url || describeChannelType(row.type).defaultBaseUrl).replace(/\/+$/, '');
  return { id: row.id, type: row.type, name: row.name, key: row.key, baseUrl, config: channelConfig(row) };
}

/** The channel's model mapping (requested → upstream name); malformed or empty JSON maps nothing. */
export function modelMapping(row: Pick<ChannelRow, 'model_mapping'>): Record<string, string> {
  const mapping: Record<string, string> = {};
  for (const [from, to] of Object.entries(parseObject(row.model_mapping))) {
    if (typeof to === 'string' && to !== '') mapping[from] = to;
  }
  return mapping;
}
