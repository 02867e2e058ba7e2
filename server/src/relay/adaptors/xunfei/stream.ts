import type { RelayCall, RelayChunk } from '../../adaptor.js';
import { readLines } from '../../pipeline/sse-lines.js';
import { UpstreamError, unreadableAnswer } from '../../upstream-error.js';
import { nowSeconds } from '../../../lib/time.js';
import { chatChunkData, toolCallId } from '../openai-kit/chat-answer.js';
import type { ChatDelta } from '../openai-kit/chat-types.js';
import { tryParseObject } from '../openai-kit/json.js';
import { isLastFrame, sparkErrorBody, sparkUsage } from './response.js';
import type { SparkFrame } from './types.js';

/** Spark frames (one JSON per line from the transport) as OpenAI chunks; `status: 2` finishes with usage. */
export async function* readXunfeiStream(body: AsyncIterable<Buffer>, call: RelayCall): AsyncIterable<RelayChunk> {
  const created = nowSeconds();
  let first = true;
  for await (const line of readLines(body)) {
    const frame = tryParseObject(line.trim()) as SparkFrame | undefined;
    if (!frame?.header) continue;
    if (frame.header.code !== 0) throw new UpstreamError(sparkErrorBody(frame));
    const texts = frame.payload?.choices?.text ?? [];
    const content = texts.map((text) => text.content ?? '').join('');
    const functionCall = texts.find((text) => text.function_call)?.function_call;
    const delta: ChatDelta = first ? { role: 'assistant', content } : { content };
    first = false;
    if (functionCall) {
      delta.tool_calls = [
        {
          index: 0,
          id: toolCallId(),
          type: 'function',
          function: { name: functionCall.name, arguments: functionCall.arguments || '{}' },
        },
      ];
    }
    const last = isLastFrame(frame);
    const usage = last ? sparkUsage(frame) : undefined;
    const finishReason = last ? (functionCall ? 'tool_calls' : 'stop') : null;
    yield {
      data: chatChunkData({ id: frame.header.sid, created, model: call.model, delta, finishReason, usage }),
      usage,
      text: content + (functionCall?.arguments ?? ''),
    };
    if (last) return;
  }
  throw unreadableAnswer('the Spark socket closed before the last frame');
}
