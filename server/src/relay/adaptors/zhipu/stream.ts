import type { RelayCall, RelayChunk } from '../../adaptor.js';
import { readSseData } from '../../pipeline/sse-lines.js';
import { readSseEvents } from '../openai-kit/sse-events.js';
import { UpstreamError } from '../../upstream-error.js';
import { nowSeconds } from '../../../lib/time.js';
import { chatChunkData } from '../openai-kit/chat-answer.js';
import { isObject, tryParseObject } from '../openai-kit/json.js';
import { choicesText } from '../openai/response.js';
import { readUsage } from '../openai-kit/usage.js';
import { zhipuApiVersion } from './models.js';
import { zhipuErrorBody, zhipuFinishReason, zhipuV3Usage } from './response.js';
import type { ZhipuV3StreamMeta } from './types.js';

/** v4 chunks are OpenAI's, except that `object` may be missing and `sensitive` ends a filtered answer. */
async function* readV4Stream(body: AsyncIterable<Buffer>, call: RelayCall): AsyncIterable<RelayChunk> {
  for await (const data of readSseData(body)) {
    if (data === '[DONE]') return;
    const payload = tryParseObject(data);
    if (!payload) continue;
    if (isObject(payload.error))
      throw new UpstreamError(
        zhipuErrorBody(String(payload.error.code ?? 'zhipu_error'), String(payload.error.message ?? '')),
      );
    const choices = Array.isArray(payload.choices) ? payload.choices.filter(isObject) : [];
    for (const choice of choices) choice.finish_reason = zhipuFinishReason(choice.finish_reason ?? null);
    const chunk = { ...payload, object: 'chat.completion.chunk', model: payload.model ?? call.model, choices };
    yield { data: JSON.stringify(chunk), usage: readUsage(payload.usage), text: choicesText(chunk) };
  }
}

/** v3 `sse-invoke`: `event:add` carries raw text, `event:finish` the usage in its `meta:` line. */
async function* readV3Stream(body: AsyncIterable<Buffer>, call: RelayCall): AsyncIterable<RelayChunk> {
  const id = `chatcmpl-${nowSeconds()}`;
  const created = nowSeconds();
  let first = true;
  for await (const event of readSseEvents(body)) {
    const text = event.data;
    const name = event.event.trim() || 'add';
    if (name === 'error' || name === 'interrupted') {
      throw new UpstreamError(zhipuErrorBody(500, text || `stream ${name}`));
    }
    const delta = first ? { role: 'assistant' as const, content: text } : { content: text };
    first = false;
    if (name !== 'finish') {
      yield { data: chatChunkData({ id, created, model: call.model, delta, finishReason: null }), text };
      continue;
    }
    const meta = (event.fields.meta ? tryParseObject(event.fields.meta) : undefined) as ZhipuV3StreamMeta | undefined;
    const usage = meta?.usage ? zhipuV3Usage(meta.usage) : undefined;
    yield { data: chatChunkData({ id, created, model: call.model, delta, finishReason: 'stop', usage }), usage, text };
  }
}

/** Either version's stream as OpenAI chunks. */
export function readZhipuStream(body: AsyncIterable<Buffer>, call: RelayCall): AsyncIterable<RelayChunk> {
  return zhipuApiVersion(call.model, call.mode) === 'v4' ? readV4Stream(body, call) : readV3Stream(body, call);
}
