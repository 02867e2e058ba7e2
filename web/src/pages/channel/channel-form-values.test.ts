import { describe, expect, it } from 'vitest';
import type { Channel } from '../../api/channel';
import { addCustomModels, channelToForm, emptyChannelForm, formToChannel } from './channel-form-values';

describe('formToChannel', () => {
  const base = { ...emptyChannelForm, name: 'a', key: 'sk-1', models: ['gpt-4o'] };

  it('requires name and key on create only', () => {
    expect(formToChannel({ ...base, key: '' }, true)).toEqual({ ok: false, error: 'nameAndKeyRequired' });
    expect(formToChannel({ ...base, key: '' }, false).ok).toBe(true);
  });
  it('requires a model except for the Proxy type', () => {
    expect(formToChannel({ ...base, models: [] }, true)).toEqual({ ok: false, error: 'modelRequired' });
    expect(formToChannel({ ...base, models: [], type: 43 }, true).ok).toBe(true);
  });
  it('checks the model mapping JSON', () => {
    expect(formToChannel({ ...base, model_mapping: '{bad' }, true)).toEqual({ ok: false, error: 'mappingInvalid' });
  });
  it('trims the base URL and fills Azure defaults', () => {
    const result = formToChannel({ ...base, type: 3, base_url: 'https://x.openai.azure.com/' }, true);
    expect(result.ok && result.input.base_url).toBe('https://x.openai.azure.com');
    expect(result.ok && result.input.other).toBe('2024-03-01-preview');
  });
  it('composes AWS and Vertex keys', () => {
    const aws = formToChannel({ ...base, type: 33, key: '', ak: 'AK', sk: 'SK', region: 'us-east-1' }, true);
    expect(aws.ok && aws.input.key).toBe('AK|SK|us-east-1');
    const vertex = formToChannel(
      { ...base, type: 42, key: '', region: 'us-central1', vertex_ai_project_id: 'p', vertex_ai_adc: '{"a":1}' },
      true,
    );
    expect(vertex.ok && vertex.input.key).toBe('us-central1|p|{"a":1}');
  });
  it('keeps the Responses API setting in the config, and leaves it out for the default', () => {
    const native = formToChannel({ ...base, type: 8, responses_api: 'native' }, true);
    expect(native.ok && JSON.parse(native.input.config)).toEqual({ responses_api: 'native' });
    const byDefault = formToChannel({ ...base, type: 8 }, true);
    expect(byDefault.ok && JSON.parse(byDefault.input.config)).toEqual({});
  });
  it('reads the Responses API setting back, so that saving the form again keeps it', () => {
    const stored = {
      name: 'reseller',
      type: 8,
      base_url: 'https://reseller.example',
      other: '',
      model_mapping: '',
      system_prompt: '',
      models: 'gpt-4.1',
      group: 'default',
      config: JSON.stringify({ responses_api: 'chat' }),
    } as Channel;
    const values = channelToForm(stored);
    expect(values.responses_api).toBe('chat');
    const saved = formToChannel(values, false);
    expect(saved.ok && JSON.parse(saved.input.config)).toEqual({ responses_api: 'chat' });
  });
  it('joins models and groups', () => {
    const result = formToChannel({ ...base, models: ['a', 'b'], groups: ['default', 'vip'] }, true);
    expect(result.ok && [result.input.models, result.input.group]).toEqual(['a,b', 'default,vip']);
  });
});

describe('addCustomModels', () => {
  it('ignores blanks and duplicates', () => {
    expect(addCustomModels(['a'], 'a, b,,c ,b')).toEqual(['a', 'b', 'c']);
  });
});
