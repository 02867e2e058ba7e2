import { useCallback } from 'react';
import { fetchOAuthState } from '../api/oauth';
import { githubAuthorizeUrl, larkAuthorizeUrl } from '../lib/oauth-links';
import { useStatus } from '../stores/status.store';

/** Opens the GitHub or Lark authorize page with a fresh state; used to sign in and to bind. */
export function useThirdPartySignIn(): { github: () => Promise<void>; lark: () => Promise<void> } {
  const status = useStatus();
  // A failed state fetch was shown by the API client; without a state there is nothing to open.
  const github = useCallback(async () => {
    if (!status.github_client_id) return;
    const state = await fetchOAuthState().catch(() => null);
    if (state) window.location.assign(githubAuthorizeUrl(status.github_client_id, state));
  }, [status.github_client_id]);
  const lark = useCallback(async () => {
    if (!status.lark_client_id) return;
    const state = await fetchOAuthState().catch(() => null);
    if (state) window.location.assign(larkAuthorizeUrl(status.lark_client_id, state, window.location.origin));
  }, [status.lark_client_id]);
  return { github, lark };
}
