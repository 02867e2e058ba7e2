import { z } from 'zod';
import { idField, plainName } from './fields.js';
import { limitAnswer, optionalLimitFields } from './limits.js';

/** User roles, as one-api numbers them. */
export const Role = { Guest: 0, Common: 1, Admin: 10, Root: 100 } as const;

/** User statuses, as one-api numbers them. */
export const UserStatus = { Enabled: 1, Disabled: 2, Deleted: 3 } as const;

// one-api's validator limits, shared by sign-up, self-service and administration.
export const usernameField = plainName(
  z.string().trim().min(1, 'username is required').max(12, 'username is at most 12 characters'),
);
export const passwordField = z
  .string()
  .min(8, 'password needs 8 to 20 characters')
  .max(20, 'password needs 8 to 20 characters');
/** An empty password means "keep the current one" on updates. */
const optionalPasswordField = z.union([z.literal(''), passwordField]).optional();
const displayNameField = plainName(z.string().trim().max(20, 'display name is at most 20 characters'));

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const emailField = z
  .string()
  .trim()
  .min(1, 'email is required')
  .max(50, 'email is at most 50 characters')
  .regex(emailPattern, 'not a valid email address');

/** Quota amounts, whole and exact in a double; below zero for a user in debt, as an edit page loaded it. */
const balanceField = z.number().int().min(-Number.MAX_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);

/** `p`: 0-based page; negative or unreadable becomes 0, as in one-api. */
const pageField = z.preprocess((value) => {
  const page = Number.parseInt(String(value ?? '0'), 10);
  return Number.isFinite(page) && page > 0 ? Math.min(page, 1_000_000) : 0;
}, z.number().int());

export const userListQuery = z.object({
  p: pageField,
  order: z.string().max(32).optional(),
});

/** The keyword is data: bound as a parameter, wildcards escaped, length capped. */
export const userSearchQuery = z.object({
  keyword: z.string().trim().max(50, 'keyword is at most 50 characters').default(''),
});

export const createUserBody = z.object({
  username: usernameField,
  password: passwordField,
  display_name: displayNameField.optional(),
  role: z.number().int().min(0).max(Role.Root).optional(),
});

const groupField = z
  .string()
  .trim()
  .max(32, 'group is at most 32 characters')
  .regex(/^[^\s,]*$/, 'group has no spaces or commas');

/** The current password, needed to set a new one for oneself; null (an untouched form field) is absent. */
const originalPasswordField = z
  .string()
  .max(128, 'original_password is too long')
  .nullish()
  .transform((value) => value ?? undefined);

/** PUT /api/user/: the console sends the whole user; only these fields are read. */
export const updateUserBody = z
  .object({
    id: idField,
    username: usernameField.optional(),
    display_name: displayNameField.optional(),
    password: optionalPasswordField,
    original_password: originalPasswordField,
    group: groupField.optional(),
    quota: balanceField.optional(),
    /**
     * The quota the edit page loaded: the server then adds `quota − original_quota` to the balance as it is
     * now, keeping the charges made since. Without it the quota is overwritten (one-api's console).
     */
    original_quota: balanceField.optional(),
    role: z.union([z.literal(Role.Common), z.literal(Role.Admin), z.literal(Role.Root)]).optional(),
    status: z.union([z.literal(UserStatus.Enabled), z.literal(UserStatus.Disabled)]).optional(),
    ...optionalLimitFields,
  })
  .refine((body) => body.original_quota !== undefined || body.quota === undefined || body.quota >= 0, {
    message: 'quota must be at least 0 (a negative quota is kept only as loaded, with original_quota)',
    path: ['quota'],
  });

export const updateSelfBody = z.object({
  username: z.union([z.literal(''), usernameField]).optional(),
  password: optionalPasswordField,
  original_password: originalPasswordField,
  display_name: displayNameField.optional(),
});

export const manageUserBody = z.object({
  username: z.string().trim().min(1).max(191),
  action: z.enum(['disable', 'enable', 'delete', 'promote', 'demote'], {
    message: 'action must be one of disable, enable, delete, promote, demote',
  }),
});

/** POST /api/topup (admins): adds quota to a user. */
export const adminTopUpBody = z.object({
  user_id: idField,
  quota: z.number().int().positive('quota must be greater than 0').max(Number.MAX_SAFE_INTEGER),
  remark: z.string().max(255, 'remark is at most 255 characters').optional().default(''),
});

/** The user object of the management API: every key present; password and verification code always blank. */
export const user = z.object({
  id: z.number(),
  username: z.string(),
  password: z.string(),
  display_name: z.string(),
  role: z.number(),
  status: z.number(),
  email: z.string(),
  github_id: z.string(),
  wechat_id: z.string(),
  lark_id: z.string(),
  oidc_id: z.string(),
  verification_code: z.string(),
  /** Filled only where the owner asks for it; blank elsewhere. */
  access_token: z.string(),
  quota: z.number(),
  used_quota: z.number(),
  request_count: z.number(),
  group: z.string(),
  aff_code: z.string(),
  inviter_id: z.number(),
  ...limitAnswer,
});
export type User = z.infer<typeof user>;

/** One row of GET /api/user/dashboard, with one-api's capitalised (Go field) keys, which its console reads. */
export const dashboardRow = z.object({
  Day: z.string(),
  ModelName: z.string(),
  RequestCount: z.number(),
  Quota: z.number(),
  PromptTokens: z.number(),
  CompletionTokens: z.number(),
});
