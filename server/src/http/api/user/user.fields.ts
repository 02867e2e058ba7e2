import { z } from 'zod';
import { idField, plainName } from '../strict-fields.js';

/** one-api's validator limits, shared by sign-up, self-service and administration. */
export const usernameField = plainName(
  z.string().trim().min(1, 'username is required').max(12, 'username is at most 12 characters'),
);
export const passwordField = z
  .string()
  .min(8, 'password needs 8 to 20 characters')
  .max(20, 'password needs 8 to 20 characters');
/** An empty password means "keep the current one" on updates. */
export const optionalPasswordField = z.union([z.literal(''), passwordField]).optional();
export const displayNameField = plainName(z.string().trim().max(20, 'display name is at most 20 characters'));

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const emailField = z
  .string()
  .trim()
  .min(1, 'email is required')
  .max(50, 'email is at most 50 characters')
  .regex(emailPattern, 'not a valid email address');

/** A row id from a path or a body (see strict-fields.ts). */
export { idField };

/** Quota amounts: whole, non-negative, exact in a double. */
export const quotaField = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** `p`: 0-based page; negative or unreadable becomes 0, as in one-api. */
export const pageField = z.preprocess((value) => {
  const page = Number.parseInt(String(value ?? '0'), 10);
  return Number.isFinite(page) && page > 0 ? Math.min(page, 1_000_000) : 0;
}, z.number().int());
