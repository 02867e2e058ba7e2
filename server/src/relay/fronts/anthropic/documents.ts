import type { ClaudeContentBlock, ClaudeDocumentBlock, ClaudeMessage } from '../../adaptors/anthropic/types.js';

/**
 * A document's text, when it has one that OpenAI's shapes can carry: a plain-text source, or a content source
 * made of text only (its title first). Undefined for PDFs (inline or by URL), Files API ids and content with
 * images: only Claude reads those.
 */
export function documentText(block: ClaudeDocumentBlock): string | undefined {
  const source = block.source as Partial<ClaudeDocumentBlock['source']> | undefined;
  let text: string | undefined;
  if (source?.type === 'text' && typeof source.data === 'string') text = source.data;
  else if (source?.type === 'content' && typeof source.content === 'string') text = source.content;
  else if (
    source?.type === 'content' &&
    Array.isArray(source.content) &&
    source.content.every((block) => block.type === 'text' && typeof block.text === 'string')
  )
    text = source.content.map((block) => (block as { text: string }).text).join('\n');
  if (text === undefined) return undefined;
  return block.title ? `${block.title}\n\n${text}` : text;
}

const claudeOnly = (block: ClaudeContentBlock | { type: string }): boolean =>
  block.type === 'document' && documentText(block as ClaudeDocumentBlock) === undefined;

/**
 * Whether a Messages request holds a document only a Claude channel can read (see `documentText`), in a turn
 * or inside a tool result. Such a request is relayed to Claude channels only (`claude-channels.ts`).
 */
export function needsClaudeChannel(messages: ClaudeMessage[] | undefined): boolean {
  for (const message of messages ?? []) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content) {
      if (claudeOnly(block)) return true;
      if (block.type === 'tool_result' && Array.isArray(block.content) && block.content.some(claudeOnly)) return true;
    }
  }
  return false;
}
