import { createHash, createHmac } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { checkClaudeMessages } from './anthropic.js';
import {
  fixture,
  fixtureJson,
  type MockReply,
  type MockUpstream,
  type RecordedRequest,
  startMockUpstream,
  fixtureBytes,
} from './mock-kit.js';

export const awsMockCredentials = {
  accessKeyId: 'AKIAMOCKACCESSKEY01',
  secretAccessKey: 'mock/secret/AccessKey+0123456789abcdefgh',
  region: 'us-east-1',
};
export const awsMockKey = `${awsMockCredentials.accessKeyId}|${awsMockCredentials.secretAccessKey}|${awsMockCredentials.region}`;

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

/** RFC 3986 encoding, as SigV4 wants it. */
const uriEncode = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * Checks a request's SigV4 signature the way AWS does: rebuilds the canonical request (path segments encoded
 * once more, as for every service but S3), the string to sign and the HMAC chain from the known secret.
 */
function checkSignature(request: RecordedRequest, rawPath: string): string | undefined {
  const authorization = String(request.headers.authorization ?? '');
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/bedrock\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(
      authorization,
    );
  if (!match) return 'Authorization header requires Credential, SignedHeaders and Signature for service bedrock';
  const [, accessKey, date = '', region = '', signedHeaders = '', signature] = match;
  if (accessKey !== awsMockCredentials.accessKeyId) return 'The security token included in the request is invalid.';
  if (region !== awsMockCredentials.region) return `Credential should be scoped to a valid region, not '${region}'.`;
  const amzDate = String(request.headers['x-amz-date'] ?? '');
  if (!amzDate.startsWith(date))
    return 'Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP';
  const canonicalUri = rawPath
    .split('/')
    .map((segment) => uriEncode(segment))
    .join('/');
  const canonicalHeaders = signedHeaders
    .split(';')
    .map(
      (name) =>
        `${name}:${String(request.headers[name] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}\n`,
    )
    .join('');
  const payloadHash = String(request.headers['x-amz-content-sha256'] ?? sha256(request.body));
  const canonicalRequest = [request.method, canonicalUri, '', canonicalHeaders, signedHeaders, payloadHash].join('\n');
  const scope = `${date}/${region}/bedrock/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonicalRequest)].join('\n');
  const signingKey = hmac(
    hmac(hmac(hmac(`AWS4${awsMockCredentials.secretAccessKey}`, date), region), 'bedrock'),
    'aws4_request',
  );
  const expected = createHmac('sha256', signingKey).update(stringToSign).digest('hex');
  return expected === signature
    ? undefined
    : 'The request signature we calculated does not match the signature you provided.';
}

/** One binary event-stream message: prelude, prelude CRC, string headers, payload, message CRC. */
export function eventStreamMessage(headers: Record<string, string>, payload: Buffer): Buffer {
  const headerBytes = Buffer.concat(
    Object.entries(headers).map(([name, value]) => {
      const nameBytes = Buffer.from(name);
      const valueBytes = Buffer.from(value);
      const head = Buffer.alloc(1 + nameBytes.length + 3);
      head.writeUInt8(nameBytes.length, 0);
      nameBytes.copy(head, 1);
      head.writeUInt8(7, 1 + nameBytes.length);
      head.writeUInt16BE(valueBytes.length, 2 + nameBytes.length);
      return Buffer.concat([head, valueBytes]);
    }),
  );
  const total = 12 + headerBytes.length + payload.length + 4;
  const prelude = Buffer.alloc(12);
  prelude.writeUInt32BE(total, 0);
  prelude.writeUInt32BE(headerBytes.length, 4);
  prelude.writeUInt32BE(crc32(prelude.subarray(0, 8)), 8);
  const withoutCrc = Buffer.concat([prelude, headerBytes, payload]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(withoutCrc), 0);
  return Buffer.concat([withoutCrc, crc]);
}

const chunkMessage = (event: string) =>
  eventStreamMessage(
    { ':event-type': 'chunk', ':content-type': 'application/json', ':message-type': 'event' },
    Buffer.from(JSON.stringify({ bytes: Buffer.from(event).toString('base64'), p: 'abcdefgh' })),
  );

const awsError = (reply: MockReply, status: number, type: string, message: string) =>
  reply.json(
    status,
    { message },
    { 'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/` },
  );

