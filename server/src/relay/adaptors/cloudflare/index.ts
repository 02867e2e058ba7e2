import type { Adaptor } from '../../adaptor.js';
import { cloudflareModels } from './models.js';
import { buildCloudflareRequest } from './request.js';
import { readCloudflareError, readCloudflareResponse } from './response.js';
import { readCloudflareStream } from './stream.js';

/** Cloudflare Workers AI (type 37): OpenAI-compatible chat and embeddings, native `run` for completions. */
export const cloudflare = {
  id: 'cloudflare',
  modes: ['chat', 'completions', 'embeddings'],
  models: cloudflareModels,
  buildRequest: buildCloudflareRequest,
  readResponse: readCloudflareResponse,
  readStream: readCloudflareStream,
  readError: readCloudflareError,
} satisfies Adaptor;
