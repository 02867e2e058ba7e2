import type { ResolvedPrice } from '../../domain/pricing/price.js';
import { outputLimitOf } from '../../domain/pricing/output-limits.js';
import { AttemptPrice, type Hold } from '../../domain/pricing/price-call.js';
import type { Adaptor, RelayCall, Usage } from '../adaptor.js';
import { refund, reserve, settle, type Reservation } from '../billing/billing.service.js';
import { callUsageOf } from '../billing/call-usage.js';
import { priceNote } from '../../domain/pricing/price-note.js';
import { groupRatio } from '../../domain/pricing/ratios.js';
import type { RoutedChannel } from '../routing/channel-router.js';
import { answerHeadersOf } from '../fronts/dropped-header.js';
import { channelSecrets, redactSecrets } from '../upstream-error.js';
import { countInput, countMessages, countText, estimatePrompt } from '../tokenizer/count-tokens.js';
import { attemptOnChannels } from './channel-attempts.js';
import { adaptorFor } from './channel-picker.js';
import { prepareBody } from './prepare-body.js';
import { forwardNativeStream, sendOnRoad } from './native-road.js';
import { elapsedMs, nativeStreamOf, relayCallOf, upstreamModelOf, type RelayJob } from './relay-job.js';
import { adaptorTools, type PipelineTools } from './send.js';
import { beginsTail, forwardStream } from './stream-forward.js';
import { SseWriter } from './stream-writer.js';
import type { OpenResponse } from './upstream-client.js';
import { completeUsage } from './usage.js';

/** Prompt tokens counted locally: approximately for the estimate, exactly when the upstream reports none. */
function countPrompt(job: RelayJob, model: string, approximate: boolean): number {
  if (job.body.kind !== 'json') return 0;
  if (approximate) return estimatePrompt(job.body, job.mode, model);
  const body = job.body.value;
  if (job.mode === 'chat') return countMessages(body.messages, model, approximate);
  if (job.mode === 'completions') return countInput(body.prompt, model, approximate);
  return countInput(body.input, model, approximate);
}

const once = (compute: () => number) => {
  let value: number | undefined;
  return () => (value ??= compute());
};

interface Pricing {
  upstreamModel: string;
  /** The attempt's price (resolved for its channel, with the caller's group ratio): the hold and the charge. */
  price: AttemptPrice;
  /** The prompt's size for the reservation: one-api's bytes × 0.38, so no tokenizer table is needed up front. */
  estimatedPromptTokens: number;
  /** The local prompt count, for billing only when the upstream gives no usage (counted at most once). */
  promptTokens: () => number;
}

/** Chat, completions, embeddings and moderations: estimate, reserve, send, relay, settle (§4.5). */
export async function relayText(job: RelayJob): Promise<void> {
  await attemptOnChannels(job, (channel, price) => attemptText(job, channel, price));
}

/**
 * One attempt on one channel, settled once: the estimate is held, the answer relayed, then either whatever
 * was generated is charged (also when a stream broke off or the client left) or, when the attempt failed
 * before anything was answered, the hold is refunded and the failure goes to the retry loop.
 */
async function attemptText(job: RelayJob, channel: RoutedChannel, price: ResolvedPrice): Promise<void> {
  const { context } = job;
  const adaptor = adaptorFor(channel, job);
  const upstreamModel = upstreamModelOf(job, channel);
  const pricing: Pricing = {
    upstreamModel,
    price: new AttemptPrice(
      price,
      groupRatio(context, job.principal.user.group),
      context.options.number('QuotaPerUnit'),
    ),
    estimatedPromptTokens: countPrompt(job, upstreamModel, true),
    promptTokens: once(() => countPrompt(job, upstreamModel, context.options.bool('ApproximateTokenEnabled'))),
  };
  const hold = holdFor(job, pricing);
  const reservation = await reserve(context, job.principal.user, job.principal.token, hold, job.requestId);
  const held = reservation.amount + reservation.held;
  if (hold.cut && held < hold.amount) reservation.outputCap = hold.cut.outputFor(held);
  const { body, systemPromptReset } = prepareBody(
    job.body,
    job.mode,
    job.stream,
    channel,
    upstreamModel,
    context.config.ENFORCE_INCLUDE_USAGE,
    reservation.outputCap,
  );
  const call = relayCallOf(job, channel, upstreamModel, body, job.stream);
  let output: Output;
  try {
    const tools = adaptorTools(job.runtime.client, job.cancel);
    const response = await sendOnRoad(job.runtime.client, adaptor, call, tools);
    output = job.stream
      ? await relayStream(job, channel, adaptor, call, response)
      : await relayWhole(job, adaptor, call, tools, response);
  } catch (error) {
    await refund(context, reservation);
    throw error;
  }
  const approximate = context.options.bool('ApproximateTokenEnabled');
  const countCompletion = once(() => countText(output.text, upstreamModel, approximate));
  const usage = completeUsage(output.usage, pricing.promptTokens, countCompletion);
  charge(job, channel, reservation, pricing, withTextSent(usage, output, countCompletion), systemPromptReset);
  // The answer's last bytes leave once its charge is durable (journaled, see SettlementWriter): a client never
  // holds an answer that a crash leaves uncharged.
  await job.runtime.settlements.durable();
  output.finish();
}

