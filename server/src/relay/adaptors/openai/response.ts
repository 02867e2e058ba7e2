import type { RelayCall, RelayResult, UpstreamErrorBody, UpstreamResponse, Usage } from '../../adaptor.js';
import { UpstreamError, unreadableAnswer } from '../../upstream-error.js';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** A usage object with numeric counts, or undefined. */
export function readUsage(value: unknown): Usage | undefined {
  if (!isObject(value)) return undefined;
  const prompt = Number(value.prompt_tokens ?? 0);
  const completion = Number(value.completion_tokens ?? 0);
  const total = Number(value.total_tokens ?? prompt + completion);
  if (![prompt, completion, total].every(Number.isFinite)) return undefined;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: total };
}

/** The text of a message `content`: a string, or the text parts of an array. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (isObject(part) && part.type === 'text' ? text(part.text) : '')).join('');
}

/** Generated text of a chat or completion answer (whole or one stream chunk). */
export function choicesText(payload: Json): string {
  if (!Array.isArray(payload.choices)) return '';
  let result = '';
  for (const choice of payload.choices) {
    if (!isObject(choice)) continue;
    const message = isObject(choice.message) ? choice.message : isObject(choice.delta) ? choice.delta : undefined;
    if (message) result += contentText(message.content) + text(message.reasoning_content);
    result += text(choice.text);
  }
  return result;
}

const upstreamMessageFields = ['message', 'msg', 'err', 'error_msg'] as const;

/** one-api's rule for reading an upstream error body of any vendor. */
export function readErrorBody(status: number, body: Buffer): UpstreamErrorBody {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (isObject(parsed) && isObject(parsed.error) && text(parsed.error.message)) {
    const error = parsed.error;
    return {
      status,
      message: text(error.message),
      type: text(error.type) || 'upstream_error',
      param: error.param === undefined || error.param === null ? null : String(error.param),
      code: error.code === undefined || error.code === null ? null : String(error.code),
    };
  }
  let message = '';
  if (isObject(parsed)) {
    for (const field of upstreamMessageFields) message ||= text(parsed[field]);
    if (isObject(parsed.header)) message ||= text(parsed.header.message);
    if (isObject(parsed.response) && isObject(parsed.response.error)) message ||= text(parsed.response.error.message);
  }
  return {
    status,
    message: message || `bad response status code ${status}`,
    type: 'upstream_error',
    param: String(status),
    code: 'bad_response_status_code',
  };
}

function parseJson(response: UpstreamResponse): Json {
  let parsed: unknown;
  try {
    parsed = JSON.parse(response.body.toString('utf8'));
  } catch {
    const type = response.headers['content-type'] ?? 'no content type';
    throw unreadableAnswer(`not JSON (${type}, ${response.body.length} bytes)`);
  }
  if (!isObject(parsed)) throw unreadableAnswer('not a JSON object');
  // Some upstreams answer 200 with an error object (one-api checks error.type).
  if (isObject(parsed.error) && (text(parsed.error.type) || text(parsed.error.message))) {
    const error = readErrorBody(response.status, response.body);
    throw new UpstreamError({ ...error, status: 500 });
  }
  return parsed;
}

const passedHeaders = ['content-type', 'openai-processing-ms', 'openai-model', 'x-request-id'];

function copiedHeaders(response: UpstreamResponse): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of passedHeaders) {
    const value = response.headers[name];
    if (value) headers[name] = value;
  }
  return headers;
}

/** Reads a successful OpenAI-protocol answer: the body goes to the client unchanged, usage and text for billing. */
export function readOpenAIResponse(response: UpstreamResponse, call: RelayCall): RelayResult {
  const headers = copiedHeaders(response);
  const base = { status: response.status, headers, body: response.body };
  if (call.mode === 'audio-speech') return base;
  if (call.mode === 'audio-transcription' || call.mode === 'audio-translation') {
    const isJson = (headers['content-type'] ?? '').includes('json');
    if (!isJson) return { ...base, text: response.body.toString('utf8') };
    return { ...base, text: text(parseJson(response).text) };
  }
  const payload = parseJson(response);
  if (call.mode === 'images') return base;
  return { ...base, usage: readUsage(payload.usage), text: choicesText(payload) };
}
