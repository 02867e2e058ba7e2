import { describe, expect, it } from 'vitest';
import i18next from 'i18next';
import { medianLatencyText, successRateColor } from './outcome-cells';
import en from '../../i18n/locales/en/status';
import zh from '../../i18n/locales/zh-CN/status';

describe('successRateColor', () => {
  it('colours by rate', () => {
    expect(successRateColor(null)).toBe('default');
    expect(successRateColor(1)).toBe('green');
    expect(successRateColor(0.95)).toBe('gold');
    expect(successRateColor(0.5)).toBe('red');
  });
});

describe('medianLatencyText', () => {
  const make = async (lng: string, resources: Record<string, string>) => {
    const instance = i18next.createInstance();
    await instance.init({
      lng,
      resources: { [lng]: { translation: resources } },
      keySeparator: false,
      interpolation: { escapeValue: false },
    });
    return instance.t;
  };

  it('says the bucket holding the median, in ms under a second', async () => {
    const t = await make('en', en);
    expect(medianLatencyText(t, null)).toBe('-');
    expect(medianLatencyText(t, { above_ms: 0, at_most_ms: 10 })).toBe('Median ≤ 10 ms');
    expect(medianLatencyText(t, { above_ms: 100, at_most_ms: 250 })).toBe('Median 100 ms–250 ms');
    expect(medianLatencyText(t, { above_ms: 250, at_most_ms: 500 })).toBe('Median 250 ms–500 ms');
    expect(medianLatencyText(t, { above_ms: 1000, at_most_ms: 2000 })).toBe('Median 1 s–2 s');
    expect(medianLatencyText(t, { above_ms: 64_000, at_most_ms: null })).toBe('Median > 64 s');
  });

  it('speaks Chinese in zh-CN', async () => {
    const t = await make('zh-CN', zh);
    expect(medianLatencyText(t, { above_ms: 0, at_most_ms: 250 })).toBe('中位延迟 ≤ 250 毫秒');
  });
});
