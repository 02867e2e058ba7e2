import type { RelayCall, RelayChunk } from '../../adaptor.js';
import { readAnthropicStream } from '../anthropic/stream.js';
import { readGeminiStream } from '../gemini/stream.js';
import { isVertexClaude } from './models.js';

/** Vertex streams are Anthropic's events for Claude models and Gemini's SSE for the others. */
export function readVertexStream(body: AsyncIterable<Buffer>, call: RelayCall): AsyncIterable<RelayChunk> {
  return isVertexClaude(call.model) ? readAnthropicStream(body, call) : readGeminiStream(body, call);
}
