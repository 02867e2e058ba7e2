import bcrypt from 'bcryptjs';
import type { UserRow } from '../../db/tables.js';
import { UserErrors } from './user.errors.js';

/** one-api's cost: its existing $2a$10$ hashes keep verifying and new ones stay interchangeable. */
const bcryptCost = 10;

/** Hashes a password with bcrypt (cost 10). */
export const hashPassword = (password: string): Promise<string> => bcrypt.hash(password, bcryptCost);

/**
 * A user changing their own password confirms the current one, so a borrowed or stolen session cannot take
 * the account over. Accounts made by third-party sign-in have no password yet, so there is nothing to confirm.
 */
export async function assertCurrentPassword(
  user: Pick<UserRow, 'password'>,
  originalPassword: string | undefined,
): Promise<void> {
  if (!user.password) return;
  if (!originalPassword) throw UserErrors.originalPasswordRequired();
  if (!(await bcrypt.compare(originalPassword, user.password))) throw UserErrors.originalPasswordWrong();
}
