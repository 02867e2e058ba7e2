import { refund, reserve, settle } from '../billing/billing.service.js';
import { imagePrice } from '../billing/image-price.js';
import { groupRatio, modelRatio, ratioText } from '../billing/ratios.js';
import type { RoutedChannel } from '../routing/channel-router.js';
import { countText } from '../tokenizer/count-tokens.js';
import { attemptOnChannels } from './channel-attempts.js';
import { adaptorFor } from './channel-picker.js';
import { prepareBody, remapMultipart } from './prepare-body.js';
import { elapsedMs, relayCallOf, type RelayJob } from './relay-job.js';
import { adaptorTools, sendToUpstream } from './send.js';

/** A field of the request, JSON or multipart. */
function field(job: RelayJob, name: string): string {
  const value = job.body.kind === 'json' ? job.body.value[name] : job.body.fields[name];
  return value === undefined || value === null ? '' : String(value);
}

/** The fixed price of a request, before the call (images by size and count, speech by input length). */
function fixedPrice(job: RelayJob, model: string, ratio: number): number {
  if (job.mode === 'images') {
    const count = Number(field(job, 'n') || 1);
    return imagePrice(model, field(job, 'size') || '1024x1024', field(job, 'quality'), count, ratio);
  }
  if (job.mode === 'audio-speech') return Math.floor(Buffer.byteLength(field(job, 'input')) * ratio);
  return Math.floor(job.context.options.number('PreConsumedQuota') * ratio);
}

/**
 * Images, speech, transcription and translation: the whole price (or for transcripts an estimate) is
 * reserved, the answer relayed as the upstream sent it, and the charge settled; upstream errors are
 * errors here (one-api passed image failures through as successes) and are retried like text.
 */
export async function relayMedia(job: RelayJob): Promise<void> {
  await attemptOnChannels(job, (channel) => attemptMedia(job, channel));
}

async function attemptMedia(job: RelayJob, channel: RoutedChannel): Promise<void> {
  const { context } = job;
  const adaptor = adaptorFor(channel, job);
  const upstreamModel = channel.mapping[job.model] ?? job.model;
  let { body } = prepareBody(job.body, job.mode, false, channel, upstreamModel);
  if (job.body.kind === 'binary' && job.body.fields.model && job.body.fields.model !== upstreamModel) {
    body = { kind: 'binary', ...(await remapMultipart(job.body.form, upstreamModel)) };
  }
  const call = relayCallOf(job, channel, upstreamModel, body, false);
  const ratioOfModel = modelRatio(context, upstreamModel, channel.row.type);
  const ratioOfGroup = groupRatio(context, job.principal.user.group);
  const ratio = ratioOfModel * ratioOfGroup;
  const price = fixedPrice(job, upstreamModel, ratio);
  const tools = adaptorTools(job.runtime.client, job.cancel);
  const reservation = await reserve(context, job.principal.user, job.principal.token, price, job.requestId);
  let result;
  try {
    const response = await sendToUpstream(job.runtime.client, adaptor, call, tools);
    result = await adaptor.readResponse(await job.runtime.client.readAll(response), call, tools);
  } catch (error) {
    await refund(context, reservation);
    throw error;
  }
  const transcript = job.mode === 'audio-transcription' || job.mode === 'audio-translation';
  const transcriptTokens = transcript
    ? countText(result.text ?? '', upstreamModel, context.options.bool('ApproximateTokenEnabled'))
    : 0;
  // Transcripts are priced by the tokens of the text with the model's ratio (one-api ignored the ratio).
  const quota = transcript ? (transcriptTokens === 0 ? 0 : Math.max(1, Math.ceil(transcriptTokens * ratio))) : price;
  job.reply.status(result.status).headers(result.headers).send(result.body);
  settle(context, reservation, {
    quota,
    channelId: channel.row.id,
    log: {
      content: ratioText(ratioOfModel, ratioOfGroup),
      model_name: upstreamModel,
      prompt_tokens: transcript
        ? transcriptTokens
        : job.mode === 'audio-speech'
          ? Buffer.byteLength(field(job, 'input'))
          : 0,
      completion_tokens: 0,
      request_id: job.requestId,
      elapsed_time: elapsedMs(job),
      is_stream: 0,
      system_prompt_reset: 0,
    },
  });
}
