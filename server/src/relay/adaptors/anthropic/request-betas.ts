import type { ChannelSettings } from '../../adaptor.js';

/** Every flag, in a channel's `anthropic_beta_pass`. */
const everyFlag = '*';

/**
 * The `anthropic-beta` flags a channel type passes on when its config names none. Anthropic's own API takes
 * every flag. Bedrock and Vertex answer 400 to a flag they do not serve ("invalid beta flag", "Unexpected
 * value(s) … for the anthropic-beta header"), and Claude Code sends first-party flags they refuse
 * (`claude-code-20250219`, `fine-grained-tool-streaming-2025-05-14`, `prompt-caching-scope-2026-01-05`,
 * `effort-2025-11-24`, `adaptive-thinking-2026-01-28`, `oauth-2025-04-20` …; anthropics/claude-code#49370,
 * #34802, #21625, LiteLLM's anthropic_beta_headers_config.json). Both serve interleaved thinking (Claude Code's
 * own Bedrock and Vertex requests carry it, anthropics/claude-code#1229) and the 1M context window of the
 * models that have one (AWS's and Google's Claude pages; the flag Claude Code sends for a `[1m]` model).
 */
const platformDefaults: Record<number, readonly string[]> = {
  /** AWS Bedrock (ChannelType.AwsClaude). */
  33: ['interleaved-thinking-2025-05-14', 'context-1m-2025-08-07'],
  /** Google Vertex AI (ChannelType.VertexAI). */
  42: ['interleaved-thinking-2025-05-14', 'context-1m-2025-08-07'],
};

const listOf = (text: unknown): string[] =>
  typeof text === 'string'
    ? text
        .split(',')
        .map((flag) => flag.trim())
        .filter(Boolean)
    : [];

/**
 * The client's beta flags this channel passes on, and those it strips. A channel's config may set
 * `anthropic_beta_pass` (a comma list, or `*` for every flag; replaces the type's default) and
 * `anthropic_beta_strip` (a comma list never passed on, even when `pass` would). Without them Anthropic
 * channels pass every flag and Bedrock and Vertex channels only those they are known to serve
 * (`platformDefaults`).
 */
export function channelBetas(channel: ChannelSettings, betas: string[]): { passed: string[]; stripped: string[] } {
  const config = channel.config as { anthropic_beta_pass?: unknown; anthropic_beta_strip?: unknown };
  const configured = listOf(config.anthropic_beta_pass);
  const pass = configured.length > 0 ? configured : (platformDefaults[channel.type] ?? [everyFlag]);
  const strip = new Set(listOf(config.anthropic_beta_strip));
  const passes = (flag: string) => !strip.has(flag) && (pass.includes(everyFlag) || pass.includes(flag));
  return { passed: betas.filter(passes), stripped: betas.filter((flag) => !passes(flag)) };
}

/** How `x-modelgate-dropped` names a stripped flag. */
export const strippedBetaNames = (stripped: string[]): string[] => stripped.map((flag) => `anthropic-beta(${flag})`);
