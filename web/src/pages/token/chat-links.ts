/** Chat apps a token can be opened in, in the formats one-api's console used. */
export const CHAT_APPS = ['next', 'ama', 'opencat', 'lobe'] as const;
export type ChatApp = (typeof CHAT_APPS)[number];

const NEXT_CHAT_DEFAULT = 'https://app.nextchat.dev';
const LOBE_CHAT_DEFAULT = 'https://chat-preview.lobehub.com';

/** The key as clients send it, with the sk- prefix. */
export const fullKey = (key: string): string => (key.startsWith('sk-') ? key : `sk-${key}`);

/**
 * Builds the link that opens a chat app with this token and this site as its server.
 * ChatGPT Next Web reads a settings JSON from the hash (on the configured chat link, else its public site);
 * AMA and OpenCat take custom-scheme links; LobeChat reads its key vault settings from the query.
 */
export function buildChatAppLink(app: ChatApp, key: string, serverAddress: string, chatLink?: string | null): string {
  const apiKey = fullKey(key);
  const server = encodeURIComponent(serverAddress);
  switch (app) {
    case 'ama':
      return `ama://set-api-key?server=${server}&key=${apiKey}`;
    case 'opencat':
      return `opencat://team/join?domain=${server}&token=${apiKey}`;
    case 'lobe': {
      const settings = JSON.stringify({ keyVaults: { openai: { apiKey, baseURL: `${serverAddress}/v1` } } });
      return `${LOBE_CHAT_DEFAULT}/?settings=${encodeURIComponent(settings)}`;
    }
    case 'next': {
      const settings = JSON.stringify({ key: apiKey, url: serverAddress });
      return `${chatLink || NEXT_CHAT_DEFAULT}/#/?settings=${encodeURIComponent(settings)}`;
    }
  }
}
