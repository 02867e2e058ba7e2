import { describe, expect, test } from 'vitest';
import { UpstreamError, channelSecrets, isInternalHost, redactSecrets, redactUpstreamError } from './upstream-error.js';

const channel = {
  key: 'AKIDEXAMPLE123|wJalrXUtnFEMIKEXAMPLEKEY|us-east-1',
  baseUrl: 'http://llm-gateway.internal:8080/v1',
};

describe('redaction of upstream errors', () => {
  test('every part of a multi-part key, the base URL and its host are taken out', () => {
    const text =
      'signature for AKIDEXAMPLE123 with wJalrXUtnFEMIKEXAMPLEKEY in us-east-1 failed at http://llm-gateway.internal:8080/v1/chat (llm-gateway.internal)';
    const redacted = redactSecrets(text, channelSecrets(channel));
    for (const secret of ['AKIDEXAMPLE123', 'wJalrXUtnFEMIKEXAMPLEKEY', 'us-east-1', 'llm-gateway.internal', '8080'])
      expect(redacted).not.toContain(secret);
    expect(redacted).toContain('signature for [redacted] with [redacted]');
  });

  test('credential headers, sk- keys, Google keys, internal URLs and private addresses go; public URLs stay', () => {
    const text = [
      'Incorrect API key provided: sk-proj-abcdefghijklmnop1234.',
      '"x-api-key": "ant-secret-value-1"',
      'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload',
      'api-key=azure0123456789',
      'key AIzaSyA1234567890abcdefghijklmnopqrstu',
      'connect ECONNREFUSED 10.2.3.4:8443 via http://vllm:8000/v1 and https://192.168.1.20/x',
      'see https://platform.openai.com/docs/guides/error-codes and 8.8.8.8',
    ].join('\n');
    const redacted = redactSecrets(text, []);
    for (const secret of [
      'sk-proj-abcdefghijklmnop1234',
      'ant-secret-value-1',
      'eyJhbGciOiJIUzI1NiJ9',
      'azure0123456789',
      'AIzaSyA1234567890',
      '10.2.3.4',
      'vllm:8000',
      '192.168.1.20',
    ])
      expect(redacted).not.toContain(secret);
    expect(redacted).toContain('"x-api-key": "[redacted]"');
    expect(redacted).toContain('https://platform.openai.com/docs/guides/error-codes');
    expect(redacted).toContain('8.8.8.8');
    expect(redacted).toContain('Incorrect API key provided: [redacted].');
  });

  test('internal hosts are told apart from public ones', () => {
    for (const host of [
      'localhost',
      '127.0.0.1',
      '10.0.0.1',
      '172.20.1.1',
      '192.168.0.9',
      '[::1]',
      'a.svc',
      'x.internal',
    ])
      expect(isInternalHost(host), host).toBe(true);
    for (const host of ['api.openai.com', '8.8.8.8', '172.32.0.1', 'example.com'])
      expect(isInternalHost(host), host).toBe(false);
  });

  test('an error keeps its status, code and retry flag; one without secrets is returned as it is', () => {
    const clean = new UpstreamError({
      status: 429,
      message: 'slow down',
      type: 'rate_limit',
      param: null,
      code: 'rate',
    });
    expect(redactUpstreamError(clean, channel)).toBe(clean);
    const leaking = new UpstreamError(
      { status: 401, message: 'bad key wJalrXUtnFEMIKEXAMPLEKEY', type: 'auth', param: 'AKIDEXAMPLE123', code: null },
      { retryable: true },
    );
    const redacted = redactUpstreamError(leaking, channel);
    expect(redacted.body).toEqual({
      status: 401,
      message: 'bad key [redacted]',
      type: 'auth',
      param: '[redacted]',
      code: null,
    });
    expect(redacted.retryable).toBe(true);
    expect(redacted.message).toBe('bad key [redacted]');
  });
});
