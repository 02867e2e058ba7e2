import { describe, expect, test } from 'vitest';
import { signUp, uniqueName } from '../../../test/account-helpers.js';
import { availableEngines } from '../../../test/engines.js';
import { startTestServer } from '../../../test/test-server.js';
import { startedForSuite } from '../../../test/suite-lifecycle.js';

/** Names that read differently from what they hold: NUL, the right-to-left override, other controls. */
const hiddenNames = ['ab\u0000cd', 'gpt\u202Etxt.exe', 'tab\tname', 'bell\u0007', 'iso\u2066late', 'b\uFEFFom'];

describe.each(await availableEngines())('strict ids and names on $label', (engine) => {
  const server = startedForSuite(() => startTestServer({ engine }));
  const root = startedForSuite(() => server.rootClient());

  const tokenCount = async (userId: number) =>
    Number(
      (
        await server.context.database.db
          .selectFrom('tokens')
          .select((eb) => eb.fn.countAll().as('count'))
          .where('user_id', '=', userId)
          .executeTakeFirstOrThrow()
      ).count,
    );

  test('POST /api/token/ with a body that is not a JSON object creates nothing', async () => {
    const { client, id } = await signUp(server, uniqueName('tok'));
    const before = await tokenCount(id);
    for (const body of ['null', '[]', '"name"', '7']) {
      const response = await client.post('/api/token/', body);
      expect(response.body.success, body).toBe(false);
      expect(response.body.message, body).toMatch(/^无效的参数/);
    }
    const put = await client.put('/api/token/', 'null');
    expect(put.body.success).toBe(false);
    expect(await tokenCount(id)).toBe(before);
    // A real object still works.
    expect((await client.post('/api/token/', { name: 'fine' })).body.success).toBe(true);
    expect(await tokenCount(id)).toBe(before + 1);
  });

  test('names holding control or bidirectional formatting characters are refused everywhere', async () => {
    const { client, id } = await signUp(server, uniqueName('nam'));
    const tokenId = ((await client.post('/api/token/', { name: 'plain' })).body.data as { id: number }).id;
    const channel = await root.post('/api/channel/', {
      name: 'plain channel',
      type: 1,
      key: 'sk-test',
      base_url: 'http://127.0.0.1:9',
      models: 'gpt-4o-mini',
      group: 'default',
    });
    expect(channel.body.success).toBe(true);
    const channelId = (
      await server.context.database.db
        .selectFrom('channels')
        .select('id')
        .where('name', '=', 'plain channel')
        .executeTakeFirstOrThrow()
    ).id;

    for (const name of hiddenNames) {
      const label = JSON.stringify(name);
      const refusals = [
        await client.post('/api/token/', { name }),
        await client.put('/api/token/', { id: tokenId, name }),
        await client.put('/api/user/self', { display_name: name }),
        await client.put('/api/user/self', { username: name.slice(0, 10) }),
        await server.client().post('/api/user/register', { username: name.slice(0, 10), password: 'password123' }),
        await root.put('/api/user/', { id, display_name: name }),
        await root.post('/api/user/', { username: name.slice(0, 10), password: 'password123' }),
        await root.post('/api/redemption/', { name, quota: 1, count: 1 }),
        await root.post('/api/channel/', { name, type: 1, key: 'k', models: 'm', group: 'default' }),
        await root.put('/api/channel/', { id: channelId, name }),
      ];
      for (const [index, response] of refusals.entries()) {
        expect(response.body.success, `${label} #${index}`).toBe(false);
        expect(response.body.message, `${label} #${index}`).toContain('control or bidirectional');
      }
    }
    const stored = await server.context.database.db
      .selectFrom('users')
      .select(['username', 'display_name'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect([...stored.display_name].some((char) => char < ' ' || char === '\u202E')).toBe(false);
    // Ordinary text outside ASCII (and emoji with joiners) stays welcome.
    expect((await client.post('/api/token/', { name: '测试 👩‍💻' })).body.success).toBe(true);
    expect((await client.put('/api/user/self', { display_name: 'Zoë – 张三' })).body.success).toBe(true);
  });

  test('ids in paths must be canonical positive integers', async () => {
    const { client } = await signUp(server, uniqueName('ids'));
    const tokenId = ((await client.post('/api/token/', { name: 'id-check' })).body.data as { id: number }).id;
    expect((await root.get('/api/user/1')).body).toMatchObject({ success: true, data: { id: 1 } });
    for (const id of ['1.0', '0x1', '01', '1e0', '+1', '%201', '1%20', '0', '-1', '99999999999']) {
      const user = await root.get(`/api/user/${id}`);
      expect(user.body.success, `/api/user/${id}`).toBe(false);
      expect(user.body.data, `/api/user/${id}`).toBeUndefined();
      expect((await client.get(`/api/token/${id === '1.0' ? `${tokenId}.0` : id}`)).body.success, id).toBe(false);
      expect((await root.delete(`/api/user/${id}`)).body.success, `DELETE ${id}`).toBe(false);
      expect((await root.get(`/api/channel/${id}`)).body.success, `channel ${id}`).toBe(false);
    }
    expect((await client.get(`/api/token/${tokenId}`)).body.data).toMatchObject({ id: tokenId });
    expect((await client.get(`/api/token/0x${tokenId.toString(16)}`)).body.success).toBe(false);
    // Body ids: numbers as JSON numbers; a fraction is refused.
    expect((await root.put('/api/user/', { id: 1.5, display_name: 'x' })).body.success).toBe(false);
    expect((await root.post('/api/topup', { user_id: '0x1', quota: 1 })).body.success).toBe(false);
  });
});
