import { describe, expect, test } from 'vitest';
import type { Adaptor } from '../../adaptor.js';
import { anthropic } from '../../adaptors/anthropic/index.js';
import { aws } from '../../adaptors/aws/index.js';
import { openai } from '../../adaptors/openai/index.js';
import { vertexai } from '../../adaptors/vertexai/index.js';
import type { RoutedChannel } from '../../routing/channel-router.js';
import { anthropicChannelLimit, servesClaude } from './claude-channels.js';

const channel = (id: number, adaptor: Adaptor, mapping: Record<string, string> = {}, type = 14) =>
  ({ row: { id, type }, adaptor, mapping }) as unknown as RoutedChannel;

describe('documents go to the channels that read them', () => {
  test('Anthropic, and Vertex or Bedrock for a Claude model (after the mapping), serve Claude', () => {
    expect(servesClaude(channel(1, anthropic), 'anything')).toBe(true);
    expect(servesClaude(channel(2, vertexai), 'claude-3-7-sonnet@20250219')).toBe(true);
    expect(servesClaude(channel(3, vertexai), 'gemini-1.5-pro')).toBe(false);
    expect(servesClaude(channel(4, aws), 'claude-3-haiku-20240307')).toBe(true);
    expect(servesClaude(channel(5, aws), 'llama3-8b-8192')).toBe(false);
    expect(servesClaude(channel(6, aws), 'no-such-model')).toBe(false);
    expect(servesClaude(channel(7, aws, { docs: 'claude-3-haiku-20240307' }), 'docs')).toBe(true);
    expect(servesClaude(channel(8, openai), 'claude-3-haiku-20240307')).toBe(false);
  });

  test('the channel limit accepts Claude channels for the model and refuses with a 400 naming it', () => {
    const limit = anthropicChannelLimit('claude', false, 'docs')!.only!;
    expect(limit.accepts(channel(1, anthropic))).toBe(true);
    expect(limit.accepts(channel(2, aws, { docs: 'claude-3-haiku-20240307' }))).toBe(true);
    expect(limit.accepts(channel(3, openai, {}, 1))).toBe(false);
    expect(limit.refusal()).toMatchObject({ status: 400, code: 'documents_need_claude' });
    expect(limit.refusal().message).toContain('docs');
  });

  test('inline PDFs also go to OpenAI and OpenRouter channels (file parts), not to other compatible ones', () => {
    const limit = anthropicChannelLimit('pdf', false, 'docs')!.only!;
    expect(limit.accepts(channel(1, anthropic))).toBe(true);
    expect(limit.accepts(channel(2, openai, {}, 1))).toBe(true);
    expect(limit.accepts(channel(3, openai, {}, 20))).toBe(true);
    expect(limit.accepts(channel(4, openai, {}, 3))).toBe(false);
    expect(limit.accepts(channel(5, openai, {}, 36))).toBe(false);
    expect(limit.refusal()).toMatchObject({ status: 400, code: 'documents_need_pdf_reader' });
    expect(anthropicChannelLimit('any', false, 'docs')).toBeUndefined();
  });

  test('server tools prefer Claude channels without refusing the others, also within a PDF limit', () => {
    const tools = anthropicChannelLimit('any', true, 'docs')!;
    expect(tools.only).toBeUndefined();
    expect(tools.prefers!(channel(1, anthropic))).toBe(true);
    expect(tools.prefers!(channel(2, openai, {}, 1))).toBe(false);
    const both = anthropicChannelLimit('pdf', true, 'docs')!;
    expect(both.only!.accepts(channel(2, openai, {}, 1))).toBe(true);
    expect(both.prefers!(channel(2, openai, {}, 1))).toBe(false);
    expect(both.prefers!(channel(1, anthropic))).toBe(true);
  });
});
