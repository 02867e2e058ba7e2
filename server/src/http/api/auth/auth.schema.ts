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
  aff_code: z.string().trim().max(32).optional(),
});

export const emailQuery = z.object({ email: emailField });

export const resetPasswordBody = z.object({
  email: emailField,
  token: z.string().trim().min(1, 'token is required').max(64),
});
