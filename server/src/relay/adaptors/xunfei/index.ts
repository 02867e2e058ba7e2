import type { Adaptor } from '../../adaptor.js';
import { xunfeiModels } from './models.js';
import { buildXunfeiRequest } from './request.js';
import { readXunfeiError, readXunfeiResponse } from './response.js';
import { readXunfeiStream } from './stream.js';
import { openSparkSocket } from './transport.js';

/** iFlytek Spark over its signed WebSocket: the adaptor opens the socket, the pipeline reads the frames. */
export const xunfei = {
  id: 'xunfei',
  modes: ['chat'],
  models: xunfeiModels,
  buildRequest: (call) => buildXunfeiRequest(call),
  open: (call, tools) => openSparkSocket(buildXunfeiRequest(call), { signal: tools.signal }),
  readResponse: readXunfeiResponse,
  readStream: readXunfeiStream,
  readError: readXunfeiError,
} satisfies Adaptor;
