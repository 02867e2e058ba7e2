import type { ResolvedPrice } from '../../domain/pricing/price.js';
import type { RelayResult } from '../adaptor.js';
import { audioSeconds } from '../billing/audio-duration.js';
import { refund, reserve, settle } from '../billing/billing.service.js';
import { callUsageOf } from '../billing/call-usage.js';
import { mediaCharge, mediaHold, type MediaRequest } from '../../domain/pricing/media-price.js';
import { AttemptPrice } from '../../domain/pricing/price-call.js';
import { priceNote } from '../../domain/pricing/price-note.js';
import { groupRatio } from '../../domain/pricing/ratios.js';
import type { RoutedChannel } from '../routing/channel-router.js';
import { countText } from '../tokenizer/count-tokens.js';
import { attemptOnChannels } from './channel-attempts.js';
import { adaptorFor } from './channel-picker.js';
import { prepareBody, remapMultipart } from './prepare-body.js';
import { elapsedMs, relayCallOf, upstreamModelOf, type RelayJob } from './relay-job.js';
import { adaptorTools, sendToUpstream } from './send.js';

/** A field of the request, JSON or multipart. */
function field(job: RelayJob, name: string): string {
  const value = job.body.kind === 'json' ? job.body.value[name] : job.body.fields[name];
  return value === undefined || value === null ? '' : String(value);
}

/** Seconds of the uploaded audio, read only for a price per second (the upload is in memory already). */
async function uploadSeconds(job: RelayJob, price: ResolvedPrice): Promise<number | null> {
  if (price.price.kind !== 'list' || !price.price.list.per_audio_second || job.body.kind !== 'binary') return null;
  const file = job.body.form.get('file');
  return typeof file === 'object' && file !== null ? audioSeconds(Buffer.from(await file.arrayBuffer())) : null;
}

/** The request as its price needs it, read before the call; its text's tokens only for a list price. */
async function mediaRequest(job: RelayJob, model: string, price: ResolvedPrice): Promise<MediaRequest> {
  const kind = job.mode === 'images' ? 'images' : job.mode === 'audio-speech' ? 'speech' : 'transcript';
  const text = kind === 'images' ? field(job, 'prompt') : kind === 'speech' ? field(job, 'input') : '';
  const approximate = job.context.options.bool('ApproximateTokenEnabled');
  return {
    kind,
    model,
    images: kind === 'images' ? Number(field(job, 'n') || 1) : 0,
    size: field(job, 'size') || '1024x1024',
    quality: field(job, 'quality'),
    inputTokens: price.price.kind === 'list' ? countText(text, model, approximate) : 0,
    inputBytes: Buffer.byteLength(text),
    preConsumedTokens: job.context.options.number('PreConsumedQuota'),
    audioSeconds: kind === 'transcript' ? await uploadSeconds(job, price) : null,
  };
}

/** The log's token counts: the vendor's when it reported tokens, else the text counted here (one-api's). */
function loggedTokens(request: MediaRequest, result: RelayResult, transcriptTokens: number) {
  const { usage } = result;
  if (usage && usage.prompt_tokens + usage.completion_tokens > 0)
    return { prompt_tokens: usage.prompt_tokens, completion_tokens: usage.completion_tokens };
  const prompt = request.kind === 'transcript' ? transcriptTokens : request.kind === 'speech' ? request.inputBytes : 0;
  return { prompt_tokens: prompt, completion_tokens: 0 };
}

/**
 * Images, speech, transcription and translation: the whole price (or for transcripts an estimate) is
 * reserved, the answer relayed as the upstream sent it, and the charge settled; upstream errors are
 * errors here (one-api passed image failures through as successes) and are retried like text.
 */
export async function relayMedia(job: RelayJob): Promise<void> {
  await attemptOnChannels(job, (channel, price) => attemptMedia(job, channel, price));
}

async function attemptMedia(job: RelayJob, channel: RoutedChannel, price: ResolvedPrice): Promise<void> {
  const { context } = job;
  const adaptor = adaptorFor(channel, job);
  const upstreamModel = upstreamModelOf(job, channel);
  let { body } = prepareBody(job.body, job.mode, false, channel, upstreamModel);
  if (job.body.kind === 'binary' && job.body.fields.model && job.body.fields.model !== upstreamModel) {
    body = { kind: 'binary', ...(await remapMultipart(job.body.form, upstreamModel)) };
  }
  const call = relayCallOf(job, channel, upstreamModel, body, false);
  const request = await mediaRequest(job, upstreamModel, price);
  const rates = new AttemptPrice(
    price,
    groupRatio(context, job.principal.user.group),
    context.options.number('QuotaPerUnit'),
  );
  const tools = adaptorTools(job.runtime.client, job.cancel);
  const hold = mediaHold(request, rates);
  const reservation = await reserve(context, job.principal.user, job.principal.token, hold, job.requestId);
  let result;
  try {
    const response = await sendToUpstream(job.runtime.client, adaptor, call, tools);
    result = await adaptor.readResponse(await job.runtime.client.readAll(response), call, tools);
  } catch (error) {
    await refund(context, reservation);
    throw error;
  }
  const transcript = request.kind === 'transcript' ? (result.text ?? '') : '';
  const transcriptTokens = transcript
    ? countText(transcript, upstreamModel, context.options.bool('ApproximateTokenEnabled'))
    : 0;
  const usage = result.usage && callUsageOf(result.usage);
  const receipt = mediaCharge(request, rates, { usage, transcript, transcriptTokens });
  settle(context, reservation, {
    receipt,
    channelId: channel.row.id,
    log: {
      content: priceNote(price, receipt, false),
      model_name: upstreamModel,
      ...loggedTokens(request, result, transcriptTokens),
      request_id: job.requestId,
      elapsed_time: elapsedMs(job),
      is_stream: 0,
      system_prompt_reset: 0,
    },
  });
  // The answer leaves once its charge is durable (see text-relay.ts).
  await job.runtime.settlements.durable();
  job.reply.status(result.status).headers(result.headers).send(result.body);
}
