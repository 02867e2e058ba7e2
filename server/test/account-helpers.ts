import { expect } from 'vitest';
import type { ApiClient } from './api-client.js';
import type { TestServer } from './test-server.js';

/** Saves options through PUT /api/option/ as root, failing the test when one is refused. */
export async function setOptions(root: ApiClient, options: Record<string, string | number | boolean>): Promise<void> {
  for (const [key, value] of Object.entries(options)) {
    const response = await root.put('/api/option/', { key, value: String(value) });
    expect(response.body, `option ${key}`).toMatchObject({ success: true });
  }
}

/** Registers a user with a password and returns a client signed in as that user, and the user's id. */
export async function signUp(
  server: TestServer,
  username: string,
  password = 'password123',
): Promise<{ client: ApiClient; id: number }> {
  const client = server.client();
  const registered = await client.post('/api/user/register', { username, password });
  expect(registered.body, `register ${username}`).toMatchObject({ success: true });
  const login = await client.login(username, password);
  return { client, id: login.data.id as number };
}

/** A fresh username of at most 12 characters. */
let sequence = 0;
export const uniqueName = (prefix = 'u') =>
  `${prefix}${Date.now().toString(36).slice(-5)}${(sequence++).toString(36)}`.slice(0, 12);
