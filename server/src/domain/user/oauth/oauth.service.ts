import type { AppContext } from '../../../context.js';
import type { UserRow } from '../../../db/tables.js';
import { AppError } from '../../../lib/errors.js';
import { invalidateUser } from '../user.cache.js';
import { UserStatus } from '../user.constants.js';
import { createAccount } from '../user.creation.js';
import { UserErrors } from '../user.errors.js';
import { findUserByProviderId, isEmailTaken, isUsernameTaken, updateUserColumns } from '../user.repository.js';
import type { OAuthProvider, ProviderIdentity } from './oauth-provider.js';

/** Refuses when the administrator has not turned the provider on. */
export function requireProviderEnabled(context: AppContext, provider: OAuthProvider): void {
  if (!provider.isEnabled(context)) throw new AppError('oauth_disabled', provider.messages.disabled);
}

/**
 * Signs in the user bound to this identity, or (when registration is open) creates one: role 1, no
 * password, a generated unique username, the provider's email when nobody uses it yet.
 */
export async function signInWithProvider(
  context: AppContext,
  provider: OAuthProvider,
  identity: ProviderIdentity,
): Promise<UserRow> {
  const existing = await findUserByProviderId(context.database.db, provider.column, identity.id);
  if (existing) {
    if (existing.status !== UserStatus.Enabled) throw UserErrors.banned();
    return existing;
  }
  if (!context.options.bool('RegisterEnabled')) throw UserErrors.registerDisabled();
  const email = identity.email && !(await isEmailTaken(context.database.db, identity.email)) ? identity.email : '';
  const preferred = identity.preferredUsername;
  const usePreferred =
    preferred !== undefined &&
    preferred !== '' &&
    preferred.length <= 191 &&
    !(await isUsernameTaken(context.database.db, preferred));
  return createAccount(context, {
    ...(usePreferred ? { username: preferred } : { usernamePrefix: provider.usernamePrefix }),
    passwordHash: '',
    displayName: (identity.displayName || provider.defaultDisplayName).slice(0, 191),
    email,
    provider: { column: provider.column, id: identity.id },
  });
}

/** Binds the identity to the signed-in user, unless another live user already has it. */
export async function bindProvider(
  context: AppContext,
  user: UserRow,
  provider: OAuthProvider,
  identity: ProviderIdentity,
): Promise<void> {
  const holder = await findUserByProviderId(context.database.db, provider.column, identity.id);
  if (holder && holder.id !== user.id) throw new AppError('oauth_already_bound', provider.messages.alreadyBound);
  await updateUserColumns(context.database.db, user.id, { [provider.column]: identity.id });
  await invalidateUser(context, user);
}
