import { describe, expect, test } from 'vitest';
import { contentChunk as chunk, usageEvent } from '../../../test/chat-fixtures.js';
import { OpenAIStreamWatcher } from '../adaptors/openai/stream.js';
import { beginsTail, forwardStream } from './stream-forward.js';

const prelude = 'data: {"id":"","object":"","created":0,"choices":[],"prompt_filter_results":[]}\n\n';

/** The upstream's bytes cut every `size` bytes; `reads` counts how far the reader went. */
function upstream(text: string, size: number, reads = { count: 0 }, breakAt?: number) {
  const bytes = Buffer.from(text);
  return (async function* () {
    for (let offset = 0; offset < bytes.length; offset += size) {
      if (breakAt !== undefined && offset >= breakAt) throw new Error('connection reset');
      reads.count += 1;
      yield bytes.subarray(offset, offset + size);
    }
  })();
}

function collector() {
  const parts: string[] = [];
  return { parts, forward: (bytes: string | Buffer) => void parts.push(bytes.toString()), holdToEnd: () => {} };
}

describe('forwarding an OpenAI stream as it comes', () => {
  const stream = chunk('Hel') + chunk('lo 你好') + usageEvent + 'data: [DONE]\n\n';

  test('the bytes reach the client unchanged, in whole lines, whatever the upstream cuts; the tail is held', async () => {
    for (const size of [1, 2, 7, 64, 4096]) {
      const writer = collector();
      const watcher = new OpenAIStreamWatcher();
      const { done, tail } = await forwardStream(upstream(stream, size), watcher, writer);
      expect(done).toBe(true);
      // The usage chunk and [DONE] wait for the charge (the relay sends the tail once it is durable).
      expect(writer.parts.join('')).toBe(chunk('Hel') + chunk('lo 你好'));
      expect(tail).toBe(usageEvent + 'data: [DONE]\n\n');
      for (const part of writer.parts) expect(part.endsWith('\n')).toBe(true);
      expect(watcher.result()).toEqual({
        usage: { prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 },
        text: '',
      });
    }
  });

  test("an upstream's error event inside the stream is redacted; content that merely mentions an error is not touched", async () => {
    const secret = 'sk-channel-secret-0123456789';
    const errorEvent = `data: {"error":{"message":"invalid key ${secret} at http://10.0.0.7:8080/v1","type":"server_error"}}\n\n`;
    const mention = chunk('an \\"error\\" key');
    for (const size of [5, 4096]) {
      const writer = collector();
      await forwardStream(
        upstream(chunk('Hi') + mention + errorEvent, size),
        new OpenAIStreamWatcher(),
        writer,
        (text) => text.split(secret).join('[redacted]'),
      );
      const sent = writer.parts.join('');
      expect(sent).not.toContain(secret);
      expect(sent).toContain('invalid key [redacted]');
      expect(sent).toContain(mention);
    }
  });

  test('stops reading at [DONE]', async () => {
    const reads = { count: 0 };
    await forwardStream(
      upstream(`${stream}: trailing noise\n`.repeat(50), 16, reads),
      new OpenAIStreamWatcher(),
      collector(),
    );
    expect(reads.count).toBeLessThan(Math.ceil(stream.length / 16) + 2);
  });

  test("Azure's content-filter prelude is dropped; the rest passes", async () => {
    const writer = collector();
    const { tail } = await forwardStream(upstream(prelude + stream, 4096), new OpenAIStreamWatcher(), writer);
    expect(writer.parts.join('') + tail).toBe('\n' + stream);
  });

  test('a prelude spaced out is dropped too; an answer that only talks about empty choices is not', async () => {
    const spaced = 'data: {"id": "", "choices" : [ ], "prompt_filter_results": []}\n\n';
    const quoting = chunk('\\"choices\\": []');
    const writer = collector();
    const { tail } = await forwardStream(upstream(spaced + quoting + stream, 4096), new OpenAIStreamWatcher(), writer);
    expect(writer.parts.join('') + tail).toBe('\n' + quoting + stream);
  });

  test('without usage the text is collected for counting; a last line without newline becomes an event', async () => {
    const writer = collector();
    const watcher = new OpenAIStreamWatcher();
    const { done } = await forwardStream(upstream(chunk('a') + chunk('b').trimEnd(), 5), watcher, writer);
    expect(done).toBe(false);
    expect(writer.parts.join('')).toBe(chunk('a') + chunk('b'));
    expect(watcher.result()).toEqual({ usage: undefined, text: 'ab' });
  });

  test('a usage chunk that arrives on its own is held, and so is everything after it', async () => {
    const writer = collector();
    const reads = [chunk('a'), usageEvent, 'data: [DONE]\n\n'];
    const body = (async function* () {
      for (const read of reads) yield Buffer.from(read);
    })();
    const { done, tail } = await forwardStream(body, new OpenAIStreamWatcher(), writer);
    expect(done).toBe(true);
    expect(writer.parts.join('')).toBe(chunk('a'));
    expect(tail).toBe(usageEvent + 'data: [DONE]\n\n');
  });

  test('a stream that breaks off leaves no half line at the client', async () => {
    const writer = collector();
    const text = chunk('a') + chunk('b');
    await expect(
      forwardStream(upstream(text, 10, { count: 0 }, chunk('a').length + 10), new OpenAIStreamWatcher(), writer),
    ).rejects.toThrow('connection reset');
    expect(writer.parts.join('')).toBe(chunk('a'));
  });

  test('a long answer is folded into text as it goes, so memory stays bounded', async () => {
    const watcher = new OpenAIStreamWatcher();
    const many = Array.from({ length: 2000 }, () => chunk('xy')).join('');
    await forwardStream(upstream(many, 4096), watcher, collector());
    expect(watcher.result().text).toBe('xy'.repeat(2000));
  });

  test("the tail begins at an answer's closing payload (a native stream's closing events are its front's)", () => {
    expect(beginsTail(usageEvent.slice(6).trim())).toBe(true);
    expect(beginsTail(chunk('Hi').slice(6).trim())).toBe(false);
  });

  test('a usage chunk written with spaces begins the tail; content that quotes `"choices": []` does not', async () => {
    const spaced =
      'data: {"id":"c","choices" : [ ],"usage" : {"prompt_tokens":4,"completion_tokens":2,"total_tokens":6}}\n\n';
    const quoting = chunk('write \\"choices\\": [] and \\"usage\\": {}');
    expect(beginsTail(spaced.slice(6).trim())).toBe(true);
    expect(beginsTail(quoting.slice(6).trim())).toBe(false);
    const writer = collector();
    const watcher = new OpenAIStreamWatcher();
    const { tail } = await forwardStream(upstream(quoting + spaced + 'data: [DONE]\n\n', 4096), watcher, writer);
    expect(writer.parts.join('')).toBe(quoting);
    expect(tail).toBe(spaced + 'data: [DONE]\n\n');
    // The usage read when the chunk went by (its `"choices": []` made the watcher look) is the call's.
    expect(watcher.result()).toEqual({ usage: { prompt_tokens: 4, completion_tokens: 2, total_tokens: 6 }, text: '' });
  });
});
