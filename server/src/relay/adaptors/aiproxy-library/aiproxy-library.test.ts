import { describe, expect, it } from 'vitest';
import { startAiProxyLibraryMock } from '../../../../test/mock-upstreams/aiproxy-library.js';
import { fixture } from '../../../../test/mock-upstreams/mock-kit.js';
import {
  collect,
  pieces,
  sendStreaming,
  sendWhole,
  wholeResponse,
} from '../../../../test/mock-upstreams/relay-call-kit.js';
import { relayCall } from '../../../../test/relay-call.js';
import { startedForSuite } from '../../../../test/suite-lifecycle.js';
import { buildLibraryRequest } from './request.js';
import { readLibraryError, readLibraryResponse } from './response.js';
import { readLibraryStream } from './stream.js';

const body = {
  model: 'gpt-3.5-turbo',
  messages: [
    { role: 'user', content: '前一个问题' },
    { role: 'assistant', content: '…' },
    { role: 'user', content: 'ModelGate 是什么？' },
  ],
};
const references = '\n\n参考文档：\n1. [ModelGate 介绍](https://docs.example.com/modelgate)\n';

describe('aiproxy library', () => {
  it('asks the last question within the channel library', () => {
    const request = buildLibraryRequest(
      relayCall({ body, key: 'ak', config: { library_id: 'lib1' }, baseUrl: 'https://api.aiproxy.io' }),
    );
    expect(request.url).toBe('https://api.aiproxy.io/api/library/ask');
    expect(request.headers.authorization).toBe('Bearer ak');
    expect(JSON.parse(String(request.body))).toEqual({
      model: 'gpt-3.5-turbo',
      query: 'ModelGate 是什么？',
      libraryId: 'lib1',
      stream: false,
    });
    expect(() => buildLibraryRequest(relayCall({ body }))).toThrow('no library_id');
  });

  it('appends the reference documents, whole and streamed', async () => {
    const call = relayCall({ body });
    const result = readLibraryResponse(wholeResponse(fixture('aiproxy-library', 'answer.json')), call);
    expect(JSON.parse(result.body.toString()).choices[0].message.content).toBe(
      `ModelGate 是一个 LLM API 网关。${references}`,
    );
    expect(result.usage!.completion_tokens).toBeGreaterThan(5);
    expect(result.usage!.prompt_tokens).toBeGreaterThan(5);
    const { content, last } = await collect(readLibraryStream(pieces(fixture('aiproxy-library', 'stream.sse')), call));
    expect(content).toBe(`ModelGate 是一个 LLM API 网关。${references}`);
    expect(last!.choices[0].finish_reason).toBe('stop');
  });

  it('maps success:false answers', () => {
    expect(() =>
      readLibraryResponse(wholeResponse(fixture('aiproxy-library', 'error.json')), relayCall({ body })),
    ).toThrow('library not found');
    expect(
      readLibraryError(wholeResponse('{"success":false,"errCode":401,"message":"invalid api key"}')),
    ).toMatchObject({ status: 401, code: '401' });
  });

  describe('against the mock', () => {
    const mock = startedForSuite(() => startAiProxyLibraryMock({ apiKey: 'ak', libraryId: 'lib1' }));

    it('answers whole and streamed, and refuses another library', async () => {
      const call = relayCall({ body, key: 'ak', config: { library_id: 'lib1' }, baseUrl: mock.url });
      expect(
        JSON.parse(readLibraryResponse(await sendWhole(buildLibraryRequest(call)), call).body.toString()).choices[0]
          .message.content,
      ).toContain('参考文档');
      const streamCall = relayCall({
        body: { ...body, stream: true },
        key: 'ak',
        config: { library_id: 'lib1' },
        baseUrl: mock.url,
      });
      expect(
        (await collect(readLibraryStream(sendStreaming(buildLibraryRequest(streamCall)), streamCall))).content,
      ).toContain('网关');
      const other = relayCall({ body, key: 'ak', config: { library_id: 'other' }, baseUrl: mock.url });
      const refused = await sendWhole(buildLibraryRequest(other));
      expect(() => readLibraryResponse(refused, other)).toThrow('library not found');
    });
  });
});
