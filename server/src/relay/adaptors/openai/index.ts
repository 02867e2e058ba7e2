import type { Adaptor, RelayMode } from '../../adaptor.js';
import { openAIModels } from './models.js';
import { buildOpenAIRequest, type OpenAIUrlRules } from './request.js';
import { readErrorBody, readOpenAIResponse } from './response.js';
import { OpenAIStreamWatcher, readOpenAIStream } from './stream.js';

export const allOpenAIModes: readonly RelayMode[] = [
  'chat',
  'completions',
  'embeddings',
  'moderations',
  'images',
  'audio-speech',
  'audio-transcription',
  'audio-translation',
];

export interface OpenAICompatibleSettings extends OpenAIUrlRules {
  id: string;
  models: readonly string[];
  /** Defaults to every mode OpenAI has. */
  modes?: readonly RelayMode[];
}

/** An upstream that speaks OpenAI's protocol: settings, not code (STYLE §3.5). */
export function openAICompatible(settings: OpenAICompatibleSettings) {
  return {
    id: settings.id,
    modes: settings.modes ?? allOpenAIModes,
    models: settings.models,
    buildRequest: (call) => buildOpenAIRequest(call, settings),
    readResponse: readOpenAIResponse,
    readStream: readOpenAIStream,
    watchStream: () => new OpenAIStreamWatcher(),
    readError: (response) => readErrorBody(response.status, response.body),
  } satisfies Adaptor;
}

/** OpenAI itself and every reseller that mirrors its API. */
export const openai = openAICompatible({ id: 'openai', models: openAIModels });