/**
 * A loopback Bedrock runtime: `POST /model/{modelId}/invoke` and `/invoke-with-response-stream`, SigV4
 * verified with the known test secret, bodies checked per model family, answers replayed from the fixtures,
 * streams sent as binary event-stream frames (a prompt containing "THROTTLE ME" gets a throttling exception
 * mid-stream).
 */
export function startAwsMock(): Promise<MockUpstream> {
  return startMockUpstream(async (request, reply) => {
    const match = /^\/model\/([^/]+)\/(invoke|invoke-with-response-stream)$/.exec(request.path);
    if (request.method !== 'POST' || !match)
      return awsError(reply, 404, 'UnknownOperationException', 'unknown operation');
    const problem = checkSignature(request, request.path);
    if (problem)
      return awsError(
        reply,
        403,
        problem.includes('token') ? 'UnrecognizedClientException' : 'InvalidSignatureException',
        problem,
      );
    const modelId = decodeURIComponent(match[1] ?? '');
    const body = request.json as Record<string, unknown> | undefined;
    const streaming = match[2] === 'invoke-with-response-stream';
    let lines: string[];
    if (modelId.startsWith('anthropic.')) {
      if (body?.anthropic_version !== 'bedrock-2023-05-31')
        return awsError(
          reply,
          400,
          'ValidationException',
          'Malformed input request: #: required key [anthropic_version] not found',
        );
      if (typeof body.max_tokens !== 'number')
        return reply.json(400, fixtureJson('aws', 'error-validation.json'), {
          'x-amzn-errortype': 'ValidationException:',
        });
      if ('model' in body || 'stream' in body)
        return awsError(
          reply,
          400,
          'ValidationException',
          'Malformed input request: #: extraneous key [model] is not permitted',
        );
      const messagesProblem = checkClaudeMessages(body.messages);
      if (messagesProblem) return awsError(reply, 400, 'ValidationException', messagesProblem);
      const tools = Array.isArray(body.tools) && body.tools.length > 0;
      if (!streaming)
        return reply.json(200, fixtureJson('aws', tools ? 'claude-tool-use.json' : 'claude-message.json'), {
          'x-amzn-bedrock-input-token-count': '14',
        });
      lines = fixture('aws', tools ? 'claude-tool-stream.jsonl' : 'claude-stream.jsonl')
        .trim()
        .split('\n');
    } else if (modelId.startsWith('meta.llama3')) {
      if (typeof body?.prompt !== 'string' || !body.prompt.startsWith('<|begin_of_text|>'))
        return awsError(
          reply,
          400,
          'ValidationException',
          'Malformed input request: #: required key [prompt] not found',
        );
      if (!streaming) return reply.json(200, fixtureJson('aws', 'llama.json'));
      lines = fixtureBytes('aws', 'llama-stream.jsonl').toString('utf8').trim().split('\n');
    } else {
      return awsError(reply, 400, 'ValidationException', 'The provided model identifier is invalid.');
    }
    const frames = lines.map(chunkMessage);
    if (JSON.stringify(body).includes('THROTTLE ME')) {
      frames.splice(
        2,
        frames.length,
        eventStreamMessage(
          {
            ':exception-type': 'throttlingException',
            ':content-type': 'application/json',
            ':message-type': 'exception',
          },
          Buffer.from(JSON.stringify({ message: 'Too many requests, please wait before trying again.' })),
        ),
      );
    }
    await reply.stream('application/vnd.amazon.eventstream', Buffer.concat(frames));
  });
}
