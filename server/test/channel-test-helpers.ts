import bcrypt from 'bcryptjs';
import { expect } from 'vitest';
import { ApiClient } from './api-client.js';
import type { TestServer } from './test-server.js';

let sequence = 0;

/** Inserts a user of the given role straight into the database and signs it in. */
export async function signInWithRole(server: TestServer, role: number): Promise<ApiClient> {
  const username = `ch${Date.now().toString(36).slice(-5)}${(sequence++).toString(36)}`.slice(0, 12);
  await server.context.database.db
    .insertInto('users')
    .values({ username, password: await bcrypt.hash('password123', 4), display_name: username, role, status: 1 })
    .execute();
  const client = new ApiClient(server.url);
  await client.login(username, 'password123');
  return client;
}

/** Saves options as root, failing the test when one is refused. */
export async function saveOptions(root: ApiClient, options: Record<string, string | number | boolean>): Promise<void> {
  for (const [key, value] of Object.entries(options)) {
    const response = await root.put('/api/option/', { key, value: String(value) });
    expect(response.body, `option ${key}`).toMatchObject({ success: true });
  }
}

/** Creates channels through the API and returns the ids of the ones with this name, ascending. */
export async function createChannels(
  server: TestServer,
  admin: ApiClient,
  body: Record<string, unknown>,
): Promise<number[]> {
  const response = await admin.post('/api/channel/', body);
  expect(response.body, 'create channel').toMatchObject({ success: true });
  const rows = await server.context.database.db
    .selectFrom('channels')
    .select('id')
    .where('name', '=', String(body.name))
    .orderBy('id')
    .execute();
  return rows.map((row) => Number(row.id));
}

/** A channel's abilities, normalised (booleans come back as 0/1 on SQLite and MySQL) and sorted. */
export async function abilitiesOf(server: TestServer, channelId: number) {
  const rows = await server.context.database.db
    .selectFrom('abilities')
    .selectAll()
    .where('channel_id', '=', channelId)
    .execute();
  return rows
    .map((row) => ({
      group: row.group,
      model: row.model,
      enabled: Boolean(row.enabled),
      priority: Number(row.priority),
    }))
    .sort((left, right) => `${left.group}/${left.model}`.localeCompare(`${right.group}/${right.model}`));
}

export async function channelRow(server: TestServer, id: number) {
  return server.context.database.db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Polls until the check passes or the time is up. */
export async function eventually<T>(check: () => Promise<T | undefined | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
