import OpenAI from 'openai';
import type { ApiClient } from './api-client.js';
import type { Engine } from './engines.js';
import { balances, createChannel, createToken, createUser, setOption } from './relay-fixtures.js';
import { startTestServer, type TestServer } from './test-server.js';

/** A function tool and a short conversation, the requests the international provider files send. */
export const tools: OpenAI.ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Current weather',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  },
];
export const hello: OpenAI.ChatCompletionMessageParam[] = [
  { role: 'system', content: 'You are terse.' },
  { role: 'user', content: 'hi' },
];

/**
 * What every provider end-to-end file sets up: a server on one engine with the file's models priced at 1, one
 * user with a token, the official OpenAI SDK pointed at /v1, and root's console client.
 */
export interface ProviderKit {
  server: TestServer;
  root: ApiClient;
  client: OpenAI;
  userId: number;
  tokenId: number;
  /** Channel ids by the name given to `addChannel`. */
  channels: Record<string, number>;
  addChannel(name: string, fields: Parameters<typeof createChannel>[1]): Promise<number>;
  /** Runs a call and returns the quota it cost the user. */
  charged<T>(call: () => Promise<T>): Promise<{ result: T; quota: number }>;
  /** The console's test of one channel, with `?model=` when given. */
  probe(name: string, model?: string): Promise<{ success: boolean; message: string }>;
  close(): Promise<void>;
}

export async function startProviderKit(
  engine: Engine,
  options: { username: string; pricedModels: readonly string[]; priceCompletions?: boolean },
): Promise<ProviderKit> {
  const server = await startTestServer({ engine });
  const root = await server.rootClient();
  const ratios = JSON.stringify(Object.fromEntries(options.pricedModels.map((model) => [model, 1])));
  await setOption(server, 'ModelRatio', ratios);
  if (options.priceCompletions) await setOption(server, 'CompletionRatio', ratios);
  const userId = await createUser(server, { username: options.username, quota: 1_000_000 });
  const token = await createToken(server, userId);
  const client = new OpenAI({ apiKey: `sk-${token.key}`, baseURL: `${server.url}/v1`, maxRetries: 0 });
  const channels: Record<string, number> = {};
  return {
    server,
    root,
    client,
    userId,
    tokenId: token.id,
    channels,
    async addChannel(name, fields) {
      channels[name] = (await createChannel(server, { name, ...fields })).id;
      return channels[name];
    },
    async charged(call) {
      const before = (await balances(server, userId, token.id)).userUsed;
      const result = await call();
      return { result, quota: (await balances(server, userId, token.id)).userUsed - before };
    },
    async probe(name, model) {
      const query = model ? `?model=${encodeURIComponent(model)}` : '';
      return (await root.get(`/api/channel/test/${channels[name]}${query}`)).body as {
        success: boolean;
        message: string;
      };
    },
    close: () => server.close(),
  };
}

/** Reads an SDK stream: joined content, last finish reason, tool calls merged by index, the usage chunk. */
export async function readChunks(stream: AsyncIterable<OpenAI.ChatCompletionChunk>) {
  let content = '';
  let finish: string | null = null;
  let usage: OpenAI.CompletionUsage | undefined;
  const calls: { name: string; arguments: string }[] = [];
  for await (const chunk of stream) {
    usage = chunk.usage ?? usage;
    const choice = chunk.choices[0];
    content += choice?.delta?.content ?? '';
    finish = choice?.finish_reason ?? finish;
    for (const call of choice?.delta?.tool_calls ?? []) {
      const slot = (calls[call.index] ??= { name: '', arguments: '' });
      slot.name += call.function?.name ?? '';
      slot.arguments += call.function?.arguments ?? '';
    }
  }
  return { content, finish, calls, usage };
}
