import { createVerify, generateKeyPairSync } from 'node:crypto';
import { checkClaudeMessages } from './anthropic.js';
import { answerGemini } from './gemini.js';
import { fixture, fixtureJson, type MockUpstream, startMockUpstream } from './mock-kit.js';

export interface VertexMock extends MockUpstream {
  /** A service-account key file whose private key this mock trusts. */
  serviceAccount: Record<string, string>;
  /** Access tokens issued so far. */
  issuedTokens: string[];
}

const googleError = (code: number, status: string, message: string) => ({ error: { code, message, status } });
const scope = 'https://www.googleapis.com/auth/cloud-platform';

function decodeSegment(segment: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(segment, 'base64url').toString('utf8')) as Record<string, unknown>;
}

/**
 * A loopback Vertex AI: the OAuth token endpoint (`POST /token`, JWT-bearer grant, RS256 assertion checked
 * against the service account's public key) and the prediction endpoints for Gemini (publisher google) and
 * Claude (publisher anthropic, rawPredict / streamRawPredict), which accept only tokens it issued.
 */
export async function startVertexMock(): Promise<VertexMock> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const serviceAccount = {
    type: 'service_account',
    project_id: 'mock-project',
    private_key_id: 'mock-key-id',
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    client_email: 'relay@mock-project.iam.gserviceaccount.com',
    client_id: '1234567890',
    token_uri: 'https://oauth2.googleapis.com/token',
  };
  const issuedTokens: string[] = [];
  const mock = await startMockUpstream(async (request, reply) => {
    if (request.path === '/token') {
      const form = new URLSearchParams(request.body);
      if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer')
        return reply.json(400, { error: 'unsupported_grant_type' });
      const [header = '', claims = '', signature = ''] = (form.get('assertion') ?? '').split('.');
      const verifier = createVerify('RSA-SHA256');
      verifier.update(`${header}.${claims}`);
      if (!signature || !verifier.verify(publicKey, Buffer.from(signature, 'base64url'))) {
        return reply.json(400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
      }
      const decoded = decodeSegment(claims);
      if (decoded.iss !== serviceAccount.client_email || decoded.scope !== scope) {
        return reply.json(400, { error: 'invalid_scope', error_description: 'bad issuer or scope' });
      }
      const token = `ya29.c.mock-${issuedTokens.length + 1}`;
      issuedTokens.push(token);
      return reply.json(200, { ...(fixtureJson('vertexai', 'token.json') as object), access_token: token });
    }
    const match =
      /^\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/(google|anthropic)\/models\/([^/:]+):(\w+)$/.exec(
        request.path,
      );
    if (request.method !== 'POST' || !match)
      return reply.json(404, googleError(404, 'NOT_FOUND', `path ${request.path} not found`));
    const [, project, , publisher, model = '', method = ''] = match;
    const token = (request.headers.authorization ?? '').replace(/^Bearer /, '');
    if (!issuedTokens.includes(token))
      return reply.json(
        401,
        googleError(
          401,
          'UNAUTHENTICATED',
          'Request had invalid authentication credentials. Expected OAuth 2 access token.',
        ),
      );
    if (project !== serviceAccount.project_id)
      return reply.json(403, fixtureJson('vertexai', 'error-permission-denied.json'));
    if (publisher === 'anthropic') {
      const body = request.json as Record<string, unknown> | undefined;
      if (!model.startsWith('claude'))
        return reply.json(404, googleError(404, 'NOT_FOUND', `Publisher model ${model} not found`));
      if (body?.anthropic_version !== 'vertex-2023-10-16')
        return reply.json(400, {
          type: 'error',
          error: { type: 'invalid_request_error', message: 'anthropic_version: vertex-2023-10-16 is required' },
        });
      if ('model' in (body ?? {}))
        return reply.json(400, {
          type: 'error',
          error: { type: 'invalid_request_error', message: 'model: Extra inputs are not permitted' },
        });
      const problem = checkClaudeMessages(body?.messages);
      if (problem)
        return reply.json(400, { type: 'error', error: { type: 'invalid_request_error', message: problem } });
      const tools = Array.isArray(body?.tools) && body.tools.length > 0;
      if (method === 'streamRawPredict')
        return reply.stream('text/event-stream', fixture('anthropic', tools ? 'tool-stream.sse' : 'stream.sse'));
      if (method === 'rawPredict')
        return reply.json(200, fixtureJson('anthropic', tools ? 'tool-use.json' : 'message.json'));
      return reply.json(404, googleError(404, 'NOT_FOUND', `method ${method} not found`));
    }
    if (method === 'predict') {
      const instances = ((request.json as { instances?: unknown[] } | undefined)?.instances ?? []).length;
      const recorded = fixtureJson('vertexai', 'embeddings.json') as { predictions: unknown[] };
      return reply.json(200, {
        predictions: Array.from(
          { length: instances },
          (_, index) => recorded.predictions[index % recorded.predictions.length],
        ),
      });
    }
    await answerGemini(request, reply, method, true);
  });
  return { ...mock, serviceAccount, issuedTokens };
}
