export interface StoredToken {
  name: string;
  key: string;
}

/**
 * Builds the chat URL for the Chat entry: the chat link with the user's default token key and the site
 * address passed as settings, as chat front-ends of the NextChat family read them.
 */
export function buildChatUrl(chatLink: string, tokens: readonly StoredToken[], siteAddress: string): string {
  const defaultToken = tokens.find((token) => token.name === 'default');
  if (!defaultToken) return chatLink;
  const key = defaultToken.key.startsWith('sk-') ? defaultToken.key : `sk-${defaultToken.key}`;
  const settings = JSON.stringify({ key, url: siteAddress });
  return `${chatLink}/#/?settings=${encodeURIComponent(settings)}`;
}
