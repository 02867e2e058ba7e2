import DOMPurify from 'dompurify';

/** Removes scripts and event handlers from server-supplied HTML. */
export function sanitizeHtml(html: string): string {
  return DOMPurify.sanitize(html, { ADD_ATTR: ['target'] });
}

/** Home page content that is a bare https:// address is shown as a full-page frame. */
export const isFrameAddress = (content: string): boolean => content.trim().startsWith('https://');
