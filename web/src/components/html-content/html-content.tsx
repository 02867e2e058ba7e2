import { useMemo } from 'react';
import { sanitizeHtml } from '../../lib/sanitize';

export interface HtmlContentProps {
  /** HTML supplied by the server; always sanitised before it is shown. */
  html: string;
  className?: string;
}

/** Shows server-supplied HTML safely. */
export function HtmlContent({ html, className }: HtmlContentProps) {
  const safe = useMemo(() => sanitizeHtml(html), [html]);
  return (
    <div className={['rich-content', className].filter(Boolean).join(' ')} dangerouslySetInnerHTML={{ __html: safe }} />
  );
}
