import type { RelayCall, RelayResult, UpstreamResponse } from '../../adaptor.js';
import { UpstreamError } from '../../upstream-error.js';
import { nowSeconds } from '../../../lib/time.js';
import { jsonResult } from '../openai-kit/chat-answer.js';
import { bodyOf } from '../openai-kit/chat-request.js';
import type { SendUpstream } from '../openai-kit/credential-cache.js';
import { parseJsonObject } from '../openai-kit/json.js';
import { imagesUsage } from '../openai-kit/media-usage.js';
import { vendorErrorBody } from '../openai-kit/upstream-errors.js';
import { aliTaskRequest } from './request.js';
import { aliErrorBody, readAliError } from './response.js';
import type { AliTaskResponse } from './types.js';

export interface TaskPolling {
  intervalMs: number;
  maxPolls: number;
}

/** one-api polled every 2 s, 20 times. */
export const defaultTaskPolling: TaskPolling = { intervalMs: 2000, maxPolls: 20 };

const finalStatuses = new Set(['SUCCEEDED', 'FAILED', 'CANCELED', 'UNKNOWN']);

function readTask(response: UpstreamResponse): AliTaskResponse {
  if (response.status >= 300) throw new UpstreamError(readAliError(response));
  const task = parseJsonObject(response.body) as AliTaskResponse;
  if (task.code && !task.output) throw new UpstreamError(aliErrorBody(task));
  return task;
}

/**
 * Waits for a submitted image task (the answer of the `X-DashScope-Async` submission) and returns OpenAI's
 * images answer; with `response_format: b64_json` each picture is downloaded and encoded.
 */
export async function finishAliImageTask(
  submitted: UpstreamResponse,
  call: RelayCall,
  send: SendUpstream,
  polling: TaskPolling = defaultTaskPolling,
): Promise<RelayResult> {
  let task = readTask(submitted);
  const taskId = task.output?.task_id;
  if (!taskId) throw new UpstreamError(vendorErrorBody(502, 'DashScope gave no task_id', 'ali_error', 'no_task_id'));
  for (let poll = 0; !finalStatuses.has(task.output?.task_status ?? '') && poll < polling.maxPolls; poll++) {
    await new Promise((resolve) => setTimeout(resolve, polling.intervalMs));
    task = readTask(await send(aliTaskRequest(call, taskId)));
  }
  const output = task.output;
  if (output?.task_status !== 'SUCCEEDED') {
    const message = output?.message || `image task ${taskId} ended as ${output?.task_status ?? 'unknown'}`;
    const status = finalStatuses.has(output?.task_status ?? '') ? 500 : 504;
    throw new UpstreamError(vendorErrorBody(status, message, 'ali_error', output?.code ?? 'task_not_succeeded'));
  }
  const wantsBase64 = bodyOf(call).response_format === 'b64_json';
  const data = [];
  for (const result of output.results ?? []) {
    if (!result.url) continue;
    if (!wantsBase64) {
      data.push({ url: result.url });
      continue;
    }
    const picture = await send({ url: result.url, method: 'GET', headers: {} });
    data.push({ b64_json: picture.body.toString('base64') });
  }
  return jsonResult({ created: nowSeconds(), data }, imagesUsage(task.usage?.image_count ?? data.length));
}
