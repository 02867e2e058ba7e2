import { describe, expect, test } from 'vitest';
import { estimatedSpeechSeconds } from './speech-estimate.js';

describe('seconds of speech estimated from a transcript', () => {
  test('plain text: 2.5 words a second, 4 Chinese characters (or kana, or Hangul syllables) a second', () => {
    // 54 words: 21.6 s.
    const english =
      'Four score and seven years ago our fathers brought forth on this continent, a new nation, conceived in ' +
      'Liberty, and dedicated to the proposition that all men are created equal. Now we are engaged in a great ' +
      'civil war, testing whether that nation, or any nation so conceived and so dedicated, can long endure.';
    expect(estimatedSpeechSeconds(english)).toBe(22);
    // 20 characters (punctuation is not speech): 5 s.
    expect(estimatedSpeechSeconds('今天天气很好，我们一起去公园散步吧。最近工作')).toBe(5);
    // Mixed: 2 words (0.8 s) and 6 characters (1.5 s).
    expect(estimatedSpeechSeconds('OpenAI 的 Whisper 模型很好用')).toBe(3);
    expect(estimatedSpeechSeconds('Hi.')).toBe(1);
    expect(estimatedSpeechSeconds('')).toBe(0);
    expect(estimatedSpeechSeconds(' … \n ')).toBe(0);
  });

  test('SRT and WebVTT: the end of the last cue, whatever the words', () => {
    const srt = [
      '1',
      '00:00:00,000 --> 00:00:03,320',
      'The beach was a popular spot on a hot summer day.',
      '',
      '2',
      '00:00:03,320 --> 00:01:07,050',
      'People were swimming in the ocean.',
      '',
    ].join('\n');
    expect(estimatedSpeechSeconds(srt)).toBe(68);
    const vtt = 'WEBVTT\n\n00:00.000 --> 00:02.500\nHello there.\n\n00:02.500 --> 00:09.000\nGeneral Kenobi.\n';
    expect(estimatedSpeechSeconds(vtt)).toBe(9);
    expect(estimatedSpeechSeconds('WEBVTT\n\n01:00:00.000 --> 01:00:00.001\nLate.\n')).toBe(3601);
    expect(estimatedSpeechSeconds('WEBVTT\n\n')).toBe(0);
  });
});
