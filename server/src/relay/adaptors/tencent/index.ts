import type { Adaptor } from '../../adaptor.js';
import { tencentModels } from './models.js';
import { buildTencentRequest } from './request.js';
import { readTencentError, readTencentResponse } from './response.js';
import { readTencentStream } from './stream.js';

/** Tencent Hunyuan: TC3-signed PascalCase API; chat (with tools) and embeddings. */
export const tencent = {
  id: 'tencent',
  modes: ['chat', 'embeddings'],
  models: tencentModels,
  buildRequest: (call) => buildTencentRequest(call),
  readResponse: readTencentResponse,
  readStream: readTencentStream,
  readError: readTencentError,
} satisfies Adaptor;
