import { z } from 'zod';
import { emailField } from '../user/user.fields.js';

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
