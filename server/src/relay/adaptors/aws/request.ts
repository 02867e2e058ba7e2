import type { ChannelSettings, RelayCall } from '../../adaptor.js';
import { claudeCallRequest } from '../anthropic/request.js';
import { maxOutputTokens, messageText, readChatRequest } from '../openai-kit/chat-request.js';
import type { ChatRequest } from '../openai-kit/chat-types.js';
import { channelKeyError, unsupportedRequest } from '../openai-kit/upstream-errors.js';
import { bedrockModelIds } from './models.js';
import type { BedrockCredentials, BedrockFamily, BedrockInvocation, LlamaRequest } from './types.js';

export const bedrockAnthropicVersion = 'bedrock-2023-05-31';
const defaultLlamaMaxGenLength = 2048;
const bedrockKeyFormat = 'AccessKeyId|SecretAccessKey|Region';

/**
 * The channel's AWS credentials: the config fields `ak`, `sk`, `region` (what one-api stores), else the key
 * `AK|SK|Region`.
 */
export function readBedrockCredentials(channel: ChannelSettings): BedrockCredentials {
  const { ak, sk, region } = channel.config;
  if (ak && sk && region) return { accessKeyId: ak, secretAccessKey: sk, region };
  const parts = channel.key.split('|').map((part) => part.trim());
  if (parts.length !== 3 || parts.some((part) => part === '')) {
    throw channelKeyError('AWS Bedrock', `${bedrockKeyFormat} (or the ak, sk and region config fields)`);
  }
  const [accessKeyId = '', secretAccessKey = '', keyRegion = ''] = parts;
  if (!/^[a-z]{2}(-[a-z]+)+-\d$/.test(keyRegion))
    throw channelKeyError('AWS Bedrock', bedrockKeyFormat, `"${keyRegion}" is not a region name such as us-east-1`);
  return { accessKeyId, secretAccessKey, region: keyRegion };
}

/**
 * The Bedrock model id and body family of a front model name: one-api's names, or a Bedrock id given as is
 * (`anthropic.…`, `meta.llama3…`, cross-region `us.anthropic.…`).
 */
export function bedrockModel(model: string): { modelId: string; family: BedrockFamily } {
  const modelId = bedrockModelIds[model] ?? model;
  if (/(^|\.)anthropic\.claude/.test(modelId)) return { modelId, family: 'claude' };
  if (/(^|\.)meta\.llama3/.test(modelId)) return { modelId, family: 'llama' };
  throw unsupportedRequest(`model ${model} is not supported on AWS Bedrock channels`);
}

/** Llama 3's chat template, as one-api builds it. */
export function llamaPrompt(request: ChatRequest): string {
  let prompt = '<|begin_of_text|>';
  for (const message of request.messages) {
    const role = message.role === 'developer' ? 'system' : message.role;
    prompt += `<|start_header_id|>${role}<|end_header_id|>\n\n${messageText(message.content)}<|eot_id|>`;
  }
  return `${prompt}<|start_header_id|>assistant<|end_header_id|>\n\n`;
}

function llamaBody(request: ChatRequest): LlamaRequest {
  const body: LlamaRequest = {
    prompt: llamaPrompt(request),
    max_gen_len: maxOutputTokens(request) ?? defaultLlamaMaxGenLength,
  };
  if (typeof request.temperature === 'number') body.temperature = request.temperature;
  if (typeof request.top_p === 'number') body.top_p = request.top_p;
  return body;
}

/**
 * The model id and body for InvokeModel(WithResponseStream): Claude's Messages body without model and stream,
 * with Bedrock's version and, for an Anthropic front client, the beta flags the channel passes on
 * (`anthropic_beta`: Bedrock takes them in the body; see `channelBetas`).
 */
export function buildBedrockInvocation(call: RelayCall): BedrockInvocation {
  const { modelId, family } = bedrockModel(call.model);
  if (family === 'llama') return { modelId, family, body: JSON.stringify(llamaBody(readChatRequest(call))) };
  const { body: whole, betas } = claudeCallRequest(call);
  const { model: _model, stream: _stream, ...claude } = whole;
  const body = {
    anthropic_version: bedrockAnthropicVersion,
    ...(betas.length > 0 ? { anthropic_beta: betas } : {}),
    ...claude,
  };
  return { modelId, family, body: JSON.stringify(body) };
}
