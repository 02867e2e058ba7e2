import type { RelayCall, RelayChunk } from '../../adaptor.js';
import type { Usage } from '../../adaptor.js';
import { ChunkWriter, streamErrorChunk } from '../openai-kit/chat-answer.js';
import { readChatRequest } from '../openai-kit/chat-request.js';
import { isObject, parseJson } from '../openai-kit/json.js';
import { readSseEvents, type SseEvent } from '../openai-kit/sse-events.js';
import { usageOf } from '../openai-kit/usage.js';
import type { CozeChatEvent, CozeError, CozeMessageEvent } from './types.js';

/** What a Coze stream says, one step at a time (shared by the stream and the gathered whole answer). */
export type CozeStep =
  { kind: 'text'; text: string } | { kind: 'done'; usage?: Usage } | { kind: 'error'; message: string; code: string };

/** One Coze v3 SSE event as a step; undefined for events that say nothing to the client. */
export function cozeStep(event: SseEvent): CozeStep | undefined {
  const data = parseJson(event.data);
  switch (event.event) {
    case 'conversation.message.delta': {
      const message = data as CozeMessageEvent | undefined;
      return message?.type === 'answer' && message.content ? { kind: 'text', text: message.content } : undefined;
    }
    case 'conversation.chat.completed':
    case 'conversation.chat.requires_action': {
      const usage = (data as CozeChatEvent | undefined)?.usage;
      return {
        kind: 'done',
        usage: usage ? usageOf(usage.input_count ?? 0, usage.output_count ?? 0, usage.token_count) : undefined,
      };
    }
    case 'conversation.chat.failed': {
      const chat = data as CozeChatEvent | undefined;
      return {
        kind: 'error',
        message: chat?.last_error?.msg || 'Coze chat failed',
        code: String(chat?.last_error?.code ?? 'chat_failed'),
      };
    }
    case 'error': {
      const error = (isObject(data) ? data : {}) as Partial<CozeError>;
      return { kind: 'error', message: error.msg || 'Coze stream error', code: String(error.code ?? 'coze_error') };
    }
    case 'done':
      return { kind: 'done' };
    default:
      return undefined;
  }
}

/** A Coze v3 stream as OpenAI chunks. */
export async function* readCozeStream(body: AsyncIterable<Buffer>, call: RelayCall): AsyncIterable<RelayChunk> {
  const writer = new ChunkWriter(call.model, readChatRequest(call).stream_options?.include_usage === true);
  for await (const event of readSseEvents(body)) {
    const step = cozeStep(event);
    if (!step) continue;
    if (step.kind === 'text') yield writer.delta({ content: step.text });
    else if (step.kind === 'error') {
      yield streamErrorChunk(step.message, 'coze_error', step.code);
      return;
    } else {
      yield* writer.finish('stop', step.usage);
      return;
    }
  }
  yield* writer.finish('stop', undefined);
}
