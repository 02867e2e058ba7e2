import type { Usage } from '../src/relay/adaptor.js';
import { forwardNativeStream } from '../src/relay/pipeline/native-road.js';
import type { NativeStream } from '../src/relay/pipeline/relay-job.js';

/**
 * A stream on the native road as the pipeline relays it (forwardNativeStream, keys redacted as `***`): the text
 * written at once, the tail kept for after the charge, and what billing reads. A stream that breaks off is
 * charged what it reported before, as the relay does.
 */
export async function nativeRelayed(
  body: AsyncIterable<Buffer>,
  native: NativeStream,
  secret = 'sk-secret',
): Promise<{ written: string; tail: string; usage?: Usage; text: string; brokenOff: boolean }> {
  let written = '';
  let tail = '';
  let brokenOff = false;
  const writer = {
    forward(bytes: string | Buffer) {
      written += bytes.toString();
      return undefined;
    },
    // What the writer holds still reaches the client, with the tail: the text written is the same.
    holdToEnd() {},
  };
  try {
    ({ tail } = await forwardNativeStream(body, native, writer, (text) => text.replaceAll(secret, '***')));
  } catch {
    brokenOff = true;
  }
  return { written, tail, ...native.result(), brokenOff };
}
