import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown';
import { isFrameAddress, sanitizeHtml } from './sanitize';

describe('sanitize', () => {
  it('drops scripts and event handlers', () => {
    const html = sanitizeHtml('<a href="/x" onclick="alert(1)">x</a><script>alert(2)</script>');
    expect(html).toBe('<a href="/x">x</a>');
  });

  it('renders Markdown and keeps embedded HTML', () => {
    expect(renderMarkdown('# Title')).toContain('<h1>Title</h1>');
    expect(renderMarkdown('<b>bold</b><img src=x onerror="alert(1)">').trim()).toBe('<p><b>bold</b><img src="x"></p>');
  });

  it('recognises a frame address', () => {
    expect(isFrameAddress('https://example.com')).toBe(true);
    expect(isFrameAddress('http://example.com')).toBe(false);
    expect(isFrameAddress('# https://example.com')).toBe(false);
  });
});
