import { expect } from 'vitest';
import type { ApiClient } from '../../server/test/api-client.ts';
import type { Suite } from './suite.ts';
import { createUser, uniqueName } from './users.ts';

/** Adds, as root, an OpenAI-type channel in the default group on the suite's mock vendor, serving `models`. */
export async function addMockChannel(suite: Suite, models: readonly string[]): Promise<void> {
  const channel = await suite.stack.root.post('/api/channel/', {
    name: uniqueName('ch'),
    type: 1,
    key: 'sk-upstream',
    base_url: suite.upstream.url,
    other: '',
    model_mapping: '',
    system_prompt: '',
    models: models.join(','),
    group: 'default',
    config: '{}',
  });
  expect(channel.body.success).toBe(true);
}

/**
 * Registers an ordinary user who redeems a code of `quota` (made by root) on the top-up page's API; returns the
 * user's name and password and a client signed in as the user.
 */
export async function userWithBalance(
  suite: Suite,
  quota: number,
): Promise<{ username: string; password: string; client: ApiClient }> {
  const { username, password } = await createUser(suite.stack);
  const codes = (await suite.stack.root.post('/api/redemption/', { name: uniqueName('c'), quota, count: 1 })).body
    .data as string[];
  const client = suite.stack.client();
  await client.login(username, password);
  expect((await client.post('/api/user/topup', { key: codes[0] })).body.success).toBe(true);
  return { username, password, client };
}
