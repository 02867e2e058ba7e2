import { setTimeout as sleep } from 'node:timers/promises';
import type { AdaptorTools, RelayCall, RelayResult, UpstreamErrorBody, UpstreamResponse } from '../../adaptor.js';
import { UpstreamError, unreadableAnswer } from '../../upstream-error.js';
import { readErrorBody } from '../openai/response.js';
import { nowSeconds } from '../../../lib/time.js';
import { chatCompletion, chatResult } from '../openai-kit/chat-answer.js';
import { bodyExcerpt, isObject, parseJson, stringOf } from '../openai-kit/json.js';
import { imagesUsage } from '../openai-kit/media-usage.js';
import { errorBody } from '../openai-kit/upstream-errors.js';
import { usageOf } from '../openai-kit/usage.js';
import { replicateHeaders } from './request.js';
import type { Prediction } from './types.js';

const pollIntervalMs = 1000;
const maxPollMs = 10 * 60 * 1000;
const terminal = new Set(['succeeded', 'failed', 'canceled']);

/** Replicate's problem details (`detail`, `title`) as an OpenAI error. */
export function readReplicateError(response: UpstreamResponse): UpstreamErrorBody {
  const parsed = parseJson(response.body);
  const message = isObject(parsed) ? stringOf(parsed.detail) || stringOf(parsed.title) : '';
  return message
    ? errorBody(response.status, message, 'replicate_error', String(response.status))
    : readErrorBody(response.status, response.body);
}

export function parsePrediction(body: Buffer): Prediction {
  const parsed = parseJson(body);
  if (!isObject(parsed) || typeof parsed.status !== 'string' || !isObject(parsed.urls))
    throw unreadableAnswer(`not a prediction: ${bodyExcerpt(body)}`);
  return parsed as unknown as Prediction;
}

/** Polls a prediction (through the relay's client) until it succeeds, fails or is canceled. */
export async function finishedPrediction(
  prediction: Prediction,
  call: RelayCall,
  tools: AdaptorTools,
): Promise<Prediction> {
  const deadline = Date.now() + maxPollMs;
  let current = prediction;
  while (!terminal.has(current.status)) {
    if (Date.now() > deadline)
      throw new UpstreamError(
        errorBody(
          504,
          `Replicate prediction ${current.id} did not finish in time`,
          'replicate_error',
          'prediction_timeout',
        ),
      );
    await sleep(pollIntervalMs, undefined, { signal: tools.signal });
    const answer = await tools.send({ url: current.urls.get, method: 'GET', headers: replicateHeaders(call) });
    if (answer.status < 200 || answer.status >= 300) throw new UpstreamError(readReplicateError(answer));
    current = parsePrediction(answer.body);
  }
  if (current.status !== 'succeeded') {
    throw new UpstreamError(
      errorBody(
        500,
        current.error || `Replicate prediction ${current.status}`,
        'replicate_error',
        `prediction_${current.status}`,
      ),
    );
  }
  return current;
}

const outputList = (output: Prediction['output']): string[] =>
  output === null ? [] : Array.isArray(output) ? output.map(String) : [String(output)];

async function imageResult(prediction: Prediction, call: RelayCall, tools: AdaptorTools): Promise<RelayResult> {
  const wantsBase64 = call.body.kind === 'json' && call.body.value.response_format === 'b64_json';
  const data = [];
  for (const url of outputList(prediction.output)) {
    if (!wantsBase64) {
      data.push({ url });
      continue;
    }
    const image = await tools.send({ url, method: 'GET', headers: {} });
    if (image.status !== 200)
      throw new UpstreamError(
        errorBody(502, `downloading Replicate output failed with status ${image.status}`, 'replicate_error'),
      );
    data.push({ b64_json: image.body.toString('base64') });
  }
  return {
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify({ created: nowSeconds(), data })),
    usage: imagesUsage(data.length),
  };
}

/**
 * The created prediction (finished already with `Prefer: wait`, else polled) as a chat answer (token
 * outputs joined) or an image answer (output URLs, downloaded when `b64_json` was asked for).
 */
export async function readReplicateResponse(
  response: UpstreamResponse,
  call: RelayCall,
  tools: AdaptorTools,
): Promise<RelayResult> {
  const prediction = await finishedPrediction(parsePrediction(response.body), call, tools);
  if (call.mode === 'images') return imageResult(prediction, call, tools);
  const text = outputList(prediction.output).join('');
  const metrics = prediction.metrics;
  const usage =
    metrics?.input_token_count || metrics?.output_token_count
      ? usageOf(metrics.input_token_count ?? 0, metrics.output_token_count ?? 0)
      : usageOf(0, 0);
  return chatResult(
    chatCompletion({ model: call.model, message: { role: 'assistant', content: text }, finishReason: 'stop', usage }),
  );
}
