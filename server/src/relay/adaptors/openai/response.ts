import type { RelayCall, RelayResult, UpstreamErrorBody, UpstreamResponse } from '../../adaptor.js';
import { UpstreamError, unreadableAnswer } from '../../upstream-error.js';
import { messageText } from '../openai-kit/chat-request.js';
import { isObject, stringOf } from '../openai-kit/json.js';
import { readImagesUsage, readTranscriptionUsage } from '../openai-kit/media-usage.js';
import { readUsage } from '../openai-kit/usage.js';

type Json = Record<string, unknown>;

/** Generated text of a chat or completion answer (whole or one stream chunk). */
export function choicesText(payload: Json): string {
  if (!Array.isArray(payload.choices)) return '';
  let result = '';
  for (const choice of payload.choices) {
    if (!isObject(choice)) continue;
    const message = isObject(choice.message) ? choice.message : isObject(choice.delta) ? choice.delta : undefined;
    if (message) result += messageText(message.content) + stringOf(message.reasoning_content);
    result += stringOf(choice.text);
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
  if (isObject(parsed) && isObject(parsed.error) && stringOf(parsed.error.message)) {
    const error = parsed.error;
    return {
      status,
      message: stringOf(error.message),
      type: stringOf(error.type) || 'upstream_error',
      param: error.param === undefined || error.param === null ? null : String(error.param),
      code: error.code === undefined || error.code === null ? null : String(error.code),
    };
  }
  let message = '';
  if (isObject(parsed)) {
    for (const field of upstreamMessageFields) message ||= stringOf(parsed[field]);
    if (isObject(parsed.header)) message ||= stringOf(parsed.header.message);
    if (isObject(parsed.response) && isObject(parsed.response.error))
      message ||= stringOf(parsed.response.error.message);
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
  if (isObject(parsed.error) && (stringOf(parsed.error.type) || stringOf(parsed.error.message))) {
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
    const transcript = parseJson(response);
    return { ...base, usage: readTranscriptionUsage(transcript), text: stringOf(transcript.text) };
  }
  const payload = parseJson(response);
  if (call.mode === 'images') return { ...base, usage: readImagesUsage(payload) };
  return { ...base, usage: readUsage(payload.usage), text: choicesText(payload) };
}
