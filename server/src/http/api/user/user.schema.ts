import { z } from 'zod';
import { Role, UserStatus } from '../../../domain/user/user.constants.js';
import {
  displayNameField,
  idField,
  optionalPasswordField,
  pageField,
  passwordField,
  quotaField,
  usernameField,
} from './user.fields.js';

export const userListQuery = z.object({
  p: pageField,
  order: z.string().max(32).optional(),
});

/** The keyword is data: bound as a parameter, wildcards escaped, length capped. */
export const userSearchQuery = z.object({
  keyword: z.string().trim().max(50, 'keyword is at most 50 characters').default(''),
});

export const userIdParams = z.object({ id: idField });

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
export const updateUserBody = z.object({
  id: idField,
  username: usernameField.optional(),
  display_name: displayNameField.optional(),
  password: optionalPasswordField,
  original_password: originalPasswordField,
  group: groupField.optional(),
  quota: quotaField.optional(),
  role: z.union([z.literal(Role.Common), z.literal(Role.Admin), z.literal(Role.Root)]).optional(),
  status: z.union([z.literal(UserStatus.Enabled), z.literal(UserStatus.Disabled)]).optional(),
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

export const topUpBody = z.object({
  user_id: idField,
  quota: z.number().int().positive('quota must be greater than 0').max(Number.MAX_SAFE_INTEGER),
  remark: z.string().max(255, 'remark is at most 255 characters').optional().default(''),
});
