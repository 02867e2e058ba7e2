import type { Adaptor, AdaptorTools, OpenedAnswer, RelayCall } from '../../adaptor.js';
import { bytesOf } from '../openai-kit/sse-events.js';
import { replicateModels } from './models.js';
import { openReplicateStream } from './open-stream.js';
import { buildReplicateRequest } from './request.js';
import { readReplicateError, readReplicateResponse } from './response.js';
import { readReplicateStream } from './stream.js';

/** Whole answers are one create call (`Prefer: wait`, polled in readResponse if needed); streams take two calls. */
async function open(call: RelayCall, tools: AdaptorTools): Promise<OpenedAnswer> {
  if (call.stream) return openReplicateStream(call, tools);
  const created = await tools.send(buildReplicateRequest(call));
  // Replicate answers 201 Created; the client gets a converted answer, so a created prediction is a 200.
  const status = created.status === 201 ? 200 : created.status;
  return { status, headers: created.headers, body: bytesOf(created.body) };
}

/** Replicate (type 46): predictions of language models (chat) and image models (images). */
export const replicate = {
  id: 'replicate',
  modes: ['chat', 'images'],
  models: replicateModels,
  buildRequest: buildReplicateRequest,
  open,
  readResponse: readReplicateResponse,
  readStream: readReplicateStream,
  readError: readReplicateError,
} satisfies Adaptor;
