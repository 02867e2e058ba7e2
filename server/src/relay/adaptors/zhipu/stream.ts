import type { RelayCall, RelayChunk } from '../../adaptor.js';
import { readLines } from '../../pipeline/sse-lines.js';
import { UpstreamError } from '../../upstream-error.js';
import { chatChunkData, nowSeconds } from '../chat-kit/openai-answer.js';
import { isObject } from '../chat-kit/openai-chat.js';
import { tryParseObject } from '../chat-kit/upstream-failure.js';
import { choicesText, readUsage } from '../openai/response.js';
import { zhipuApiVersion } from './models.js';
import { zhipuErrorBody, zhipuFinishReason, zhipuV3Usage } from './response.js';
import type { ZhipuV3StreamMeta } from './types.js';

/** v4 chunks are OpenAI's, except that `object` may be missing and `sensitive` ends a filtered answer. */
async function* readV4Stream(body: AsyncIterable<Buffer>, call: RelayCall): AsyncIterable<RelayChunk> {
  for await (const line of readLines(body)) {
    if (!line.startsWith('data:')) continue;
    const data = line.slice(5).trim();
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

interface V3Event {
  event: string;
  data: string[];
  meta?: string;
}

/** Groups SSE lines into events (v3 splits multi-line text over several `data:` lines). */
async function* readV3Events(body: AsyncIterable<Buffer>): AsyncIterable<V3Event> {
  let current: V3Event = { event: 'add', data: [] };
  for await (const line of readLines(body)) {
    if (line === '') {
      if (current.data.length > 0 || current.meta !== undefined || current.event !== 'add') yield current;
      current = { event: 'add', data: [] };
      continue;
    }
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const raw = colon === -1 ? '' : line.slice(colon + 1);
    const value = raw.startsWith(' ') ? raw.slice(1) : raw; // SSE drops one space after the colon
    if (field === 'event') current.event = value.trim();
    else if (field === 'data') current.data.push(value);
    else if (field === 'meta') current.meta = value;
  }
  if (current.data.length > 0 || current.meta !== undefined) yield current;
}

/** v3 `sse-invoke`: `event:add` carries raw text, `event:finish` the usage in its `meta:` line. */
async function* readV3Stream(body: AsyncIterable<Buffer>, call: RelayCall): AsyncIterable<RelayChunk> {
  const id = `chatcmpl-${nowSeconds()}`;
  const created = nowSeconds();
  let first = true;
  for await (const event of readV3Events(body)) {
    const text = event.data.join('\n');
    if (event.event === 'error' || event.event === 'interrupted') {
      throw new UpstreamError(zhipuErrorBody(500, text || `stream ${event.event}`));
    }
    const delta = first ? { role: 'assistant' as const, content: text } : { content: text };
    first = false;
    if (event.event !== 'finish') {
      yield { data: chatChunkData({ id, created, model: call.model, delta, finishReason: null }), text };
      continue;
    }
    const meta = (event.meta ? tryParseObject(event.meta) : undefined) as ZhipuV3StreamMeta | undefined;
    const usage = meta?.usage ? zhipuV3Usage(meta.usage) : undefined;
    yield { data: chatChunkData({ id, created, model: call.model, delta, finishReason: 'stop', usage }), usage, text };
  }
}

/** Either version's stream as OpenAI chunks. */
export function readZhipuStream(body: AsyncIterable<Buffer>, call: RelayCall): AsyncIterable<RelayChunk> {
  return zhipuApiVersion(call.model, call.mode) === 'v4' ? readV4Stream(body, call) : readV3Stream(body, call);
}