/**
 * What an attempt generated: the upstream's usage if it gave one, the text to count when it did not, and
 * whether the stream ended early (broken off, or the client left).
 */
interface Output {
  usage?: Usage;
  text: string;
  interrupted?: boolean;
  /** Sends the answer's tail (a whole body; a stream's usage chunk, [DONE] or error, and its end). */
  finish: () => void;
}

/**
 * A stream that ended early may have reported only part of its output (Claude's message_start says one
 * token, Gemini's first event none): the text sent by then is charged, completion = max(reported, counted).
 */
function withTextSent(usage: Usage, output: Output, countCompletion: () => number): Usage {
  if (!output.interrupted || countCompletion() <= usage.completion_tokens) return usage;
  const completion = countCompletion();
  return { ...usage, completion_tokens: completion, total_tokens: usage.prompt_tokens + completion };
}

/** A whole answer: read and converted to the front's shape, sent by `finish`. */
async function relayWhole(
  job: RelayJob,
  adaptor: Adaptor,
  call: RelayCall,
  tools: PipelineTools,
  response: OpenResponse,
): Promise<Output> {
  const result = await adaptor.readResponse(await job.runtime.client.readAll(response), call, tools);
  const output = job.front ? job.front.whole(result.body, result.status) : result;
  const answerHeaders = result.status < 300 ? answerHeadersOf(job.front, call) : undefined;
  const finish = () =>
    void job.reply
      .status(result.status)
      .headers({ ...output.headers, ...answerHeaders })
      .send(output.body);
  return { usage: result.usage, text: result.text ?? '', finish };
}

/**
 * A stream: OpenAI-format streams forwarded as they come, others converted chunk by chunk. It never throws
 * once started: a break-off ends the stream with an error event, and what came before it is charged. The
 * tail (from the usage-only chunk or an upstream's closing event on, then [DONE] or the error event, which a
 * front turns into its closing events) is kept for `finish`.
 */
async function relayStream(
  job: RelayJob,
  channel: RoutedChannel,
  adaptor: Adaptor,
  call: RelayCall,
  response: OpenResponse,
): Promise<Output> {
  const writer = new SseWriter(job.reply, job.front?.event, job.front?.streamContentType);
  const answerHeaders = answerHeadersOf(job.front, call);
  if (answerHeaders) job.reply.headers(answerHeaders);
  writer.start();
  const native = nativeStreamOf(job, call);
  const watcher = job.front ? undefined : adaptor.watchStream?.(call);
  const redact = (text: string) => redactSecrets(text, channelSecrets(channel.settings));
  let text = '';
  let usage: Usage | undefined;
  let brokenOff: string | undefined;
  let interrupted = false;
  let upstreamDone = false;
  let forwardedTail = '';
  const tail: string[] = [];
  try {
    if (native) {
      const body = adaptor.nativeStream?.(response.body, call) ?? response.body;
      ({ tail: forwardedTail } = await forwardNativeStream(body, native, writer, redact));
    } else if (watcher) {
      ({ done: upstreamDone, tail: forwardedTail } = await forwardStream(response.body, watcher, writer, redact));
    } else {
      for await (const chunk of adaptor.readStream(response.body, call)) {
        if (chunk.text) text += chunk.text;
        if (chunk.usage) usage = chunk.usage;
        // An upstream's error event, converted to OpenAI's `{"error": …}` (which a front turns into its own
        // error event), may echo the key: redacted as on the other roads. One substring search per chunk,
        // beside the JSON parse and write each converted chunk costs anyway. It ends the stream, so it is
        // tail: a client holding it (a WebSocket turn ends there) finds the call charged.
        const error = chunk.data.includes('"error"');
        const data = error ? redact(chunk.data) : chunk.data;
        if (error || tail.length > 0 || beginsTail(data)) {
          tail.push(data);
          continue;
        }
        const slowClient = writer.send(data);
        if (slowClient) await slowClient;
      }
    }
  } catch (error) {
    interrupted = true;
    if (!job.cancel.cancelled) {
      job.context.logger.warn(
        { err: error, requestId: job.requestId, channelId: channel.row.id },
        'upstream stream broke off',
      );
      const reason = error instanceof Error ? error.message : String(error);
      // A vendor's error event may echo the key or the upstream's URL, as its error answers do (see attemptOnChannels).
      brokenOff = `the upstream stream broke off: ${redact(reason)}`;
    }
  }
  if (watcher) ({ usage, text } = watcher.result());
  if (native) ({ usage, text } = native.result());
  if (native?.ended) upstreamDone = true;
  const finish = () => {
    if (forwardedTail) writer.forward(forwardedTail);
    for (const data of tail) writer.send(data);
    if (brokenOff) {
      writer.send(
        JSON.stringify({
          error: { message: brokenOff, type: 'upstream_error', param: null, code: 'stream_interrupted' },
        }),
      );
    } else if (!upstreamDone) {
      writer.send('[DONE]');
    }
    writer.end();
  };
  return { usage, text, interrupted, finish };
}

