import { createHash } from 'node:crypto';
import type { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import type { RelayCall } from '../../adaptor.js';
import { UpstreamError } from '../../upstream-error.js';
import { buildBedrockInvocation, readBedrockCredentials } from './request.js';
import { bedrockErrorBody } from './response.js';

const maxClients = 200;
const newline = Buffer.from('\n');
const clients = new Map<string, BedrockRuntimeClient>();

type Sdk = [typeof import('@aws-sdk/client-bedrock-runtime'), typeof import('@smithy/node-http-handler')];
let sdk: Promise<Sdk> | undefined;
/** The SDK weighs about 18 MiB: it is loaded on the first Bedrock call, not at start. */
const loadSdk = () =>
  (sdk ??= Promise.all([import('@aws-sdk/client-bedrock-runtime'), import('@smithy/node-http-handler')]));

/**
 * One SDK client per credentials and endpoint. The SDK signs (SigV4) and frames (event stream) itself; a
 * channel base URL replaces the regional endpoint (tests point it at a loopback mock).
 */
async function clientFor(call: RelayCall): Promise<BedrockRuntimeClient> {
  const [{ BedrockRuntimeClient }, { NodeHttpHandler }] = await loadSdk();
  const credentials = readBedrockCredentials(call.channel);
  const endpoint = call.channel.baseUrl || undefined;
  const cacheKey = createHash('sha256')
    .update(JSON.stringify([credentials, endpoint]))
    .digest('hex');
  const cached = clients.get(cacheKey);
  if (cached) return cached;
  const client = new BedrockRuntimeClient({
    region: credentials.region,
    endpoint,
    credentials: { accessKeyId: credentials.accessKeyId, secretAccessKey: credentials.secretAccessKey },
    // The pipeline decides about retries across channels; the SDK must not retry on its own.
    maxAttempts: 1,
    // HTTP/1.1: InvokeModel and its response stream need no HTTP/2 (the SDK's default is HTTP/2, for the
    // bidirectional operation we do not use), and it also reaches plain-HTTP endpoints such as test mocks.
    requestHandler: new NodeHttpHandler(),
  });
  if (clients.size >= maxClients) {
    const oldest = clients.keys().next().value as string;
    clients.get(oldest)?.destroy();
    clients.delete(oldest);
  }
  clients.set(cacheKey, client);
  return client;
}

const asUpstreamError = (error: unknown) =>
  error instanceof UpstreamError ? error : new UpstreamError(bedrockErrorBody(error), { cause: error });

/** InvokeModel: the whole answer body. */
export async function invokeBedrock(call: RelayCall, signal?: AbortSignal): Promise<Buffer> {
  const invocation = buildBedrockInvocation(call);
  try {
    const [client, [{ InvokeModelCommand }]] = await Promise.all([clientFor(call), loadSdk()]);
    const output = await client.send(
      new InvokeModelCommand({
        modelId: invocation.modelId,
        body: invocation.body,
        contentType: 'application/json',
        accept: 'application/json',
      }),
      { abortSignal: signal },
    );
    return Buffer.from(output.body ?? new Uint8Array());
  } catch (error) {
    throw asUpstreamError(error);
  }
}

/**
 * InvokeModelWithResponseStream: the decoded payload of each chunk event as it arrives, one JSON object per
 * line (payloads are compact JSON), so the bytes survive any re-chunking on the way to the converter.
 */
export async function invokeBedrockStream(call: RelayCall, signal?: AbortSignal): Promise<AsyncIterable<Buffer>> {
  const invocation = buildBedrockInvocation(call);
  let output;
  try {
    const [client, [{ InvokeModelWithResponseStreamCommand }]] = await Promise.all([clientFor(call), loadSdk()]);
    output = await client.send(
      new InvokeModelWithResponseStreamCommand({
        modelId: invocation.modelId,
        body: invocation.body,
        contentType: 'application/json',
        accept: 'application/json',
      }),
      { abortSignal: signal },
    );
  } catch (error) {
    throw asUpstreamError(error);
  }
  const events = output.body;
  return (async function* () {
    if (!events) return;
    for await (const event of events) {
      if (event.chunk?.bytes) {
        yield Buffer.concat([Buffer.from(event.chunk.bytes), newline]);
        continue;
      }
      // Modelled exceptions may also arrive as union members instead of being thrown.
      const [name, value] = Object.entries(event).find(([, member]) => member !== undefined) ?? [];
      if (name) {
        const message = (value as { message?: string } | undefined)?.message ?? name;
        throw Object.assign(new Error(message), { name: name.charAt(0).toUpperCase() + name.slice(1) });
      }
    }
  })();
}
