import { describe, expect, test } from 'vitest';
import type { Adaptor } from '../../adaptor.js';
import { anthropic } from '../../adaptors/anthropic/index.js';
import { aws } from '../../adaptors/aws/index.js';
import { openai } from '../../adaptors/openai/index.js';
import { vertexai } from '../../adaptors/vertexai/index.js';
import type { ChannelRouter, RoutedChannel } from '../../routing/channel-router.js';
import type { RelayRuntime } from '../../runtime.js';
import { claudeChannelsOnly, servesClaude } from './claude-channels.js';

const channel = (id: number, adaptor: Adaptor, mapping: Record<string, string> = {}) =>
  ({ row: { id }, adaptor, mapping }) as unknown as RoutedChannel;

/** A router over channels in priority order (the first not excluded is picked), as the relay asks it. */
function runtimeOver(channels: RoutedChannel[]): RelayRuntime {
  const router = {
    select: (_group: string, _model: string, exclude: ReadonlySet<number>) =>
      channels.find((candidate) => !exclude.has(candidate.row.id)),
    channel: (id: number) => channels.find((candidate) => candidate.row.id === id),
  } as unknown as ChannelRouter;
  return { router } as RelayRuntime;
}

describe('documents go to Claude channels only', () => {
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

  test('other channels are skipped; none left is a 400 first, and no further channel on a retry', () => {
    const runtime = runtimeOver([channel(1, openai), channel(2, anthropic), channel(3, openai), channel(4, anthropic)]);
    const router = claudeChannelsOnly(runtime, 'm').router;
    expect(router.select('default', 'm', new Set())?.row.id).toBe(2);
    expect(router.select('default', 'm', new Set([2]))?.row.id).toBe(4);
    expect(router.select('default', 'm', new Set([2, 4]))).toBeUndefined();
    const openaiOnly = claudeChannelsOnly(runtimeOver([channel(1, openai)]), 'gpt-4o').router;
    expect(() => openaiOnly.select('default', 'gpt-4o', new Set())).toThrow(/need a Claude channel/);
    expect(claudeChannelsOnly(runtimeOver([]), 'm').router.select('default', 'm', new Set())).toBeUndefined();
  });

  test('a channel picked with a key suffix must serve Claude too', () => {
    const router = claudeChannelsOnly(runtimeOver([channel(1, openai), channel(2, anthropic)]), 'm').router;
    expect(router.channel(2)?.row.id).toBe(2);
    expect(() => router.channel(1)).toThrow(/need a Claude channel/);
    expect(router.channel(9)).toBeUndefined();
  });
});
