import type { RelayCall, RelayChunk } from '../../adaptor.js';
import { readChatRequest } from '../openai-kit/chat-request.js';
import type { ChatToolCall } from '../openai-kit/chat-types.js';
import { isObject, tryParseObject } from '../openai-kit/json.js';
import { answersThroughTool, answerToolName } from './request.js';
import { answerFinishReason } from './response.js';

type ToolCallDelta = Partial<ChatToolCall> & { index: number };

/**
 * A Claude stream's OpenAI chunks for a request whose response_format went as the answer tool (`answerTool`):
 * that tool's input streams as content, the client's own tool calls keep their order (numbered without it),
 * and a stream that called none of them finishes with `stop`. Other calls' chunks pass as they are.
 */
export async function* withStructuredAnswer(
  chunks: AsyncIterable<RelayChunk>,
  call: RelayCall,
): AsyncIterable<RelayChunk> {
  if (!answersThroughTool(readChatRequest(call))) {
    yield* chunks;
    return;
  }
  let answerIndex: number | undefined;
  let clientCalls = 0;
  for await (const chunk of chunks) {
    const parsed = tryParseObject(chunk.data);
    const choice = Array.isArray(parsed?.choices) ? (parsed.choices[0] as unknown) : undefined;
    if (!isObject(choice) || !isObject(choice.delta)) {
      yield chunk;
      continue;
    }
    const delta = choice.delta;
    let text = chunk.text ?? '';
    if (Array.isArray(delta.tool_calls)) {
      const kept: ToolCallDelta[] = [];
      for (const toolCall of delta.tool_calls as ToolCallDelta[]) {
        if (toolCall.id && toolCall.function?.name === answerToolName) answerIndex = toolCall.index;
        else if (toolCall.index === answerIndex) {
          const json = toolCall.function?.arguments ?? '';
          delta.content = `${typeof delta.content === 'string' ? delta.content : ''}${json}`;
          text += json;
        } else {
          if (toolCall.id) clientCalls += 1;
          const shifted = answerIndex !== undefined && toolCall.index > answerIndex;
          kept.push(shifted ? { ...toolCall, index: toolCall.index - 1 } : toolCall);
        }
      }
      if (kept.length > 0) delta.tool_calls = kept;
      else delete delta.tool_calls;
      if (delta.content === undefined) delta.content = '';
    }
    if (typeof choice.finish_reason === 'string')
      choice.finish_reason = answerFinishReason(choice.finish_reason, clientCalls > 0);
    yield { ...chunk, data: JSON.stringify(parsed), text: text || undefined };
  }
}
