import { OAuthCallback } from './oauth-callback';

/** /oauth/github */
export default function GithubCallbackPage() {
  return <OAuthCallback provider="github" />;
}
