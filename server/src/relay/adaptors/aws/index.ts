import type { Adaptor, OpenedAnswer, RelayCall, UpstreamRequest } from '../../adaptor.js';
import { bytesOf } from '../openai-kit/sse-events.js';
import { invokeBedrock, invokeBedrockStream } from './client.js';
import { awsModels } from './models.js';
import { bedrockModel, buildBedrockInvocation, readBedrockCredentials } from './request.js';
import { readBedrockAnswer, readBedrockHttpError } from './response.js';
import { bedrockClaudeEvents, readBedrockStream } from './stream.js';
import { withStructuredAnswer } from '../anthropic/structured-answer.js';

/** The AWS SDK signs and sends; the pipeline still checks status, reads, retries and bills. */
async function open(call: RelayCall, tools: { signal?: AbortSignal }): Promise<OpenedAnswer> {
  if (call.stream)
    return {
      status: 200,
      headers: { 'content-type': 'application/vnd.amazon.eventstream' },
      body: await invokeBedrockStream(call, tools.signal),
    };
  return {
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: bytesOf(await invokeBedrock(call, tools.signal)),
  };
}

/** What `open` will invoke, described as a request (never sent as is: the SDK signs and sends it). */
function buildRequest(call: RelayCall): UpstreamRequest {
  const { region } = readBedrockCredentials(call.channel);
  const invocation = buildBedrockInvocation(call);
  const base = call.channel.baseUrl || `https://bedrock-runtime.${region}.amazonaws.com`;
  const action = call.stream ? 'invoke-with-response-stream' : 'invoke';
  return {
    url: `${base}/model/${encodeURIComponent(invocation.modelId)}/${action}`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: invocation.body,
  };
}

/** AWS Bedrock (type 33): Claude and Llama 3 through InvokeModel, via the official SDK. */
export const aws = {
  id: 'aws',
  modes: ['chat'],
  models: awsModels,
  buildRequest,
  open,
  readResponse: (response, call) => readBedrockAnswer(response.body, call),
  readStream: (body, call) => withStructuredAnswer(readBedrockStream(body, call), call),
  // Claude on Bedrock speaks Anthropic's Messages API, its stream framed as Bedrock's event stream.
  speaks: (protocol, _channel, model) => protocol === 'anthropic' && bedrockModel(model).family === 'claude',
  nativeStream: bedrockClaudeEvents,
  // SDK failures are thrown by `open` already mapped; this reads any error answer that still reaches the pipeline.
  readError: readBedrockHttpError,
} satisfies Adaptor;
