import type { RelayCall } from '../src/relay/adaptor.js';
import type { openAICompatible } from '../src/relay/adaptors/openai-kit/openai-compatible.js';
import { collect, sendStreaming, sendWhole } from './mock-upstreams/relay-call-kit.js';

/**
 * Round trips of an OpenAI-compatible adaptor (openai-kit/openai-compatible) to a mock upstream over fetch: the
 * adaptor's request built and sent, and its answer read back the way the pipeline reads it.
 */

type CompatibleAdaptor = ReturnType<typeof openAICompatible>;

/** The adaptor's reading of the upstream's whole answer to `call`. */
export async function wholeAnswer(adaptor: CompatibleAdaptor, call: RelayCall) {
  return adaptor.readResponse(await sendWhole(adaptor.buildRequest(call)), call);
}

/** The adaptor's converted stream of the upstream's answer to `call`, collected. */
export function streamedAnswer(adaptor: CompatibleAdaptor, call: RelayCall) {
  return collect(adaptor.readStream(sendStreaming(adaptor.buildRequest(call)), call));
}

/** The adaptor's reading of the upstream's error answer to `call`. */
export async function refusal(adaptor: CompatibleAdaptor, call: RelayCall) {
  return adaptor.readError(await sendWhole(adaptor.buildRequest(call)), call);
}
