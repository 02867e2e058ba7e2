import { fetchTokenPage } from '../../api/token';
import { buildChatUrl, type StoredToken } from '../../lib/chat-url';
import { readJson, StorageKey, writeJson } from '../../lib/storage-keys';

/** Stored tokens, loaded from the first page of the user's tokens when none are stored yet. */
async function loadTokens(): Promise<StoredToken[]> {
  const stored = readJson<StoredToken[]>(StorageKey.tokenList, []);
  if (Array.isArray(stored) && stored.some((token) => token.name === 'default')) return stored;
  try {
    const page = await fetchTokenPage(0);
    const tokens = (page ?? []).map(({ name, key }) => ({ name, key }));
    writeJson(StorageKey.tokenList, tokens);
    return tokens;
  } catch {
    return Array.isArray(stored) ? stored : [];
  }
}

/** Prepares chat_url for the Chat entry: the chat link with the default token's key and the site address. */
export async function prepareChatUrl(chatLink: string): Promise<string> {
  const url = buildChatUrl(chatLink, await loadTokens(), window.location.origin);
  localStorage.setItem(StorageKey.chatUrl, url);
  return url;
}
