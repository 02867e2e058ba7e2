import type { AppContext } from '../../context.js';
import type { UserRow } from '../../db/tables.js';
import { randomHex } from '../../lib/random.js';
import { sendPasswordResetMail, sendVerificationMail } from '../mail/account-mails.js';
import { invalidateUser } from './user.cache.js';
import { UserErrors } from './user.errors.js';
import { createAccount } from './user.creation.js';
import { hashPassword } from './user.password.js';
import { findUsersByEmail, isEmailTaken, updateUserColumns } from './user.repository.js';
import { revokeSessions } from './user.sessions.js';
import { codeValidMinutes, consumeCode, saveCode } from './verification-code.store.js';

export interface PasswordSignUp {
  username: string;
  password: string;
  email?: string;
  verificationCode?: string;
  affCode?: string;
}

/**
 * Password sign-up with one-api's checks in its order, except that the email code is checked (and used up)
 * before the address is looked up.
 */
export async function registerWithPassword(context: AppContext, input: PasswordSignUp): Promise<UserRow> {
  const { options, database } = context;
  if (!options.bool('RegisterEnabled')) throw UserErrors.registerDisabled();
  if (!options.bool('PasswordRegisterEnabled')) throw UserErrors.passwordRegisterDisabled();
  const verify = options.bool('EmailVerificationEnabled');
  if (verify) {
    if (!input.email || !input.verificationCode) throw UserErrors.emailVerificationRequired();
    // The code first: "taken" is told only to whoever holds the code mailed to that address, so the route
    // cannot be used to learn which addresses are registered.
    if (!(await consumeCode(context, 'verification', input.email, input.verificationCode)))
      throw UserErrors.codeInvalid();
    if (await isEmailTaken(database.db, input.email)) throw UserErrors.emailTaken();
  }
  return createAccount(context, {
    username: input.username,
    passwordHash: await hashPassword(input.password),
    displayName: input.username,
    // As in one-api, the email is kept only when it was verified.
    email: verify ? input.email : '',
    inviterAffCode: input.affCode || undefined,
  });
}

/** The whitelist check of one-api: the address must end in `@<domain>` for a listed domain. */
function checkEmailDomain(context: AppContext, email: string): void {
  if (!context.options.bool('EmailDomainRestrictionEnabled')) return;
  const domains = context.options
    .string('EmailDomainWhitelist')
    .split(',')
    .map((domain) => domain.trim().toLowerCase())
    .filter(Boolean);
  const lower = email.toLowerCase();
  if (!domains.some((domain) => lower.endsWith(`@${domain}`))) throw UserErrors.emailDomainNotAllowed();
}

/** Mails a 6-character code for sign-up or email binding. */
export async function sendVerificationCode(context: AppContext, email: string): Promise<void> {
  checkEmailDomain(context, email);
  if (await isEmailTaken(context.database.db, email)) throw UserErrors.emailTaken();
  const code = randomHex(3);
  await saveCode(context, 'verification', email, code);
  await sendVerificationMail(context, email, code, codeValidMinutes);
}

/**
 * Mails a reset link when the address is registered. The answer is the same either way (one-api said
 * "该邮箱地址未注册", which told anyone which addresses have accounts), and the mail goes out after the
 * answer, so neither the time taken nor an SMTP failure tells them apart; a failure is logged.
 */
export async function sendPasswordReset(context: AppContext, email: string): Promise<void> {
  if (!context.options.string('SMTPServer')) throw UserErrors.smtpNotConfigured();
  if ((await findUsersByEmail(context.database.db, email)).length === 0) return;
  const token = randomHex(16);
  await saveCode(context, 'reset', email, token);
  void sendPasswordResetMail(context, email, token, codeValidMinutes).catch((error: unknown) =>
    context.logger.error({ err: error }, 'sending a password-reset mail failed'),
  );
}

/** Uses a reset token: every live user with that email gets one new 12-character password, returned. */
export async function resetPassword(context: AppContext, email: string, token: string): Promise<string> {
  if (!(await consumeCode(context, 'reset', email, token))) throw UserErrors.resetLinkInvalid();
  const password = randomHex(6);
  const passwordHash = await hashPassword(password);
  for (const user of await findUsersByEmail(context.database.db, email)) {
    await updateUserColumns(context.database.db, user.id, { password: passwordHash });
    // Whoever knew the old password may hold a session: a reset ends them all.
    await revokeSessions(context, user);
  }
  return password;
}

/** Binds a verified email to the signed-in user. Unlike one-api it re-checks that no one else took it. */
export async function bindEmail(context: AppContext, user: UserRow, email: string, code: string): Promise<void> {
  if (!(await consumeCode(context, 'verification', email, code))) throw UserErrors.codeInvalid();
  if (await isEmailTaken(context.database.db, email, user.id)) throw UserErrors.emailTaken();
  await updateUserColumns(context.database.db, user.id, { email });
  await invalidateUser(context, user);
}
