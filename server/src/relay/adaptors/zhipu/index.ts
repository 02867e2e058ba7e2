import type { Adaptor } from '../../adaptor.js';
import { zhipuModels } from './models.js';
import { buildZhipuRequest } from './request.js';
import { readZhipuError, readZhipuResponse } from './response.js';
import { readZhipuStream } from './stream.js';

/** Zhipu BigModel: v4 (OpenAI-like) for glm-*, embeddings and images; the legacy v3 API for older models. */
export const zhipu = {
  id: 'zhipu',
  modes: ['chat', 'embeddings', 'images'],
  models: zhipuModels,
  buildRequest: buildZhipuRequest,
  readResponse: readZhipuResponse,
  readStream: readZhipuStream,
  readError: readZhipuError,
} satisfies Adaptor;
