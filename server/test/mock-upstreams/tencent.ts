import { tc3Authorization } from '../../src/relay/adaptors/tencent/sign.js';
import { fixture, type MockUpstream, startMockUpstream } from './mock-kit.js';

const vendor = 'tencent';

function failure(code: string, message: string) {
  return { Response: { Error: { Code: code, Message: message }, RequestId: 'mock-request' } };
}

/**
 * A local Hunyuan endpoint: POST `/` with X-TC-Action/Version/Timestamp; the TC3 signature is recomputed
 * from the Host header, the body and the known secret (the signer is the spec's algorithm, tested against a
 * fixed vector in tencent.test.ts). Every failure is HTTP 200 with `Response.Error`, as Tencent Cloud does.
 */
export function startTencentMock(options: { secretId: string; secretKey: string }): Promise<MockUpstream> {
  return startMockUpstream(async (request, reply) => {
    const action = request.headers['x-tc-action'] ?? '';
    const timestamp = Number(request.headers['x-tc-timestamp']);
    if (request.method !== 'POST' || request.path !== '/') return reply.json(404, 'not found');
    if (request.headers['x-tc-version'] !== '2023-09-01')
      return reply.json(200, failure('InvalidParameter', 'X-TC-Version 2023-09-01 is required'));
    if (!Number.isFinite(timestamp) || Math.abs(timestamp * 1000 - Date.now()) > 300_000) {
      return reply.json(
        200,
        failure(
          'AuthFailure.SignatureExpire',
          'Signature expired. Timestamp and server time cannot differ by more than 5 minutes.',
        ),
      );
    }
    const credential = /Credential=([^/]+)\//.exec(request.headers.authorization ?? '')?.[1];
    if (credential !== options.secretId)
      return reply.json(
        200,
        failure(
          'AuthFailure.SecretIdNotFound',
          'The SecretId is not found, please ensure that your SecretId is correct.',
        ),
      );
    const expected = tc3Authorization({
      ...options,
      service: 'hunyuan',
      host: request.headers.host ?? '',
      action,
      body: request.body,
      timestampSeconds: timestamp,
    });
    if (request.headers.authorization !== expected) return reply.json(200, fixture(vendor, 'error.json'));
    const body = request.json ?? {};
    if (action === 'GetEmbedding') {
      const inputs = body.InputList;
      if (!Array.isArray(inputs) || inputs.length === 0)
        return reply.json(200, failure('InvalidParameter', 'InputList is required'));
      const answer = JSON.parse(fixture(vendor, 'embeddings.json')) as { Response: { Data: unknown[] } };
      answer.Response.Data = answer.Response.Data.slice(0, inputs.length);
      return reply.json(200, answer);
    }
    if (action !== 'ChatCompletions')
      return reply.json(200, failure('InvalidAction', `The action ${action} is not valid`));
    const messages = body.Messages as Array<{ Role?: string; Content?: string; Contents?: unknown[] }> | undefined;
    if (typeof body.Model !== 'string' || !Array.isArray(messages) || messages.length === 0)
      return reply.json(200, failure('MissingParameter', 'Model and Messages are required'));
    if (messages.some((message) => !['system', 'user', 'assistant', 'tool'].includes(message.Role ?? '')))
      return reply.json(200, failure('InvalidParameter', 'Messages.Role is invalid'));
    if (messages.some((message) => (message.Content === undefined) === (message.Contents === undefined))) {
      return reply.json(200, failure('InvalidParameter', 'each message needs exactly one of Content and Contents'));
    }
    if (
      Array.isArray(body.Tools) &&
      body.Tools.some((tool: { Function?: { Parameters?: unknown } }) => typeof tool.Function?.Parameters !== 'string')
    ) {
      return reply.json(200, failure('InvalidParameter', 'Tools.Function.Parameters must be a JSON string'));
    }
    const wantsTool = Array.isArray(body.Tools) && body.Tools.length > 0 && messages.at(-1)?.Role === 'user';
    if (body.Stream === true)
      return reply.stream('text/event-stream', fixture(vendor, wantsTool ? 'stream-tool-call.sse' : 'stream.sse'));
    return reply.json(200, fixture(vendor, wantsTool ? 'chat-tool-call.json' : 'chat.json'));
  });
}
