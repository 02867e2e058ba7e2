import type { RelayCall, UpstreamRequest } from '../../adaptor.js';
import { embeddingInputs, messageText, offeredFunctions, readChatRequest } from '../openai-kit/chat-request.js';
import type { ChatRequest } from '../openai-kit/chat-types.js';
import { isObject } from '../openai-kit/json.js';
import { channelKeyError, splitChannelKey } from '../openai-kit/upstream-errors.js';
import { tc3Authorization } from './sign.js';
import type { HunyuanChatRequest, HunyuanContent, HunyuanMessage } from './types.js';

export interface TencentCredentials {
  appId: string;
  secretId: string;
  secretKey: string;
}

const keyFormat = 'AppId|SecretId|SecretKey';

/** `AppId|SecretId|SecretKey`; the AppId is numeric (it is not sent, but a swapped key is caught here). */
export function parseTencentKey(key: string): TencentCredentials {
  const [appId, secretId, secretKey] = splitChannelKey(key, 3, 'Tencent Hunyuan', keyFormat);
  if (!/^\d+$/.test(appId!)) throw channelKeyError('Tencent Hunyuan', `${keyFormat} with a numeric AppId`);
  return { appId: appId!, secretId: secretId!, secretKey: secretKey! };
}

/** Image parts become `Contents` (hunyuan-vision); a text-only message keeps the plain `Content`. */
function hunyuanContents(content: unknown): HunyuanContent[] | undefined {
  if (!Array.isArray(content) || !content.some((part) => isObject(part) && part.type === 'image_url')) return undefined;
  return content.filter(isObject).flatMap((part): HunyuanContent[] => {
    if (part.type === 'text' && typeof part.text === 'string') return [{ Type: 'text', Text: part.text }];
    const url = isObject(part.image_url) ? part.image_url.url : undefined;
    return part.type === 'image_url' && typeof url === 'string' ? [{ Type: 'image_url', ImageUrl: { Url: url } }] : [];
  });
}

function hunyuanMessages(request: ChatRequest): HunyuanMessage[] {
  return request.messages.map((message) => {
    const contents = hunyuanContents(message.content);
    const converted: HunyuanMessage = contents
      ? { Role: 'user', Contents: contents }
      : { Role: 'user', Content: messageText(message.content) };
    if (message.role === 'system' || message.role === 'developer') converted.Role = 'system';
    if (message.role === 'assistant') converted.Role = 'assistant';
    if (message.role === 'tool') {
      converted.Role = 'tool';
      converted.ToolCallId = message.tool_call_id;
    }
    if (message.tool_calls?.length) {
      converted.ToolCalls = message.tool_calls.map((call) => ({
        Id: call.id,
        Type: 'function',
        Function: { Name: call.function.name, Arguments: call.function.arguments },
      }));
    }
    return converted;
  });
}

/** The ChatCompletions body (Hunyuan wants tool parameters as a JSON string). */
export function hunyuanChatBody(request: ChatRequest): HunyuanChatRequest {
  const body: HunyuanChatRequest = {
    Model: request.model,
    Messages: hunyuanMessages(request),
    Stream: Boolean(request.stream),
  };
  if (request.top_p !== undefined) body.TopP = request.top_p;
  if (request.temperature !== undefined) body.Temperature = request.temperature;
  const functions = offeredFunctions(request);
  if (functions.length > 0) {
    body.Tools = functions.map((fn) => ({
      Type: 'function',
      Function: {
        Name: fn.name,
        Description: fn.description,
        Parameters: JSON.stringify(fn.parameters ?? { type: 'object', properties: {} }),
      },
    }));
    const choice = request.tool_choice;
    if (choice === 'none' || choice === 'auto') body.ToolChoice = choice;
    if (typeof choice === 'object' && choice !== null) {
      const name = (choice as { function?: { name?: string } }).function?.name;
      const tool = body.Tools.find((candidate) => candidate.Function.Name === name);
      if (tool) {
        body.ToolChoice = 'custom';
        body.CustomTool = tool;
      }
    }
  }
  return body;
}

/**
 * The signed POST to `<base>/`. The signature covers the host connected to (one-api always signed
 * hunyuan.tencentcloudapi.com, which a base URL override would then fail).
 */
export function buildTencentRequest(call: RelayCall, nowMs = Date.now()): UpstreamRequest {
  const credentials = parseTencentKey(call.channel.key);
  const action = call.mode === 'embeddings' ? 'GetEmbedding' : 'ChatCompletions';
  const body = JSON.stringify(
    call.mode === 'embeddings' ? { InputList: embeddingInputs(call) } : hunyuanChatBody(readChatRequest(call)),
  );
  const timestampSeconds = Math.floor(nowMs / 1000);
  const host = new URL(call.channel.baseUrl).host;
  const authorization = tc3Authorization({ ...credentials, service: 'hunyuan', host, action, body, timestampSeconds });
  return {
    url: `${call.channel.baseUrl}/`,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: call.stream ? 'text/event-stream' : 'application/json',
      'x-tc-action': action,
      'x-tc-version': '2023-09-01',
      'x-tc-timestamp': String(timestampSeconds),
      authorization,
    },
    body,
  };
}
