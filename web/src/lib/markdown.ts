import { marked } from 'marked';
import { sanitizeHtml } from './sanitize';

/** Renders Markdown (which may contain HTML) to sanitised HTML. */
export function renderMarkdown(markdown: string): string {
  const html = marked.parse(markdown, { async: false, gfm: true, breaks: false });
  return sanitizeHtml(html);
}
