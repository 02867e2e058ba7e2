import type { RelayResult, Usage, UpstreamResponse } from '../../adaptor.js';
import { isObject, parseJsonObject, stringOf } from '../openai-kit/json.js';
import { countOf, promptDetailsParts, usageOf, withUsageParts } from '../openai-kit/usage.js';

/**
 * A Responses API answer's usage as the relay bills it
 * (https://platform.openai.com/docs/api-reference/responses/object#responses/object-usage): `input_tokens`
 * (the cached ones, `input_tokens_details.cached_tokens`, are part of it), `output_tokens` (reasoning
 * included, `output_tokens_details.reasoning_tokens`), and one web search per `web_search_call` item of the
 * response's output (https://platform.openai.com/docs/guides/tools-web-search).
 */
export function usageOfResponse(usage: unknown, output?: unknown): Usage | undefined {
  if (!isObject(usage)) return undefined;
  const input = Number(usage.input_tokens ?? 0);
  const outputTokens = Number(usage.output_tokens ?? 0);
  if (!Number.isFinite(input) || !Number.isFinite(outputTokens)) return undefined;
  const total = Number(usage.total_tokens);
  const read = usageOf(input, outputTokens, Number.isFinite(total) ? total : undefined);
  const outputDetails = isObject(usage.output_tokens_details) ? usage.output_tokens_details : {};
  return withUsageParts(read, {
    ...promptDetailsParts(usage.input_tokens_details),
    reasoning: countOf(outputDetails.reasoning_tokens),
    webSearches: Array.isArray(output)
      ? output.filter((item) => isObject(item) && item.type === 'web_search_call').length
      : 0,
  });
}

/** The generated text of a response object's output (messages and call arguments), for counting without usage. */
function outputText(output: unknown): string {
  if (!Array.isArray(output)) return '';
  let text = '';
  for (const item of output) {
    if (!isObject(item)) continue;
    text += stringOf(item.arguments);
    if (Array.isArray(item.content))
      for (const part of item.content) if (isObject(part)) text += stringOf(part.text) + stringOf(part.refusal);
  }
  return text;
}

/** A whole Responses answer: the response object goes on as it came; usage and text for billing. */
export function readResponsesAnswer(response: UpstreamResponse): RelayResult {
  const payload = parseJsonObject(response.body);
  return {
    status: response.status,
    headers: { 'content-type': 'application/json' },
    body: response.body,
    usage: usageOfResponse(payload.usage, payload.output),
    text: outputText(payload.output),
  };
}

/** The events that end a Responses stream, each carrying the final response and its usage. */
export const finalResponseEvents = new Set(['response.completed', 'response.incomplete', 'response.failed']);
