/**
 * Speech rates for estimating a recording's length from its transcript, when neither the answer nor the
 * upload tells it: about 150 words a minute in English (the usual figure for conversation, talks and
 * audiobooks), about 240 characters a minute in Mandarin; Japanese kana and Korean syllables are counted as
 * Chinese characters. Pauses are in the audio but not in the text, so the estimate errs on the user's side.
 * Counted in words and characters, not tokens, so ApproximateTokenEnabled (which roughly doubles an English
 * count) does not change it.
 */
const wordsPerSecond = 2.5;
const charactersPerSecond = 4;

const syllabic = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;
const word = /[\p{L}\p{N}]/u;
/** An SRT or WebVTT cue's timing line; its end time is the group after `-->` (hours optional in WebVTT). */
const cueTiming = /-->\s*(?:(\d+):)?(\d{1,2}):(\d{2})[,.](\d{3})/g;
/** WebVTT's first line, which a file without cues (nothing was said) still has. */
const webVttHeader = /^\uFEFF?WEBVTT[^\n]*/;

/** The end of the last cue of SRT or WebVTT subtitles, in milliseconds; 0 when the text has no cue. */
function lastCueEndMs(text: string): number {
  let end = 0;
  for (const [, hours = '0', minutes, seconds, millis] of text.matchAll(cueTiming))
    end = Math.max(end, ((Number(hours) * 60 + Number(minutes)) * 60 + Number(seconds)) * 1000 + Number(millis));
  return end;
}

/**
 * Whole seconds of speech a transcript stands for: subtitles (response_format srt or vtt) end with their last
 * cue, as the vendor timed it; plain text at the speech rates above. 0 only for a transcript without words.
 */
export function estimatedSpeechSeconds(text: string): number {
  const cueEnd = lastCueEndMs(text);
  if (cueEnd > 0) return Math.ceil(cueEnd / 1000);
  const characters = text.match(syllabic)?.length ?? 0;
  const words = text
    .replace(webVttHeader, '')
    .replace(syllabic, ' ')
    .split(/\s+/)
    .filter((part) => word.test(part)).length;
  return Math.ceil(words / wordsPerSecond + characters / charactersPerSecond);
}
