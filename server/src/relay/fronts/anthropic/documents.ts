import type { ClaudeContentBlock, ClaudeDocumentBlock, ClaudeMessage } from '../../adaptors/anthropic/types.js';

/**
 * A document's text, when it has one that OpenAI's shapes can carry: a plain-text source, or a content source
 * made of text only (its title first). Undefined for PDFs (inline or by URL), Files API ids and content with
 * images (see `documentReaders` for who reads those).
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

/** An inline PDF's base64 data: OpenAI's chat API reads those too, as `file` parts. */
export function inlinePdf(block: ClaudeDocumentBlock): string | undefined {
  const source = block.source as Partial<ClaudeDocumentBlock['source']> | undefined;
  return source?.type === 'base64' && source.media_type === 'application/pdf' && typeof source.data === 'string'
    ? source.data
    : undefined;
}

/**
 * Which channels can read a request's documents: any (none, or text only), those reading inline PDFs
 * (Claude's, and OpenAI's `file` parts), or Claude's only (PDFs by URL, Files API ids, content with images,
 * and any document inside a tool result: OpenAI's tool messages carry text only).
 */
export type DocumentReaders = 'any' | 'pdf' | 'claude';

const isDocumentWithoutText = (block: ClaudeContentBlock | { type: string }): boolean =>
  block.type === 'document' && documentText(block as ClaudeDocumentBlock) === undefined;

/** Who can read the documents of a Messages request (see `DocumentReaders`); the front limits routing to them. */
export function documentReaders(messages: ClaudeMessage[] | undefined): DocumentReaders {
  let readers: DocumentReaders = 'any';
  for (const message of messages ?? []) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content) {
      if (block.type === 'tool_result' && Array.isArray(block.content) && block.content.some(isDocumentWithoutText))
        return 'claude';
      if (!isDocumentWithoutText(block)) continue;
      if (inlinePdf(block as ClaudeDocumentBlock) === undefined) return 'claude';
      readers = 'pdf';
    }
  }
  return readers;
}
