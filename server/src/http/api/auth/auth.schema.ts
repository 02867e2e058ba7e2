import { z } from 'zod';
import { emailField, passwordField, usernameField } from '../user/user.fields.js';

export const loginBody = z.object({
  username: z.string().trim().min(1).max(64),
  password: z.string().min(1).max(128),
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
