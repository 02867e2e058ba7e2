/** Local storage keys fixed by the console spec (section 3), plus the remembered interface language. */
export const StorageKey = {
  user: 'user',
  status: 'status',
  systemName: 'system_name',
  logo: 'logo',
  footerHtml: 'footer_html',
  quotaPerUnit: 'quota_per_unit',
  displayInCurrency: 'display_in_currency',
  chatLink: 'chat_link',
  chatUrl: 'chat_url',
  tokenList: 'token_list',
  aff: 'aff',
  channelModels: 'channel_models',
  showDetail: 'show_detail',
  language: 'language',
} as const;

/** Reads a JSON value from local storage; a missing or broken value gives the fallback. */
export function readJson<T>(key: string, fallback: T): T {
  const raw = localStorage.getItem(key);
  if (raw === null) return fallback;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return fallback;
  }
}

export function writeJson(key: string, value: unknown): void {
  localStorage.setItem(key, JSON.stringify(value));
}
