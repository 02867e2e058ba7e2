import type { Channel, ChannelInput } from '../../api/channel';
import { isValidJson } from '../../lib/json';
import { AZURE_DEFAULT_API_VERSION, ChannelTypeId } from './channel-types';

/** The channel form's values: lists where the wire has comma-joined text, config parts as fields. */
export interface ChannelFormValues {
  name: string;
  type: number;
  key: string;
  base_url: string;
  other: string;
  model_mapping: string;
  system_prompt: string;
  models: string[];
  groups: string[];
  region: string;
  ak: string;
  sk: string;
  user_id: string;
  vertex_ai_project_id: string;
  vertex_ai_adc: string;
  /** `native` or `chat` for the Responses API, empty for the type's default (RESPONSES_API_TYPES). */
  responses_api: '' | 'native' | 'chat';
  /** Claude channels' `anthropic-beta` flags passed on (a comma list, `*` for all) and stripped. */
  anthropic_beta_pass: string;
  anthropic_beta_strip: string;
}

export const emptyChannelForm: ChannelFormValues = {
  name: '',
  type: ChannelTypeId.openAI,
  key: '',
  base_url: '',
  other: '',
  model_mapping: '',
  system_prompt: '',
  models: [],
  groups: ['default'],
  region: '',
  ak: '',
  sk: '',
  user_id: '',
  vertex_ai_project_id: '',
  vertex_ai_adc: '',
  responses_api: '',
  anthropic_beta_pass: '',
  anthropic_beta_strip: '',
};

const CONFIG_KEYS = [
  'region',
  'sk',
  'ak',
  'user_id',
  'vertex_ai_project_id',
  'vertex_ai_adc',
  'responses_api',
  'anthropic_beta_pass',
  'anthropic_beta_strip',
] as const;

/** Splits comma-joined text, dropping blanks and duplicates. */
export const splitList = (text: string | null | undefined): string[] => [
  ...new Set(
    (text ?? '')
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean),
  ),
];

function parseConfig(text: string): Record<string, string> {
  if (!text || !isValidJson(text)) return {};
  const parsed: unknown = JSON.parse(text);
  if (!parsed || typeof parsed !== 'object') return {};
  return Object.fromEntries(Object.entries(parsed).map(([key, value]) => [key, String(value ?? '')]));
}

/** Fills the form from a stored channel (the key is never sent back, so it stays empty). */
export function channelToForm(channel: Channel): ChannelFormValues {
  const config = parseConfig(channel.config);
  let mapping = channel.model_mapping ?? '';
  if (mapping && isValidJson(mapping)) mapping = JSON.stringify(JSON.parse(mapping), null, 2);
  return {
    ...emptyChannelForm,
    name: channel.name,
    type: channel.type,
    key: '',
    base_url: channel.base_url ?? '',
    other: channel.other ?? '',
    model_mapping: mapping,
    system_prompt: channel.system_prompt ?? '',
    models: splitList(channel.models),
    groups: splitList(channel.group).length ? splitList(channel.group) : ['default'],
    ...Object.fromEntries(CONFIG_KEYS.map((key) => [key, config[key] ?? ''])),
  };
}

export type ChannelFormError = 'nameAndKeyRequired' | 'modelRequired' | 'mappingInvalid';

/**
 * Validates and converts the form to the wire shape (spec section 5): name and key required on create, at
 * least one model except for Proxy, JSON model mapping, base URL without trailing slash, Azure's default API
 * version, AWS keys as ak|sk|region and Vertex keys as region|project|credentials.
 */
export function formToChannel(
  values: ChannelFormValues,
  creating: boolean,
): { ok: true; input: ChannelInput } | { ok: false; error: ChannelFormError } {
  let key = values.key.trim();
  if (values.type === ChannelTypeId.aws && values.ak && values.sk) key = `${values.ak}|${values.sk}|${values.region}`;
  if (values.type === ChannelTypeId.vertexAI && !key && values.vertex_ai_adc) {
    key = `${values.region}|${values.vertex_ai_project_id}|${values.vertex_ai_adc}`;
  }
  if (creating && (!values.name.trim() || !key)) return { ok: false, error: 'nameAndKeyRequired' };
  if (values.type !== ChannelTypeId.proxy && values.models.length === 0) return { ok: false, error: 'modelRequired' };
  const mapping = values.model_mapping.trim();
  if (mapping && !isValidJson(mapping)) return { ok: false, error: 'mappingInvalid' };
  let other = values.other.trim();
  if (values.type === ChannelTypeId.azure && !other) other = AZURE_DEFAULT_API_VERSION;
  const config = Object.fromEntries(
    CONFIG_KEYS.map((name) => [name, values[name].trim()]).filter(([, value]) => value),
  );
  return {
    ok: true,
    input: {
      name: values.name.trim(),
      type: values.type,
      key,
      base_url: values.base_url.trim().replace(/\/+$/, ''),
      other,
      model_mapping: mapping,
      system_prompt: values.system_prompt,
      models: values.models.join(','),
      group: values.groups.join(','),
      config: JSON.stringify(config),
    },
  };
}

/** Adds custom model names typed as a comma list; blanks and names already chosen are ignored. */
export function addCustomModels(current: string[], typed: string): string[] {
  const next = [...current];
  for (const name of splitList(typed)) if (!next.includes(name)) next.push(name);
  return next;
}
