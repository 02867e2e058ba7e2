import type { RelayCall, RelayChunk } from '../../adaptor.js';
import { ChunkWriter, streamErrorChunk, usageOf } from '../chat-shapes/chat-answer.js';
import { readChatRequest } from '../chat-shapes/chat-request.js';
import type { ChatUsage } from '../chat-shapes/openai-chat.types.js';
import { readSseEvents } from '../chat-shapes/sse-events.js';
import { isRecord, parseJsonBody } from '../chat-shapes/upstream-errors.js';
import type { CozeChatEvent, CozeError, CozeMessageEvent } from './types.js';

/** What a Coze stream says, one step at a time (shared by the stream and the gathered whole answer). */
export type CozeStep =
  | { kind: 'text'; text: string }
  | { kind: 'done'; usage?: ChatUsage }
  | { kind: 'error'; message: string; code: string };

/** Coze v3 SSE events as steps: answer deltas, the completed chat's usage, failures. */
export async function* readCozeSteps(body: AsyncIterable<Buffer>): AsyncIterable<CozeStep> {
  for await (const event of readSseEvents(body)) {
    const data = parseJsonBody(event.data);
    if (event.event === 'conversation.message.delta') {
      const message = data as CozeMessageEvent | undefined;
      if (message?.type === 'answer' && message.content) yield { kind: 'text', text: message.content };
    } else if (event.event === 'conversation.chat.completed' || event.event === 'conversation.chat.requires_action') {
      const chat = data as CozeChatEvent | undefined;
      const usage = chat?.usage;
      yield { kind: 'done', usage: usage ? usageOf(usage.input_count ?? 0, usage.output_count ?? 0, usage.token_count) : undefined };
      return;
    } else if (event.event === 'conversation.chat.failed') {
      const chat = data as CozeChatEvent | undefined;
      yield { kind: 'error', message: chat?.last_error?.msg || 'Coze chat failed', code: String(chat?.last_error?.code ?? 'chat_failed') };
      return;
    } else if (event.event === 'error') {
      const error = (isRecord(data) ? data : {}) as Partial<CozeError>;
      yield { kind: 'error', message: error.msg || 'Coze stream error', code: String(error.code ?? 'coze_error') };
      return;
    } else if (event.event === 'done') {
      return;
    }
  }
}

/** A Coze v3 stream as OpenAI chunks. */
export async function* readCozeStream(body: AsyncIterable<Buffer>, call: RelayCall): AsyncIterable<RelayChunk> {
  const writer = new ChunkWriter(call.model, readChatRequest(call).stream_options?.include_usage === true);
  for await (const step of readCozeSteps(body)) {
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
