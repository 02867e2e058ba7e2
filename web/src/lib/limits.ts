/** Numbers fixed by the console spec (section 9) that several screens share. */

/** Minimum password length. */
export const MIN_PASSWORD_LENGTH = 8;
/** Seconds before another email code can be requested, and before another reset mail. */
export const RESEND_SECONDS = 30;
/** Root's password on a fresh install; signing in with it leads to the profile form with a warning. */
export const DEFAULT_ROOT_PASSWORD = '123456';
