import type { RelayCall, RelayChunk, StreamWatcher, Usage } from '../../adaptor.js';
import { readSseData } from '../../pipeline/sse-lines.js';
import { hasEmptyChoices } from '../../pipeline/stream-forward.js';
import { tryParseObject } from '../openai-kit/json.js';
import { readUsage } from '../openai-kit/usage.js';
import { choicesText } from './response.js';

/**
 * Passes an OpenAI event stream through chunk by chunk. Chunks without choices and without usage (Azure's
 * content-filter prelude) are dropped; `[DONE]` is left to the pipeline, which always sends exactly one.
 */
export async function* readOpenAIStream(body: AsyncIterable<Buffer>, _call: RelayCall): AsyncIterable<RelayChunk> {
  for await (const data of readSseData(body)) {
    if (data === '[DONE]') return;
    if (data === '') continue;
    let payload: Record<string, unknown>;
    try {
      payload = JSON.parse(data) as Record<string, unknown>;
    } catch {
      yield { data };
      continue;
    }
    const usage = readUsage(payload.usage);
    const choices = payload.choices;
    if (Array.isArray(choices) && choices.length === 0 && !usage && !payload.error) continue;
    yield { data, usage, text: choicesText(payload) };
  }
}

/** Payload text kept unparsed before it is folded into the running text (bounds memory on long answers). */
const maxUnparsedChars = 64 * 1024;

/**
 * Watches a forwarded OpenAI stream. Payloads are kept unparsed: the usage that OpenAI-compatible upstreams
 * send at the end (the relay asks for it) is all billing needs, so most streams parse only their last event.
 * Without it, every event is parsed for its text, as readOpenAIStream does.
 */
export class OpenAIStreamWatcher implements StreamWatcher {
  private unparsed: string[] = [];
  private unparsedChars = 0;
  private text = '';
  private usage: Usage | undefined;
  /** The usage of the usage-only chunk parsed in `payload`, and its place in `unparsed`: not parsed twice. */
  private finalUsage: { usage: Usage; at: number } | undefined;

  payload(data: string, emptyChoices = hasEmptyChoices(data)): boolean {
    if (data === '') return true;
    if (emptyChoices) {
      // Azure's content-filter prelude: no choices, no usage, no error (dropped as readOpenAIStream does).
      const payload = tryParseObject(data);
      const usage = readUsage(payload?.usage);
      if (payload && !usage && !payload.error) return false;
      if (usage) this.finalUsage = { usage, at: this.unparsed.length };
    }
    this.unparsed.push(data);
    this.unparsedChars += data.length;
    if (this.unparsedChars > maxUnparsedChars) this.parseKept();
    return true;
  }

  result(): { usage?: Usage; text: string } {
    // The last events that mention usage come first: a complete count there makes the text unnecessary.
    for (let index = this.unparsed.length - 1; index >= Math.max(0, this.unparsed.length - 3); index--) {
      const data = this.unparsed[index]!;
      if (!data.includes('"usage"')) continue;
      const usage = this.finalUsage?.at === index ? this.finalUsage.usage : readUsage(tryParseObject(data)?.usage);
      if (!usage) continue;
      if (usage.prompt_tokens > 0 && usage.completion_tokens > 0) return { usage, text: '' };
      break;
    }
    this.parseKept();
    return { usage: this.usage, text: this.text };
  }

  private parseKept(): void {
    for (const data of this.unparsed) {
      const payload = tryParseObject(data);
      if (!payload) continue;
      this.usage = readUsage(payload.usage) ?? this.usage;
      this.text += choicesText(payload);
    }
    this.unparsed = [];
    this.unparsedChars = 0;
    this.finalUsage = undefined;
  }
}
