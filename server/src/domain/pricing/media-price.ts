import type { ListPrice } from '@modelgate/wire';
import { promptTokens, type CallUsage } from './price.js';
import type { AttemptPrice, Hold, Receipt, ReceiptLine } from './price-call.js';
import { imageFactor, imagePrice } from './image-price.js';
import { estimatedSpeechSeconds } from './speech-estimate.js';

/** An images, speech, transcription or translation request, as far as its price needs it. */
export interface MediaRequest {
  kind: 'images' | 'speech' | 'transcript';
  model: string;
  /** Images asked for (n), their size and quality. */
  images: number;
  size: string;
  quality: string;
  /** Tokens of the text sent (the image prompt, the text to speak), counted here. */
  inputTokens: number;
  /** Bytes of the text to speak: one-api's speech price counts them. */
  inputBytes: number;
  /** PreConsumedQuota: a transcript's hold, in tokens at the input price. */
  preConsumedTokens: number;
  /** Whole seconds of the uploaded audio, when its price is per second and its headers tell (audio-duration.ts). */
  audioSeconds: number | null;
}

/**
 * What the answer gave: the vendor's usage if any (as the price's token classes, relay/billing/call-usage.ts),
 * and a transcript's text with its tokens counted here.
 */
export interface MediaAnswer {
  usage?: CallUsage;
  transcript: string;
  transcriptTokens: number;
}

/** one-api's media prices of a ratio price, kept to the unit: the quota and the receipt's one line. */
function ratioCharge(
  request: MediaRequest,
  modelRatio: number,
  groupRatio: number,
  transcriptTokens: number,
): ReceiptLine {
  const ratio = modelRatio * groupRatio;
  if (request.kind === 'images') {
    const { model, size, quality, images } = request;
    return {
      item: 'image',
      count: images,
      unit_price: modelRatio * imageFactor(model, size, quality) * 1000,
      unit: 'quota_per_unit',
      quota: imagePrice(model, size, quality, images, ratio),
    };
  }
  if (request.kind === 'speech') {
    const count = request.inputBytes;
    return { item: 'input', count, unit_price: modelRatio, unit: 'quota_per_token', quota: Math.floor(count * ratio) };
  }
  // Transcripts are priced by the tokens of the text with the model's ratio (one-api ignored the ratio).
  const count = transcriptTokens;
  const quota = count === 0 ? 0 : Math.max(1, Math.ceil(count * ratio));
  return { item: 'output', count, unit_price: modelRatio, unit: 'quota_per_token', quota };
}

/** What a media call is held for: its whole price when known before the call (ratio prices), else an estimate. */
export function mediaHold(request: MediaRequest, price: AttemptPrice): Hold {
  const { resolved, groupRatio } = price;
  if (resolved.price.kind === 'ratio') {
    const ratio = resolved.price.ratio.model_ratio * groupRatio;
    if (request.kind === 'transcript') return { amount: Math.floor(request.preConsumedTokens * ratio) };
    return { amount: ratioCharge(request, resolved.price.ratio.model_ratio, groupRatio, 0).quota };
  }
  const estimated: CallUsage =
    request.kind === 'transcript'
      ? { input: Math.ceil(request.preConsumedTokens), output: 0 }
      : { input: request.inputTokens, output: 0 };
  if (request.kind === 'images') estimated.images = request.images;
  if (request.audioSeconds) estimated.audio_seconds = request.audioSeconds;
  return { amount: price.quota(estimated) };
}

const noUsage = (): CallUsage => ({ input: 0, output: 0 });

/** The tokens a usage reports, prompt and output. */
const reportedTokens = (usage: CallUsage) =>
  promptTokens(usage) + usage.output + (usage.output_audio ?? 0) + (usage.output_image ?? 0);

/**
 * A transcript's usage at a list price. Priced per second (whisper-1): the seconds the answer reports (json,
 * verbose_json), else those of the upload (WAV, MP3), else estimated from the transcript (speech-estimate.ts,
 * and the receipt's line says so); never 0 for a transcript with words. Priced by token (gpt-4o-transcribe):
 * the tokens reported, else the text's tokens counted here as output.
 */
function transcriptUsage(request: MediaRequest, price: ListPrice, answer: MediaAnswer) {
  const usage = answer.usage ? { ...answer.usage } : noUsage();
  let estimated = false;
  if ((price.per_audio_second ?? 0) > 0) {
    usage.audio_seconds ||= request.audioSeconds ?? 0;
    if (!usage.audio_seconds) {
      usage.audio_seconds = estimatedSpeechSeconds(answer.transcript);
      estimated = usage.audio_seconds > 0;
    }
  } else if (!answer.usage || reportedTokens(answer.usage) === 0) usage.output = answer.transcriptTokens;
  return { usage, estimated };
}

/**
 * What a media call is charged. A ratio price: one-api's price as before (images by size, quality and count;
 * speech by the bytes of its text; transcripts by the tokens of the text). A list price: the usage the vendor
 * reports (tokens for gpt-image-1 and gpt-4o-transcribe, seconds for whisper-1), else the text sent counted
 * here, a transcript as `transcriptUsage` says; per image, the images answered, else asked for.
 */
export function mediaCharge(request: MediaRequest, price: AttemptPrice, answer: MediaAnswer): Receipt {
  const { resolved, groupRatio, quotaPerUnit } = price;
  if (resolved.price.kind === 'ratio') {
    const line = ratioCharge(request, resolved.price.ratio.model_ratio, groupRatio, answer.transcriptTokens);
    return {
      model: resolved.model,
      source: resolved.source,
      reference: resolved.reference,
      group_ratio: groupRatio,
      group_price: false,
      tier: null,
      prompt_tokens: line.item === 'input' ? line.count : 0,
      quota_per_unit: quotaPerUnit,
      lines: line.count > 0 ? [line] : [],
      quota: line.quota,
    };
  }
  if (request.kind === 'transcript') {
    const { usage, estimated } = transcriptUsage(request, resolved.price.list, answer);
    const receipt = price.charge(usage);
    const seconds = receipt.lines.find((line) => line.item === 'audio_second');
    if (estimated && seconds) seconds.estimated = true;
    return receipt;
  }
  const usage = answer.usage ? { ...answer.usage } : noUsage();
  if (!answer.usage && request.kind === 'speech') usage.input = request.inputTokens;
  if (request.kind === 'images') usage.images ??= request.images;
  return price.charge(usage);
}
