import { useMemo } from 'react';
import { renderMarkdown } from '../../lib/markdown';

/** Shows server-supplied Markdown (or HTML) safely. */
export function MarkdownContent({ markdown, className }: { markdown: string; className?: string }) {
  const html = useMemo(() => renderMarkdown(markdown), [markdown]);
  return (
    <div className={['rich-content', className].filter(Boolean).join(' ')} dangerouslySetInnerHTML={{ __html: html }} />
  );
}
