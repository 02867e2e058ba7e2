import type { RelayCall, RelayResult, UpstreamErrorBody, UpstreamResponse } from '../../adaptor.js';
import { UpstreamError } from '../../upstream-error.js';
import { nowSeconds } from '../../../lib/time.js';
import { chatCompletion, chatResult, jsonResult } from '../openai-kit/chat-answer.js';
import { isObject, parseJsonObject, tryParseObject } from '../openai-kit/json.js';
import { vendorErrorBody } from '../openai-kit/upstream-errors.js';
import { readImagesUsage } from '../openai-kit/media-usage.js';
import { readUsage, usageOf } from '../openai-kit/usage.js';
import { choicesText } from '../openai/response.js';
import { zhipuApiVersion } from './models.js';
import type { ZhipuV3Response, ZhipuV3Usage, ZhipuV4Error } from './types.js';

/**
 * Status for a Zhipu business code (v3 answers everything with 200): 1000–1004 authentication, 1113 arrears,
 * 1261/1301 bad or unsafe input, 1302/1303/1305 rate limits. https://open.bigmodel.cn/dev/api/error-code/error-code-v4
 */
function statusOfCode(code: number): number {
  if (code >= 1000 && code <= 1004) return 401;
  if (code === 1113) return 403;
  if ([1210, 1214, 1261, 1301].includes(code)) return 400;
  if ([1302, 1303, 1305].includes(code)) return 429;
  return 500;
}

/** A Zhipu failure in OpenAI's shape; arrears (1113, 余额不足) read as `insufficient_quota` like OpenAI's. */
export function zhipuErrorBody(code: string | number, message: string, httpStatus?: number): UpstreamErrorBody {
  const numeric = Number(code);
  const status = httpStatus && httpStatus >= 400 ? httpStatus : statusOfCode(numeric);
  return vendorErrorBody(status, message, numeric === 1113 ? 'insufficient_quota' : 'zhipu_error', code);
}

/** Zhipu's extra finish reasons in OpenAI's words (`sensitive` is its content filter). */
export const zhipuFinishReason = (reason: unknown) => (reason === 'sensitive' ? 'content_filter' : reason);

/** v3 content is a JSON string inside the string (`"\"你好\""`); unwrap it. */
export function unwrapV3Content(content: string): string {
  if (content.length >= 2 && content.startsWith('"') && content.endsWith('"')) {
    try {
      const parsed: unknown = JSON.parse(content);
      if (typeof parsed === 'string') return parsed;
    } catch {
      return content.slice(1, -1);
    }
  }
  return content;
}

export const zhipuV3Usage = (usage: ZhipuV3Usage | undefined) =>
  usageOf(usage?.prompt_tokens ?? 0, usage?.completion_tokens ?? 0, usage?.total_tokens);

function readV4(response: UpstreamResponse, call: RelayCall): RelayResult {
  const payload = parseJsonObject(response.body);
  const error = (payload as ZhipuV4Error).error;
  if (isObject(error) && error.message)
    throw new UpstreamError(zhipuErrorBody(error.code ?? 'zhipu_error', error.message));
  const usage = readUsage(payload.usage);
  if (call.mode === 'images') return jsonResult(payload, readImagesUsage(payload));
  if (call.mode !== 'chat') return jsonResult(payload, usage);
  const choices = Array.isArray(payload.choices) ? payload.choices.filter(isObject) : [];
  for (const choice of choices) choice.finish_reason = zhipuFinishReason(choice.finish_reason);
  const answer = { ...payload, object: 'chat.completion', model: payload.model ?? call.model, choices };
  return jsonResult(answer, usage, choicesText(answer));
}

function readV3(response: UpstreamResponse, call: RelayCall): RelayResult {
  const answer = parseJsonObject(response.body) as unknown as ZhipuV3Response;
  if (!answer.success) throw new UpstreamError(zhipuErrorBody(answer.code, answer.msg));
  const data = answer.data ?? {};
  const content = (data.choices ?? []).map((choice) => unwrapV3Content(choice.content)).join('');
  return chatResult(
    chatCompletion({
      id: data.task_id ?? data.request_id ?? `chatcmpl-${nowSeconds()}`,
      created: nowSeconds(),
      model: call.model,
      message: { role: 'assistant', content },
      finishReason: 'stop',
      usage: zhipuV3Usage(data.usage),
    }),
  );
}

/** A whole answer of either API version, converted to OpenAI's shape. */
export function readZhipuResponse(response: UpstreamResponse, call: RelayCall): RelayResult {
  return zhipuApiVersion(call.model, call.mode) === 'v4' ? readV4(response, call) : readV3(response, call);
}

/** A non-2xx answer: v4's `{error:{code,message}}` or v3's `{code,msg}`, the HTTP status kept. */
export function readZhipuError(response: UpstreamResponse): UpstreamErrorBody {
  const payload = tryParseObject(response.body);
  const status = response.status >= 400 ? response.status : undefined;
  if (payload && isObject(payload.error) && typeof payload.error.message === 'string') {
    return zhipuErrorBody(String(payload.error.code ?? 'zhipu_error'), payload.error.message, status);
  }
  if (payload && typeof payload.msg === 'string')
    return zhipuErrorBody(Number(payload.code ?? 500), payload.msg, status);
  return vendorErrorBody(status ?? 500, response.body.toString('utf8').slice(0, 500), 'zhipu_error', null);
}
