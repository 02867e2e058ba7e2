import type { ChannelConfig, RelayCall, RelayMode } from '../src/relay/adaptor.js';

/** What an adaptor test sets on a relay call; everything else has a default. */
export interface RelayCallOptions {
  /** The client's JSON body, unchanged (its bytes are its JSON); `model` and `stream` are read from it. */
  body: Record<string, unknown>;
  mode?: RelayMode;
  /** The upstream model, when the channel's model mapping changed it (default: `body.model`). */
  model?: string;
  type?: number;
  key?: string;
  baseUrl?: string;
  config?: ChannelConfig;
}

const frontPaths: Partial<Record<RelayMode, string>> = {
  chat: '/v1/chat/completions',
  completions: '/v1/completions',
  embeddings: '/v1/embeddings',
  images: '/v1/images/generations',
};

/** A relay call as the pipeline hands it to an adaptor (adaptor unit tests). */
export function relayCall(options: RelayCallOptions): RelayCall {
  const mode = options.mode ?? 'chat';
  return {
    mode,
    path: frontPaths[mode] ?? '/v1/chat/completions',
    query: '',
    model: options.model ?? String(options.body.model ?? ''),
    stream: options.body.stream === true,
    body: { kind: 'json', value: options.body, raw: Buffer.from(JSON.stringify(options.body)), changed: false },
    channel: {
      id: 1,
      type: options.type ?? 1,
      name: 'test',
      key: options.key ?? 'key',
      baseUrl: options.baseUrl ?? 'http://127.0.0.1:9',
      config: options.config ?? {},
    },
    clientHeaders: {},
  };
}
