import { describe, expect, test } from 'vitest';
import { audioSeconds } from './audio-duration.js';

/** A RIFF chunk: id, little-endian size, body, and the pad byte of an odd size. */
function chunk(id: string, body: Buffer, size = body.length): Buffer {
  const header = Buffer.alloc(8);
  header.write(id, 0, 'latin1');
  header.writeUInt32LE(size, 4);
  return Buffer.concat([header, body, Buffer.alloc(body.length % 2)]);
}

/** A WAVE file's bytes: a fmt chunk as written by recorders, then the given chunks. */
function wav(options: { format?: number; sampleRate: number; channels: number; bits: number }, ...chunks: Buffer[]) {
  const { format = 1, sampleRate, channels, bits } = options;
  const blockAlign = (channels * bits) / 8;
  const fmt = Buffer.alloc(16);
  fmt.writeUInt16LE(format, 0);
  fmt.writeUInt16LE(channels, 2);
  fmt.writeUInt32LE(sampleRate, 4);
  fmt.writeUInt32LE(sampleRate * blockAlign, 8);
  fmt.writeUInt16LE(blockAlign, 12);
  fmt.writeUInt16LE(bits, 14);
  const body = Buffer.concat([Buffer.from('WAVE', 'latin1'), chunk('fmt ', fmt), ...chunks]);
  return chunk('RIFF', body);
}

/**
 * MPEG audio frames: a 4-byte header (sync, version, layer, no CRC; bitrate, sample rate; joint stereo) and a
 * body of the length the header implies, filled with `fill`; with `padded`, every other frame has the padding
 * bit set and one byte more, as an encoder keeps a 44.1 kHz stream at its bitrate.
 */
function frames(count: number, header: number[], length: number, padded = false, fill = 0x55): Buffer {
  return Buffer.concat(
    Array.from({ length: count }, (_, index) => {
      const pad = padded && index % 2 === 1;
      const frame = Buffer.alloc(length + (pad ? 1 : 0), fill);
      Buffer.from(header).copy(frame);
      if (pad) frame[2]! |= 0x02;
      return frame;
    }),
  );
}

// MPEG-1 layer III, 128 kbit/s, 44.1 kHz: 144 × 128000 / 44100 = 417 bytes, 418 with the padding bit.
const mpeg1 = [0xff, 0xfb, 0x90, 0x40];
// MPEG-2 layer III, 32 kbit/s, 16 kHz: 72 × 32000 / 16000 = 144 bytes, 576 samples a frame.
const mpeg2 = [0xff, 0xf3, 0x48, 0xc0];

describe('seconds of an uploaded audio file, from its headers', () => {
  test('WAV: the data chunk over the byte rate, rounded up to whole seconds', () => {
    // 16 kHz 16-bit mono: 32,000 bytes a second; 2.5 s of samples.
    const speech = wav({ sampleRate: 16_000, channels: 1, bits: 16 }, chunk('data', Buffer.alloc(80_000)));
    expect(audioSeconds(speech)).toBe(3);
    // 44.1 kHz 16-bit stereo, exactly 2 s, after a LIST chunk of odd size (padded).
    const music = wav(
      { sampleRate: 44_100, channels: 2, bits: 16 },
      chunk('LIST', Buffer.from('INFOISFT\u0005\u0000\u0000\u0000Lavf\u0000', 'latin1')),
      chunk('data', Buffer.alloc(352_800)),
    );
    expect(audioSeconds(music)).toBe(2);
    // IEEE float and the extensible header have exact byte rates too.
    expect(
      audioSeconds(wav({ format: 3, sampleRate: 8000, channels: 1, bits: 32 }, chunk('data', Buffer.alloc(32_001)))),
    ).toBe(2);
    expect(
      audioSeconds(wav({ format: 0xfffe, sampleRate: 8000, channels: 1, bits: 8 }, chunk('data', Buffer.alloc(8000)))),
    ).toBe(1);
  });

  test('WAV written while recording (data size 0 or 0xFFFFFFFF) or cut short counts the bytes present', () => {
    const samples = Buffer.alloc(64_000);
    const streamed = wav({ sampleRate: 16_000, channels: 1, bits: 16 }, chunk('data', samples, 0xffffffff));
    expect(audioSeconds(streamed)).toBe(2);
    const unsized = wav({ sampleRate: 16_000, channels: 1, bits: 16 }, chunk('data', samples, 0));
    expect(audioSeconds(unsized)).toBe(2);
    const cut = wav({ sampleRate: 16_000, channels: 1, bits: 16 }, chunk('data', Buffer.alloc(96_001), 3_200_000));
    expect(audioSeconds(cut)).toBe(4);
  });

  test('WAV that cannot be read for certain is null: compressed formats, no fmt before data, no data', () => {
    const adpcm = wav({ format: 0x11, sampleRate: 16_000, channels: 1, bits: 4 }, chunk('data', Buffer.alloc(8000)));
    expect(audioSeconds(adpcm)).toBeNull();
    const dataFirst = chunk('RIFF', Buffer.concat([Buffer.from('WAVE'), chunk('data', Buffer.alloc(8000))]));
    expect(audioSeconds(dataFirst)).toBeNull();
    expect(audioSeconds(wav({ sampleRate: 16_000, channels: 1, bits: 16 }))).toBeNull();
    expect(audioSeconds(wav({ sampleRate: 16_000, channels: 1, bits: 16 }, chunk('data', Buffer.alloc(0))))).toBeNull();
  });

  test('MP3: every frame walked, samples over the sample rate', () => {
    // 100 frames × 1152 samples / 44,100 Hz = 2.61 s.
    expect(audioSeconds(frames(100, mpeg1, 417, true))).toBe(3);
    // 250 frames × 576 / 16,000 = 9 s exactly.
    expect(audioSeconds(frames(250, mpeg2, 144))).toBe(9);
  });

  test('MP3 with an ID3v2 tag before, a Xing header frame, and an ID3v1 tag after', () => {
    const id3 = Buffer.concat([Buffer.from([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0x01, 0x00]), Buffer.alloc(128)]);
    const xing = frames(1, mpeg1, 417, false, 0);
    xing.write('Xing', 36, 'latin1');
    // 383 frames of sound: 383 × 1152 / 44,100 = 10.005 s, 11 billed.
    const audio = frames(383, mpeg1, 417, true);
    const id3v1 = Buffer.concat([Buffer.from('TAG', 'latin1'), Buffer.alloc(125)]);
    expect(audioSeconds(Buffer.concat([id3, xing, audio, id3v1]))).toBe(11);
    // 382 frames are 9.98 s: the Xing frame (26 ms of silence) is not counted.
    expect(audioSeconds(Buffer.concat([xing, frames(382, mpeg1, 417, true)]))).toBe(10);
  });

  test('a last frame cut short is dropped; junk after the frames, a changing sample rate or no audio is null', () => {
    const whole = frames(100, mpeg1, 417, true);
    expect(audioSeconds(whole.subarray(0, whole.length - 100))).toBe(3);
    expect(audioSeconds(Buffer.concat([whole, Buffer.from('not audio at all')]))).toBeNull();
    expect(audioSeconds(Buffer.concat([whole, frames(10, mpeg2, 144)]))).toBeNull();
    expect(audioSeconds(Buffer.from('RIFF fake wav'))).toBeNull();
    expect(audioSeconds(Buffer.alloc(0))).toBeNull();
    expect(audioSeconds(Buffer.from([0xff, 0xfb, 0x90, 0x40]))).toBeNull();
  });
});
