import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ApiClient } from '../../../../test/api-client.js';
import { availableEngines } from '../../../../test/engines.js';
import { MockOpenAIUpstream } from '../../../../test/mock-openai-upstream.js';
import { createToken, createUser, priceUnknownModels } from '../../../../test/relay-fixtures.js';
import { startTestServer, type TestServer } from '../../../../test/test-server.js';
import { ChannelStatus } from '../../../domain/channel/channel.constants.js';
import { Role } from '../../../domain/user/user.constants.js';

/** One chat completion through the relay; the status and, on success, the answer's text. */
async function chat(server: TestServer, apiKey: string, model: string) {
  const response = await fetch(`${server.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
  });
  const body = (await response.json()) as { choices?: { message: { content: string } }[] };
  return { status: response.status, text: body.choices?.[0]?.message.content };
}

/** Creates one channel through /api and returns its id (the newest channel of that name). */
async function createChannel(
  server: TestServer,
  root: ApiClient,
  name: string,
  model: string,
  upstream: string,
  group = 'default',
) {
  const created = await root.post('/api/channel/', {
    type: 1,
    name,
    key: `sk-${name}`,
    base_url: upstream,
    models: model,
    group,
  });
  expect(created.body, `create ${name}`).toMatchObject({ success: true });
  const row = await server.context.database.db
    .selectFrom('channels')
    .select('id')
    .where('name', '=', name)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** The requests a mock received with a channel's key: which channel the relay really used. */
const hitsOf = (upstream: MockOpenAIUpstream, name: string) =>
  upstream.requests.filter((request) => request.headers.authorization === `Bearer sk-${name}`).length;

describe.each(await availableEngines())('an /api channel write is routed on the next call on $label', (engine) => {
  let server: TestServer;
  let root: ApiClient;
  let upstream: MockOpenAIUpstream;
  let apiKey: string;
  let adminKey: string;

  beforeAll(async () => {
    server = await startTestServer({ engine });
    // The models are made up: a default price lets them be served (the catalogue names none of them).
    await priceUnknownModels(server);
    root = await server.rootClient();
    upstream = await MockOpenAIUpstream.start();
    const userId = await createUser(server, { username: 'ryw-caller', quota: 1_000_000_000 });
    apiKey = `sk-${(await createToken(server, userId)).key}`;
    const adminId = await createUser(server, { username: 'ryw-admin', quota: 1_000_000_000, role: Role.Admin });
    adminKey = `sk-${(await createToken(server, adminId)).key}`;
  });
  afterAll(async () => {
    await server?.close();
    await upstream?.close();
  });

  test('a channel created through /api serves the very next call, 20 times over', async () => {
    for (let round = 0; round < 20; round++) {
      const name = `fresh-${round}`;
      const model = `fresh-model-${round}`;
      await createChannel(server, root, name, model, upstream.url);
      const answer = await chat(server, apiKey, model);
      expect(answer, `round ${round}`).toEqual({ status: 200, text: 'Hello from the mock upstream' });
      expect(hitsOf(upstream, name), `round ${round}`).toBe(1);
    }
  });

  test('a disabled channel gets no call that starts after the answer; the other one serves', async () => {
    const model = 'switch-model';
    const first = await createChannel(server, root, 'switch-a', model, upstream.url);
    const second = await createChannel(server, root, 'switch-b', model, upstream.url);
    const setStatus = async (id: number, status: number) =>
      expect((await root.put('/api/channel/', { id, status })).body).toMatchObject({ success: true });
    for (let round = 0; round < 10; round++) {
      // Only the first serves: the second is disabled by the quick switch, the first enabled again.
      await setStatus(second, ChannelStatus.ManuallyDisabled);
      await setStatus(first, ChannelStatus.Enabled);
      let hitsA = hitsOf(upstream, 'switch-a');
      const hitsB = hitsOf(upstream, 'switch-b');
      for (let call = 0; call < 3; call++) expect((await chat(server, apiKey, model)).status).toBe(200);
      expect(hitsOf(upstream, 'switch-b'), `round ${round}: disabled b`).toBe(hitsB);
      expect(hitsOf(upstream, 'switch-a'), `round ${round}: enabled a`).toBe(hitsA + 3);

      // The other way round, through the edit form this time.
      await setStatus(second, ChannelStatus.Enabled);
      const edited = await root.put('/api/channel/', {
        id: first,
        type: 1,
        name: 'switch-a',
        models: model,
        group: 'default',
        base_url: upstream.url,
        status: ChannelStatus.ManuallyDisabled,
      });
      expect(edited.body).toMatchObject({ success: true });
      hitsA = hitsOf(upstream, 'switch-a');
      for (let call = 0; call < 3; call++) expect((await chat(server, apiKey, model)).status).toBe(200);
      expect(hitsOf(upstream, 'switch-a'), `round ${round}: disabled a`).toBe(hitsA);
    }
  });

  test('a channel forced by id is refused on the next call once disabled, and served once enabled', async () => {
    const id = await createChannel(server, root, 'forced', 'forced-model', upstream.url);
    const forcedKey = `${adminKey}-${id}`;
    expect((await chat(server, forcedKey, 'forced-model')).status).toBe(200);
    for (let round = 0; round < 5; round++) {
      const hits = hitsOf(upstream, 'forced');
      await root.put('/api/channel/', { id, status: ChannelStatus.ManuallyDisabled });
      expect((await chat(server, forcedKey, 'forced-model')).status, `round ${round}`).toBe(403);
      expect(hitsOf(upstream, 'forced')).toBe(hits);
      await root.put('/api/channel/', { id, status: ChannelStatus.Enabled });
      expect((await chat(server, forcedKey, 'forced-model')).status, `round ${round}`).toBe(200);
      expect(hitsOf(upstream, 'forced')).toBe(hits + 1);
    }
  });

  test('a user or token write decides the very next call: group, ban, token status', async () => {
    await createChannel(server, root, 'vip-only', 'vip-model', upstream.url, 'vip');
    await createChannel(server, root, 'open', 'open-model', upstream.url);
    const userId = await createUser(server, { username: 'ryw-mover', quota: 1_000_000_000 });
    const token = await createToken(server, userId);
    const key = `sk-${token.key}`;
    expect((await chat(server, key, 'vip-model')).status).toBe(404);
    for (let round = 0; round < 5; round++) {
      expect((await root.put('/api/user/', { id: userId, group: 'vip' })).body.success).toBe(true);
      expect((await chat(server, key, 'vip-model')).status, `round ${round}: moved to vip`).toBe(200);
      expect((await root.put('/api/user/', { id: userId, group: 'default' })).body.success).toBe(true);
      expect((await chat(server, key, 'vip-model')).status, `round ${round}: back to default`).toBe(404);

      const hits = upstream.requests.length;
      await root.post('/api/user/manage', { username: 'ryw-mover', action: 'disable' });
      expect((await chat(server, key, 'open-model')).status, `round ${round}: banned`).not.toBe(200);
      await root.post('/api/user/manage', { username: 'ryw-mover', action: 'enable' });
      expect((await chat(server, key, 'open-model')).status, `round ${round}: unbanned`).toBe(200);

      await server.context.database.db
        .updateTable('users')
        .set({ access_token: `ryw-mover-${round}` })
        .where('id', '=', userId)
        .execute();
      const owner = server.client(`ryw-mover-${round}`);
      expect((await owner.put('/api/token/?status_only=1', { id: token.id, status: 2 })).body.success).toBe(true);
      expect((await chat(server, key, 'open-model')).status, `round ${round}: token off`).not.toBe(200);
      expect(upstream.requests.length).toBe(hits + 1);
      expect((await owner.put('/api/token/?status_only=1', { id: token.id, status: 1 })).body.success).toBe(true);
      expect((await chat(server, key, 'open-model')).status, `round ${round}: token on`).toBe(200);
    }
  });

  test('a deleted channel gets no call after the answer, one by one or as "delete disabled"', async () => {
    const model = 'delete-model';
    await createChannel(server, root, 'keeper', model, upstream.url);
    for (let round = 0; round < 5; round++) {
      const name = `doomed-${round}`;
      const id = await createChannel(server, root, name, model, upstream.url);
      // Both serve before the delete (bounded: a weighted draw misses one 20 times in a row rarely).
      for (let call = 0; call < 20 && hitsOf(upstream, name) === 0; call++) await chat(server, apiKey, model);
      expect(hitsOf(upstream, name)).toBeGreaterThan(0);
      const hits = hitsOf(upstream, name);
      expect((await root.delete(`/api/channel/${id}`)).body).toMatchObject({ success: true });
      for (let call = 0; call < 5; call++) expect((await chat(server, apiKey, model)).status).toBe(200);
      expect(hitsOf(upstream, name), `round ${round}`).toBe(hits);
    }

    const doomed = await createChannel(server, root, 'doomed-disabled', 'lonely-model', upstream.url);
    expect((await chat(server, apiKey, 'lonely-model')).status).toBe(200);
    // Disabled in the database behind the router's back (as another node would): still routed here.
    await server.context.database.db
      .updateTable('channels')
      .set({ status: ChannelStatus.ManuallyDisabled })
      .where('id', '=', doomed)
      .execute();
    expect((await root.delete('/api/channel/disabled')).body).toMatchObject({ success: true });
    expect(
      await server.context.database.db.selectFrom('channels').select('id').where('id', '=', doomed).execute(),
    ).toEqual([]);
    const hits = hitsOf(upstream, 'doomed-disabled');
    expect((await chat(server, apiKey, 'lonely-model')).status).toBe(404);
    expect(hitsOf(upstream, 'doomed-disabled')).toBe(hits);
  });
});

const withRedis = (await availableEngines()).filter((engine) => engine.redis);

describe.runIf(withRedis.length > 0).each(withRedis)('another node follows a channel write on $label', (engine) => {
  let first: TestServer;
  let second: TestServer;
  let root: ApiClient;
  let upstream: MockOpenAIUpstream;
  let apiKey: string;

  beforeAll(async () => {
    first = await startTestServer({ engine });
    second = await startTestServer({ engine, shareDatabaseWith: first });
    await priceUnknownModels(first);
    await priceUnknownModels(second);
    root = await first.rootClient();
    upstream = await MockOpenAIUpstream.start();
    const userId = await createUser(first, { username: 'far-caller', quota: 1_000_000_000 });
    apiKey = `sk-${(await createToken(first, userId)).key}`;
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await upstream?.close();
  });

  /** Calls the second node until it answers `status`; how long after `since` that took (bounded by 5 s). */
  async function secondAnswers(status: number, since: number): Promise<number> {
    const deadline = since + 5000;
    while (Date.now() < deadline) {
      if ((await chat(second, apiKey, 'far-model')).status === status) return Date.now() - since;
    }
    throw new Error(`the second node never answered ${status}`);
  }

  test('the second node stops routing to a channel disabled on the first within the bound', async () => {
    const id = await createChannel(first, root, 'far', 'far-model', upstream.url);
    await secondAnswers(200, Date.now());
    const stopped: number[] = [];
    const resumed: number[] = [];
    for (let round = 0; round < 10; round++) {
      const disabled = await root.put('/api/channel/', { id, status: ChannelStatus.ManuallyDisabled });
      expect(disabled.body).toMatchObject({ success: true });
      // Measured from the first node's answer: from then on the write is in the database and on the bus.
      stopped.push(await secondAnswers(404, Date.now()));
      const hits = hitsOf(upstream, 'far');
      for (let call = 0; call < 3; call++) expect((await chat(second, apiKey, 'far-model')).status).toBe(404);
      expect(hitsOf(upstream, 'far'), `round ${round}`).toBe(hits);

      expect((await root.put('/api/channel/', { id, status: ChannelStatus.Enabled })).body.success).toBe(true);
      resumed.push(await secondAnswers(200, Date.now()));
    }
    const worst = Math.max(...stopped, ...resumed);
    console.info(
      `cross-node channel follow on ${engine.label}: disable ${stopped.join('/')} ms, enable ${resumed.join('/')} ms, worst ${worst} ms`,
    );
    expect(worst).toBeLessThanOrEqual(1000);
  });
});
