import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { availableEngines } from '../../../test/engines.js';
import { readLedger } from '../../../test/ledger.js';
import { startMockUpstream, type MockUpstream } from '../../../test/mock-upstreams/mock-kit.js';
import { createChannel, createToken, createUser, setOption, settled } from '../../../test/relay-fixtures.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { optionDefinitions } from '../../domain/option/option.definitions.js';
import { receiptText } from '../../domain/log/log-receipt.js';
import type { SettledReceipt } from '../../domain/pricing/price-call.js';
import { countText } from '../tokenizer/count-tokens.js';

const spoken = 'The beach was a popular spot on a hot summer day, and people were swimming in the ocean.';

/**
 * OpenAI's transcription answers in each response_format
 * (https://platform.openai.com/docs/api-reference/audio/createTranscription): json with the usage whisper-1
 * is billed by, verbose_json with the audio's `duration` (no usage), text, srt and vtt as plain bodies.
 */
function startWhisper(): Promise<MockUpstream> {
  return startMockUpstream((request, reply) => {
    const format = /name="response_format"\r\n\r\n(\w+)/.exec(request.body)?.[1] ?? 'json';
    if (format === 'json') return reply.json(200, { text: spoken, usage: { type: 'duration', seconds: 12.4 } });
    if (format === 'verbose_json')
      return reply.json(200, {
        task: 'transcribe',
        language: 'english',
        duration: 7.199999809265137,
        text: spoken,
        segments: [{ id: 0, seek: 0, start: 0, end: 7.2, text: spoken }],
      });
    const body =
      format === 'srt' ? `1\n00:00:00,000 --> 00:00:41,250\n${spoken}\n\n` : format === 'vtt' ? 'WEBVTT\n\n' : spoken;
    reply.raw(200, { 'content-type': 'text/plain; charset=utf-8' }, `${body}\n`);
  });
}

/** A 16 kHz, 16-bit mono PCM WAV file of `seconds` of silence, as a recorder writes it. */
function wav(seconds: number): Buffer {
  const data = Math.round(seconds * 32_000);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + data, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(16_000, 24);
  header.writeUInt32LE(32_000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(data, 40);
  return Buffer.concat([header, Buffer.alloc(data)]);
}

const unreadable = Buffer.from('RIFF fake wav');

describe.each(await availableEngines())('whisper-1 at its list price on $label', (engine) => {
  let server: TestServer;
  let whisper: MockUpstream;
  let accounts = 0;

  /** A fresh user, one transcription or translation with the upload and format given, and what it cost. */
  async function transcribe(upload: Buffer, format: string, path = '/v1/audio/transcriptions') {
    const username = `whisper-${engine.name}-${++accounts}`;
    const userId = await createUser(server, { username, quota: 1_000_000 });
    const token = await createToken(server, userId, { name: username });
    const form = new FormData();
    form.set('model', 'whisper-1');
    form.set('response_format', format);
    form.set('file', new Blob([new Uint8Array(upload)], { type: 'audio/wav' }), 'speech.wav');
    const response = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${token.key}` },
      body: form,
    });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    await settled(server);
    const { db } = server.context.database;
    const log = await server.context.logDatabase.db
      .selectFrom('logs')
      .selectAll()
      .where('user_id', '=', userId)
      .where('type', '=', 2)
      .executeTakeFirstOrThrow();
    const { receipt } = JSON.parse(receiptText(log.other, log)) as { receipt: SettledReceipt };
    return { log, receipt, ledger: await readLedger(db, userId) };
  }

  /** The charge moved the balance by exactly itself, and the receipt's lines add up to it. */
  function expectCharged(result: Awaited<ReturnType<typeof transcribe>>, quota: number) {
    expect(result.log.quota).toBe(quota);
    expect(result.receipt.quota).toBe(quota);
    expect(result.receipt.lines.reduce((sum, line) => sum + line.quota, 0)).toBe(quota);
    expect(result.ledger).toMatchObject({ quota: 1_000_000 - quota, used: quota, openReservations: 0 });
  }

  beforeAll(async () => {
    server = await startTestServer({ engine });
    whisper = await startWhisper();
    await createChannel(server, { name: 'whisper', base_url: whisper.url, models: 'whisper-1' });
  });
  afterAll(async () => {
    await server?.close();
    await whisper?.close();
  });

  // US$0.006 a minute is US$0.0001 a second: 50 quota at 500,000 quota per US$.
  test('json: the seconds the usage reports, rounded up (12.4 s → 13 s, 650), over the upload’s 5 s held', async () => {
    const result = await transcribe(wav(4.5), 'json');
    expectCharged(result, 650);
    expect(result.receipt.lines).toEqual([
      { item: 'audio_second', count: 13, unit_price: 0.0001, unit: 'usd_per_unit', quota: 650 },
    ]);
    expect(result.receipt).toMatchObject({ source: 'catalogue', reserved: 250, charged_on_top: 400, refunded: 0 });
  });

  test('verbose_json: its duration, rounded up (7.2 s → 8 s, 400)', async () => {
    const result = await transcribe(unreadable, 'verbose_json', '/v1/audio/translations');
    expectCharged(result, 400);
    expect(result.receipt.lines).toEqual([
      { item: 'audio_second', count: 8, unit_price: 0.0001, unit: 'usd_per_unit', quota: 400 },
    ]);
  });

  test('text with a WAV upload: the seconds of its data chunk (4.5 s → 5 s, 250), held before the call', async () => {
    const result = await transcribe(wav(4.5), 'text');
    expectCharged(result, 250);
    expect(result.receipt.lines).toEqual([
      { item: 'audio_second', count: 5, unit_price: 0.0001, unit: 'usd_per_unit', quota: 250 },
    ]);
    expect(result.receipt).toMatchObject({ reserved: 250, refunded: 0, charged_on_top: 0 });
  });

  test('text with an upload that cannot be read: estimated from the words, and the receipt says so', async () => {
    const result = await transcribe(unreadable, 'text');
    // 18 words at 2.5 a second: 7.2 s → 8 s.
    expectCharged(result, 400);
    expect(result.receipt.lines).toEqual([
      { item: 'audio_second', count: 8, unit_price: 0.0001, unit: 'usd_per_unit', quota: 400, estimated: true },
    ]);
  });

  test('srt with an upload that cannot be read: estimated from the last cue’s end (41.25 s → 42 s)', async () => {
    const result = await transcribe(unreadable, 'srt');
    expectCharged(result, 2100);
    expect(result.receipt.lines).toEqual([
      { item: 'audio_second', count: 42, unit_price: 0.0001, unit: 'usd_per_unit', quota: 2100, estimated: true },
    ]);
  });

  test('an empty transcript of an unreadable upload costs nothing', async () => {
    const result = await transcribe(unreadable, 'vtt');
    expectCharged(result, 0);
    expect(result.receipt.lines).toEqual([]);
  });

  test('a stored one-api ratio still charges the transcript’s tokens × the ratio, whatever the seconds', async () => {
    await setOption(server, 'ModelRatio', JSON.stringify({ 'whisper-1': 15 }));
    const result = await transcribe(wav(4.5), 'verbose_json');
    const tokens = countText(spoken, 'whisper-1');
    expectCharged(result, tokens * 15);
    expect(result.receipt.lines).toEqual([
      { item: 'output', count: tokens, unit_price: 15, unit: 'quota_per_token', quota: tokens * 15 },
    ]);
    await setOption(server, 'ModelRatio', optionDefinitions.ModelRatio.defaultValue);
  });
});
