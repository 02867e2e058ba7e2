import type { RelayCall, RelayResult, UpstreamErrorBody, UpstreamResponse } from '../../adaptor.js';
import { unreadableAnswer } from '../../upstream-error.js';
import { claudeResult, parseClaudeResponse } from '../anthropic/response.js';
import { chatCompletion, chatResult } from '../openai-kit/chat-answer.js';
import { bodyExcerpt, isObject, parseJson } from '../openai-kit/json.js';
import { errorBody } from '../openai-kit/upstream-errors.js';
import { usageOf } from '../openai-kit/usage.js';
import { bedrockModel } from './request.js';
import type { LlamaResponse } from './types.js';

/** Llama's stop_reason in OpenAI's words. */
export const llamaFinishReason = (reason: string | null | undefined) => (reason === 'length' ? 'length' : 'stop');

/** Converts a whole InvokeModel answer (Claude's Messages JSON, or Llama's generation). */
export function readBedrockAnswer(body: Buffer, call: RelayCall): RelayResult {
  if (bedrockModel(call.model).family === 'claude') return claudeResult(parseClaudeResponse(body, 200), call);
  const parsed = parseJson(body);
  if (!isObject(parsed) || typeof parsed.generation !== 'string')
    throw unreadableAnswer(`not a Llama answer: ${bodyExcerpt(body)}`);
  const answer = parsed as unknown as LlamaResponse;
  return chatResult(
    chatCompletion({
      model: call.model,
      message: { role: 'assistant', content: answer.generation },
      finishReason: llamaFinishReason(answer.stop_reason),
      usage: usageOf(answer.prompt_token_count ?? 0, answer.generation_token_count ?? 0),
    }),
  );
}

/** The HTTP status AWS gives each modelled Bedrock exception. */
const exceptionStatus: Record<string, number> = {
  ValidationException: 400,
  AccessDeniedException: 403,
  UnrecognizedClientException: 403,
  InvalidSignatureException: 403,
  ResourceNotFoundException: 404,
  ModelTimeoutException: 408,
  ModelErrorException: 424,
  ThrottlingException: 429,
  ServiceQuotaExceededException: 429,
  ModelNotReadyException: 429,
  InternalServerException: 500,
  ModelStreamErrorException: 424,
  ServiceUnavailableException: 503,
};

/**
 * An error thrown by the AWS SDK (a modelled exception, an unmodelled HTTP failure or a transport error) as
 * an OpenAI error: the exception name becomes type and code, AWS's message is kept.
 */
export function bedrockErrorBody(error: unknown): UpstreamErrorBody {
  const record = isObject(error) ? error : {};
  const name = typeof record.name === 'string' ? record.name : 'BedrockError';
  const metadata = isObject(record.$metadata) ? record.$metadata : {};
  const status = typeof metadata.httpStatusCode === 'number' ? metadata.httpStatusCode : (exceptionStatus[name] ?? 500);
  const message = error instanceof Error && error.message ? error.message : `AWS Bedrock ${name}`;
  return errorBody(status, message, name, name);
}

/** A Bedrock error answer read from HTTP (`{"message"}` with the exception name in `x-amzn-errortype`). */
export function readBedrockHttpError(response: UpstreamResponse): UpstreamErrorBody {
  const parsed = parseJson(response.body);
  const name = (response.headers['x-amzn-errortype'] ?? '').split(':')[0] || 'BedrockError';
  const message = isObject(parsed) && typeof parsed.message === 'string' ? parsed.message : `AWS Bedrock ${name}`;
  return errorBody(response.status, message, name, name);
}
