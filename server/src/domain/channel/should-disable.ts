/** Lower-cased message fragments one-api treats as "this key is dead" (monitor/manage.go). */
const fatalFragments = [
  'your access was terminated',
  'violation of our policies',
  'your credit balance is too low',
  'organization has been disabled',
  'credit',
  'balance',
  'permission denied',
  'organization has been restricted',
  'api key not valid',
  'api key expired',
  '已欠费',
];

const fatalTypes = new Set(['insufficient_quota', 'authentication_error', 'permission_error', 'forbidden']);
const fatalCodes = new Set(['invalid_api_key', 'account_deactivated']);

/**
 * one-api's rule for disabling a channel after a failed call (server-behaviour §6.3): HTTP 401, a fatal
 * error type or code, or a message that says the key or account is unusable. Rate limits (429) and server
 * errors (5xx) are passing troubles, never a reason to disable.
 */
export function shouldDisableChannel(error: {
  status: number;
  type?: string;
  code?: string;
  message: string;
}): boolean {
  if (error.status === 429 || error.status >= 500) return false;
  if (error.status === 401) return true;
  if (error.type && fatalTypes.has(error.type)) return true;
  if (error.code && fatalCodes.has(error.code)) return true;
  const message = error.message.toLowerCase();
  return fatalFragments.some((fragment) => message.includes(fragment));
}
