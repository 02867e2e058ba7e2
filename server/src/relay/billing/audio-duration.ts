/**
 * Seconds of audio in an upload, read from its own headers where that is cheap and certain: WAV (the data
 * chunk's bytes / the byte rate of an uncompressed or G.711 format) and MPEG audio (every frame header walked,
 * samples / sample rate). Anything else, or a file that does not parse to its end, is null: the caller then
 * estimates. Whole seconds, rounded up, as OpenAI bills per second. No library: music-metadata, the
 * well-kept one, is 6.7 MB unpacked with ten dependencies and needs Node 22.
 */
export function audioSeconds(bytes: Buffer): number | null {
  const seconds = wavSeconds(bytes) ?? mpegSeconds(bytes);
  return seconds && seconds > 0 ? Math.ceil(seconds) : null;
}

/** WAVE formats whose byte rate is exact: PCM, IEEE float, A-law, µ-law, and the extensible header. */
const constantRateFormats = new Set([1, 3, 6, 7, 0xfffe]);

function wavSeconds(bytes: Buffer): number | null {
  if (bytes.length < 12 || bytes.toString('latin1', 0, 4) !== 'RIFF' || bytes.toString('latin1', 8, 12) !== 'WAVE')
    return null;
  let byteRate = 0;
  for (let at = 12; at + 8 <= bytes.length;) {
    const id = bytes.toString('latin1', at, at + 4);
    const size = bytes.readUInt32LE(at + 4);
    const body = at + 8;
    if (id === 'fmt ' && body + 16 <= bytes.length) {
      const format = bytes.readUInt16LE(body);
      const sampleRate = bytes.readUInt32LE(body + 4);
      const blockAlign = bytes.readUInt16LE(body + 12);
      byteRate = bytes.readUInt32LE(body + 8);
      if (!constantRateFormats.has(format) || byteRate === 0 || byteRate !== sampleRate * blockAlign) return null;
    }
    // A recorder that streams writes the data size as 0 or 0xFFFFFFFF: the bytes that follow count then.
    if (id === 'data') return byteRate ? Math.min(size || Infinity, bytes.length - body) / byteRate : null;
    at = body + size + (size % 2);
  }
  return null;
}

/** Kbit/s by bitrate index: MPEG-1 layers I, II, III; MPEG-2 and 2.5 layer I, then layers II and III. */
const bitrates = [
  [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
  [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
  [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
  [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
];
/** Hz by sample-rate index, for MPEG-1, 2 and 2.5. */
const sampleRates = { 1: [44100, 48000, 32000], 2: [22050, 24000, 16000], 2.5: [11025, 12000, 8000] };

interface Frame {
  length: number;
  samples: number;
  sampleRate: number;
}

/** The MPEG audio frame whose header starts at `at`, or null when none does (free-format bitrates included). */
function frameAt(bytes: Buffer, at: number): Frame | null {
  if (at + 4 > bytes.length || bytes[at] !== 0xff || (bytes[at + 1]! & 0xe0) !== 0xe0) return null;
  const header = bytes.readUInt32BE(at);
  const version = [2.5, 0, 2, 1][(header >>> 19) & 3]! as 0 | 1 | 2 | 2.5;
  const layer = [0, 3, 2, 1][(header >>> 17) & 3]!;
  const bitrateIndex = (header >>> 12) & 15;
  const rateIndex = (header >>> 10) & 3;
  if (version === 0 || layer === 0 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return null;
  const table = version === 1 ? layer - 1 : layer === 1 ? 3 : 4;
  const bitrate = bitrates[table]![bitrateIndex]! * 1000;
  const sampleRate = sampleRates[version][rateIndex]!;
  const padding = (header >>> 9) & 1;
  const samples = layer === 1 ? 384 : layer === 3 && version !== 1 ? 576 : 1152;
  const length =
    layer === 1
      ? (Math.floor((12 * bitrate) / sampleRate) + padding) * 4
      : Math.floor(((samples / 8) * bitrate) / sampleRate) + padding;
  return { length, samples, sampleRate };
}

/** Bytes of an ID3v2 tag at the start (its header, body and footer), 0 when there is none. */
function id3Size(bytes: Buffer): number {
  if (bytes.length < 10 || bytes.toString('latin1', 0, 3) !== 'ID3') return 0;
  const size = ((bytes[6]! & 0x7f) << 21) | ((bytes[7]! & 0x7f) << 14) | ((bytes[8]! & 0x7f) << 7) | (bytes[9]! & 0x7f);
  return 10 + size + (bytes[5]! & 0x10 ? 10 : 0);
}

/** The tags an MP3 may end with (ID3v1, APE, Lyrics3): what follows the last frame may be one of them. */
const trailingTags = ['TAG', 'APETAGEX', 'LYRICSBEGIN'];

/**
 * MPEG audio (MP3, and layers I and II): the frames walked from the first byte after an ID3v2 tag to the end
 * of the file (a trailing tag or a last frame cut short allowed), one sample rate throughout. The first frame
 * is skipped when it is a Xing, Info or VBRI header, which encoders write as silence the decoder drops.
 */
function mpegSeconds(bytes: Buffer): number | null {
  let at = id3Size(bytes);
  let samples = 0;
  let sampleRate = 0;
  let frames = 0;
  while (at < bytes.length) {
    const frame = frameAt(bytes, at);
    if (!frame || (sampleRate && frame.sampleRate !== sampleRate)) {
      const rest = bytes.toString('latin1', at, at + 11);
      if (frames > 0 && trailingTags.some((tag) => rest.startsWith(tag))) break;
      return null;
    }
    if (at + frame.length > bytes.length) break;
    const header = frames === 0 ? bytes.toString('latin1', at, at + Math.min(frame.length, 64)) : '';
    if (!/Xing|Info|VBRI/.test(header)) samples += frame.samples;
    sampleRate = frame.sampleRate;
    frames++;
    at += frame.length;
  }
  return frames > 0 && sampleRate ? samples / sampleRate : null;
}
