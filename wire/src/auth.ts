import { z } from 'zod';
import { emailField, passwordField, usernameField } from './user.js';

export const loginBody = z.object({
  username: z.string().trim().min(1).max(64),
  password: z.string().min(1).max(128),
  /** A TOTP or backup code, for a user with a second factor (decision 0030). */
  totp_code: z.string().trim().max(64).optional(),
});

export const registerBody = z.object({
  username: usernameField,
  password: passwordField,
  email: z.union([z.literal(''), emailField]).optional(),
  verification_code: z.string().trim().max(64).optional(),
  // one-api's console sends null when the visitor did not come through an invitation link.
  aff_code: z
    .string()
    .trim()
    .max(32)
    .nullish()
    .transform((value) => value ?? ''),
});

export const emailQuery = z.object({ email: emailField });

export const resetPasswordBody = z.object({
  email: emailField,
  token: z.string().trim().min(1, 'token is required').max(64),
});

const codeField = z.string().trim().min(1, 'code is required').max(512);

/** Callback of every third-party provider, WeChat included: the code and the session's one-time state. */
export const oauthCallbackQuery = z.object({
  code: codeField,
  state: z.string().max(64).optional(),
});

export const emailBindQuery = z.object({
  email: emailField,
  code: z.string().trim().min(1, 'code is required').max(64),
});
