/** Anthropic Messages API wire types. https://docs.anthropic.com/en/api/messages */

/** A prompt-caching breakpoint: the prefix up to this block is cached (`ttl` "5m" by default, or "1h"). */
export interface ClaudeCacheControl {
  type: 'ephemeral';
  ttl?: string;
}

export type ClaudeImageSource = { type: 'base64'; media_type: string; data: string } | { type: 'url'; url: string };

export interface ClaudeTextBlock {
  type: 'text';
  text: string;
  cache_control?: ClaudeCacheControl;
}

export interface ClaudeImageBlock {
  type: 'image';
  source: ClaudeImageSource;
  cache_control?: ClaudeCacheControl;
}

export interface ClaudeToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: Record<string, unknown>;
  cache_control?: ClaudeCacheControl;
}

export interface ClaudeToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: string | (ClaudeTextBlock | ClaudeImageBlock)[];
  is_error?: boolean;
  cache_control?: ClaudeCacheControl;
}

/**
 * Where a document's content comes from: a PDF inline or by URL, plain text, content blocks, or a file
 * uploaded to the Files API. https://docs.anthropic.com/en/docs/build-with-claude/pdf-support
 */
export type ClaudeDocumentSource =
  | { type: 'base64'; media_type: string; data: string }
  | { type: 'url'; url: string }
  | { type: 'text'; media_type: string; data: string }
  | { type: 'content'; content: string | (ClaudeTextBlock | ClaudeImageBlock)[] }
  | { type: 'file'; file_id: string };

/** A document in a user turn (PDF, text), optionally citable. */
export interface ClaudeDocumentBlock {
  type: 'document';
  source: ClaudeDocumentSource;
  title?: string;
  context?: string;
  citations?: { enabled: boolean };
  cache_control?: ClaudeCacheControl;
}

/** Extended thinking; `signature` lets Claude check the block when it is sent back in a later turn. */
export interface ClaudeThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature?: string;
}

/** Thinking the safety systems encrypted: sent back as it came, never shown. */
export interface ClaudeRedactedThinkingBlock {
  type: 'redacted_thinking';
  data: string;
}

export type ClaudeContentBlock =
  | ClaudeTextBlock
  | ClaudeImageBlock
  | ClaudeDocumentBlock
  | ClaudeToolUseBlock
  | ClaudeToolResultBlock
  | ClaudeThinkingBlock
  | ClaudeRedactedThinkingBlock;

/**
 * A turn. `system` turns sit anywhere in the conversation (Claude Code's mid-conversation system prompts);
 * a turn may carry more fields (Claude Code's per-turn `output_config`), passed on as sent.
 */
export interface ClaudeMessage {
  role: 'user' | 'assistant' | 'system';
  content: string | ClaudeContentBlock[];
  [field: string]: unknown;
}

export interface ClaudeTool {
  name: string;
  description?: string;
  input_schema: Record<string, unknown>;
  cache_control?: ClaudeCacheControl;
}

/**
 * A tool Anthropic runs on its side (web search, web fetch, code execution …): a versioned `type` such as
 * `web_search_20250305`, its own settings, and no input_schema. Its calls and results come back as blocks of
 * their own (`server_tool_use`, `web_search_tool_result`).
 */
export interface ClaudeServerTool {
  type: string;
  name: string;
  [setting: string]: unknown;
}

export type ClaudeToolChoice =
  | { type: 'auto' | 'any' | 'none'; disable_parallel_tool_use?: boolean }
  | { type: 'tool'; name: string; disable_parallel_tool_use?: boolean };

export interface ClaudeRequest {
  model?: string;
  /** Bedrock (`bedrock-2023-05-31`) and Vertex (`vertex-2023-10-16`) put the version in the body. */
  anthropic_version?: string;
  max_tokens: number;
  system?: string | ClaudeTextBlock[];
  messages: ClaudeMessage[];
  tools?: (ClaudeTool | ClaudeServerTool)[];
  tool_choice?: ClaudeToolChoice;
  temperature?: number;
  top_p?: number;
  top_k?: number;
  stop_sequences?: string[];
  stream?: boolean;
  metadata?: { user_id?: string };
  /** `adaptive` lets the model choose how much to think (Claude Code's default on newer models). */
  thinking?: { type: 'enabled'; budget_tokens: number } | { type: 'disabled' } | { type: 'adaptive'; display?: string };
}

export interface ClaudeUsage {
  input_tokens?: number;
  output_tokens?: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
  /** The cache writes by TTL (their sum is `cache_creation_input_tokens`). */
  cache_creation?: { ephemeral_5m_input_tokens?: number; ephemeral_1h_input_tokens?: number };
  /** What the server tools did; web searches are charged per search. */
  server_tool_use?: { web_search_requests?: number };
}

export interface ClaudeResponse {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: ClaudeContentBlock[];
  stop_reason: string | null;
  stop_sequence: string | null;
  usage: ClaudeUsage;
}

/** The events of a Messages stream (the `data:` JSON; its `type` equals the SSE event name). */
export type ClaudeStreamEvent =
  | { type: 'message_start'; message: ClaudeResponse }
  | { type: 'content_block_start'; index: number; content_block: ClaudeContentBlock }
  | {
      type: 'content_block_delta';
      index: number;
      delta:
        | { type: 'text_delta'; text: string }
        | { type: 'input_json_delta'; partial_json: string }
        | { type: 'thinking_delta'; thinking: string }
        | { type: 'signature_delta'; signature: string };
    }
  | { type: 'content_block_stop'; index: number }
  | { type: 'message_delta'; delta: { stop_reason: string | null; stop_sequence: string | null }; usage?: ClaudeUsage }
  | { type: 'message_stop'; 'amazon-bedrock-invocationMetrics'?: { inputTokenCount: number; outputTokenCount: number } }
  | { type: 'ping' }
  | { type: 'error'; error: { type: string; message: string } };
