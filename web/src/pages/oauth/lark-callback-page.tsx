import { OAuthCallback } from './oauth-callback';

/** /oauth/lark */
export default function LarkCallbackPage() {
  return <OAuthCallback provider="lark" />;
}
