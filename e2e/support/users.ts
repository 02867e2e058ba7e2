import type { Stack } from './stack.ts';

let sequence = 0;

/** A fresh username of at most 12 characters. */
export const uniqueName = (prefix = 'u'): string =>
  `${prefix}${Date.now().toString(36).slice(-5)}${(sequence++).toString(36)}`.slice(0, 12);

/** Registers an ordinary user through the API. */
export async function createUser(
  stack: Stack,
  password = 'password123',
): Promise<{ username: string; password: string }> {
  const username = uniqueName();
  const response = await stack.client().post('/api/user/register', { username, password });
  if (!response.body.success) throw new Error(`register ${username}: ${response.body.message}`);
  return { username, password };
}
