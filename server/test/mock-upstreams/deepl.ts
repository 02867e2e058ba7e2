import { fixtureJson, type MockUpstream, startMockUpstream } from './mock-kit.js';

export const deeplMockKey = 'deepl-mock-key:fx';
const supportedTargets = new Set(['ZH', 'EN-US', 'EN-GB', 'JA', 'DE', 'FR', 'PT-BR', 'ES']);

/** A loopback DeepL: `POST /v2/translate`, `DeepL-Auth-Key` auth (403 otherwise), target language checked. */
export function startDeeplMock(): Promise<MockUpstream> {
  return startMockUpstream(async (request, reply) => {
    if (request.method !== 'POST' || request.path !== '/v2/translate') return reply.json(404, { message: 'Not found' });
    if (request.headers.authorization !== `DeepL-Auth-Key ${deeplMockKey}`)
      return reply.json(403, { message: 'Authorization failed. Please supply a valid auth_key parameter.' });
    const body = request.json as { text?: unknown; target_lang?: unknown } | undefined;
    if (!Array.isArray(body?.text) || body.text.length === 0)
      return reply.json(400, { message: "Parameter 'text' not specified." });
    if (!supportedTargets.has(String(body.target_lang)))
      return reply.json(400, { message: "Value for 'target_lang' not supported." });
    return reply.json(200, fixtureJson('deepl', 'translate.json'));
  });
}
