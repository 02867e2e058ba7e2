import type { AppContext } from '../../../context.js';
import { AppError, type Message } from '../../../lib/errors.js';
import type { ProviderColumn } from '../user.repository.js';

/** Who the provider says the user is. */
export interface ProviderIdentity {
  /** The stable id stored in the user's provider column (GitHub login, Lark open_id, OIDC sub, WeChat id). */
  id: string;
  displayName?: string;
  email?: string;
  /** A username the provider suggests (OIDC preferred_username). */
  preferredUsername?: string;
}

/** A third-party sign-in: how to ask it who the user is, and how its users are stored and named. */
export interface OAuthProvider {
  readonly name: string;
  readonly column: ProviderColumn;
  /** New users are called `<usernamePrefix><id>`. */
  readonly usernamePrefix: string;
  readonly defaultDisplayName: string;
  readonly messages: { disabled: Message; unreachable: Message; alreadyBound: Message };
  isEnabled(context: AppContext): boolean;
  identify(context: AppContext, code: string): Promise<ProviderIdentity>;
}

export const invalidProviderAnswer = () =>
  new AppError('oauth_invalid_answer', {
    zh: '返回值非法，用户字段为空，请稍后重试！',
    en: 'The provider answered without a user, please try again later',
  });

/**
 * Calls a provider endpoint with the configured timeout and reads JSON. Network failures and non-JSON
 * answers become the provider's "cannot reach" message; HTTP errors with a JSON body are returned for the
 * caller to judge (providers put their error in the body).
 */
export async function callProvider<T>(
  context: AppContext,
  provider: OAuthProvider,
  url: string,
  init: RequestInit,
): Promise<T> {
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(context.config.OAUTH_TIMEOUT_MS) });
    return (await response.json()) as T;
  } catch (error) {
    context.logger.warn({ provider: provider.name, error: (error as Error).message }, 'oauth provider call failed');
    throw new AppError('oauth_unreachable', provider.messages.unreachable);
  }
}

/** Trims a provider string; non-strings become ''. */
export const text = (value: unknown) =>
  typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
