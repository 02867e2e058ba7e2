import type { RelayCall, RelayChunk } from '../../adaptor.js';
import { readSseData } from '../../pipeline/sse-lines.js';
import { readOpenAIStream } from '../openai/stream.js';
import { nowSeconds } from '../../../lib/time.js';
import { completionId } from '../openai-kit/chat-answer.js';
import { isObject, parseJson } from '../openai-kit/json.js';
import { usageOf } from '../openai-kit/usage.js';

/** The native `run` stream (`data: {"response":"Hel"}` … `[DONE]`) as text-completion chunks. */
async function* readRunStream(body: AsyncIterable<Buffer>, call: RelayCall): AsyncIterable<RelayChunk> {
  const id = completionId().replace('chatcmpl-', 'cmpl-');
  const created = nowSeconds();
  const chunk = (text: string, finishReason: string | null, usage?: RelayChunk['usage']): RelayChunk => ({
    data: JSON.stringify({
      id,
      object: 'text_completion',
      created,
      model: call.model,
      choices: [{ index: 0, text, finish_reason: finishReason, logprobs: null }],
    }),
    text: text || undefined,
    usage,
  });
  for await (const data of readSseData(body)) {
    if (data === '[DONE]') break;
    const event = parseJson(data);
    if (!isObject(event)) continue;
    if (typeof event.response === 'string' && event.response !== '') yield chunk(event.response, null);
    const usage = isObject(event.usage) ? event.usage : undefined;
    if (usage && typeof usage.total_tokens === 'number') {
      yield chunk(
        '',
        'stop',
        usageOf(Number(usage.prompt_tokens ?? 0), Number(usage.completion_tokens ?? 0), usage.total_tokens),
      );
      return;
    }
  }
  yield chunk('', 'stop');
}

/** Chat streams are OpenAI's and pass through; completion streams come from the native `run` endpoint. */
export function readCloudflareStream(body: AsyncIterable<Buffer>, call: RelayCall): AsyncIterable<RelayChunk> {
  return call.mode === 'completions' ? readRunStream(body, call) : readOpenAIStream(body, call);
}