/** The output limit a client set (max_completion_tokens, max_tokens or max_output_tokens), or undefined. */
function outputLimit(job: RelayJob): number | undefined {
  if (job.body.kind !== 'json') return undefined;
  for (const field of ['max_completion_tokens', 'max_tokens', 'max_output_tokens']) {
    const value = Number(job.body.value[field]);
    if (Number.isFinite(value) && value > 0) return value;
  }
  return undefined;
}

/**
 * The output a model without a known limit (output-limits.ts) is held for when the client sets none: one-api's
 * default `max_tokens` for Claude, which every chat model accepts, so a cap below it is never refused.
 */
const unknownModelOutput = 4096;

/**
 * What a call is held for before it runs (decision 0014): the most it can cost, priced by the attempt's price
 * (AttemptPrice.hold), with the web searches it allows:
 * - embeddings and moderations: their input;
 * - chat and completions: the prompt and the most output the call can produce: the client's limit, never above
 *   the model's (output-limits.ts), or the model's without one (4,096 tokens for a model not listed).
 */
function holdFor(job: RelayJob, pricing: Pricing): Hold {
  const prompt = pricing.estimatedPromptTokens;
  if (job.mode === 'embeddings' || job.mode === 'moderations')
    return pricing.price.hold(prompt, null, job.maxWebSearches);
  const clientLimit = outputLimit(job);
  const modelLimit = outputLimitOf(pricing.upstreamModel);
  const ceiling = Math.ceil(
    clientLimit === undefined
      ? (modelLimit ?? unknownModelOutput)
      : Math.min(clientLimit, modelLimit ?? Number.POSITIVE_INFINITY),
  );
  return pricing.price.hold(prompt, ceiling, job.maxWebSearches);
}

/**
 * The consume log's text: the price, then what else the call did: the upstream's own web searches, the
 * prompt cache the vendor reported (read, written), and for a call naming its conversation whether it stayed
 * on the conversation's channel (decision 0023).
 */
function logContent(job: RelayJob, channel: RoutedChannel, price: string, usage: Usage): string {
  const notes = [price];
  const searches = usage.web_search_requests ?? 0;
  if (searches > 0) notes.push(`网络搜索 ${searches} 次`);
  const cacheRead = usage.prompt_tokens_details?.cached_tokens ?? 0;
  if (cacheRead > 0) notes.push(`缓存读取 ${cacheRead} tokens`);
  const cacheWritten = usage.cache_creation_input_tokens ?? 0;
  if (cacheWritten > 0) notes.push(`缓存写入 ${cacheWritten} tokens`);
  if (job.session?.key) notes.push(job.session.channelId === channel.row.id ? '会话保持命中' : '会话保持未命中');
  return notes.join('，');
}

function charge(
  job: RelayJob,
  channel: RoutedChannel,
  reservation: Reservation,
  pricing: Pricing,
  usage: Usage,
  systemPromptReset: boolean,
): void {
  const receipt = pricing.price.charge(callUsageOf(usage));
  settle(job.context, reservation, {
    receipt,
    channelId: channel.row.id,
    log: {
      content: logContent(job, channel, priceNote(pricing.price.resolved, receipt, true), usage),
      model_name: pricing.upstreamModel,
      prompt_tokens: usage.prompt_tokens,
      completion_tokens: usage.completion_tokens,
      request_id: job.requestId,
      elapsed_time: elapsedMs(job),
      // Numbers, not booleans: better-sqlite3 cannot bind booleans and PostgreSQL reads '1' as true.
      is_stream: Number(job.stream),
      system_prompt_reset: Number(systemPromptReset),
    },
  });
}
