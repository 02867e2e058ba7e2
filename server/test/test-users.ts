import { randomBytes } from 'node:crypto';
import { insertUser } from '../src/domain/user/user.repository.js';
import { dashlessUuid } from '../src/lib/random.js';
import type { ApiClient } from './api-client.js';
import type { TestServer } from './test-server.js';

/** A user made directly in the database, with a client that authenticates by its system access token. */
export interface TestUser {
  id: number;
  username: string;
  accessToken: string;
  client: ApiClient;
}

/** Test helper (not a test): inserts a user of the given role and quota. */
export async function createTestUser(
  server: TestServer,
  options: { role?: number; quota?: number; username?: string } = {},
): Promise<TestUser> {
  const username = options.username ?? `u${randomBytes(4).toString('hex')}`;
  const accessToken = dashlessUuid();
  const id = await insertUser(server.context.database.db, {
    username,
    password: '',
    display_name: username,
    role: options.role ?? 1,
    status: 1,
    access_token: accessToken,
    quota: options.quota ?? 0,
    aff_code: randomBytes(8).toString('hex'),
  });
  return { id, username, accessToken, client: server.client(accessToken) };
}
