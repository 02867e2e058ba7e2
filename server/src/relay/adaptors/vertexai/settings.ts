import type { ChannelSettings } from '../../adaptor.js';
import { isObject, parseJson } from '../openai-kit/json.js';
import { channelKeyError } from '../openai-kit/upstream-errors.js';
import type { ServiceAccountKey, VertexSettings } from './types.js';

const keyFormat = 'region|project_id|<service-account JSON>';

function parseServiceAccount(text: string): ServiceAccountKey {
  const parsed = parseJson(text.trim());
  if (!isObject(parsed) || typeof parsed.client_email !== 'string' || typeof parsed.private_key !== 'string') {
    throw channelKeyError(
      'Vertex AI',
      `${keyFormat} (or the service-account JSON with region and project in the channel config)`,
      'the JSON needs client_email and private_key',
    );
  }
  return parsed as unknown as ServiceAccountKey;
}

/**
 * Region, project and service account of a Vertex channel: from the config fields (`region`,
 * `vertex_ai_project_id`, `vertex_ai_adc`) when set, else from the key `region|project_id|<JSON>`; a key
 * that is the JSON alone takes the project from the JSON.
 */
export function readVertexSettings(channel: ChannelSettings): VertexSettings {
  const config = channel.config;
  const key = channel.key.trim();
  let region = config.region ?? '';
  let projectId = config.vertex_ai_project_id ?? '';
  let json = config.vertex_ai_adc ?? '';
  if (!json) {
    if (key.startsWith('{')) json = key;
    else {
      const first = key.indexOf('|');
      const second = first === -1 ? -1 : key.indexOf('|', first + 1);
      if (second === -1) throw channelKeyError('Vertex AI', keyFormat);
      region ||= key.slice(0, first).trim();
      projectId ||= key.slice(first + 1, second).trim();
      json = key.slice(second + 1);
    }
  }
  const serviceAccount = parseServiceAccount(json);
  projectId ||= serviceAccount.project_id ?? '';
  if (!region) throw channelKeyError('Vertex AI', keyFormat, 'no region in the key or the config');
  if (!projectId) throw channelKeyError('Vertex AI', keyFormat, 'no project id in the key, the config or the JSON');
  return { region, projectId, serviceAccount };
}
