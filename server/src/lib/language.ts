export type Language = 'zh' | 'en';

/** one-api's rule: any Accept-Language starting with zh gets Chinese; we default to Chinese when none is sent. */
export function languageOf(acceptLanguage: string | undefined): Language {
  if (!acceptLanguage) return 'zh';
  return acceptLanguage.trim().toLowerCase().startsWith('zh') ? 'zh' : 'en';
}
