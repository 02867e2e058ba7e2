import { Secret, TOTP } from 'otpauth';
import { describe, expect, test } from 'vitest';
import { signUp, uniqueName } from '../../../../test/account-helpers.js';
import { ApiClient } from '../../../../test/api-client.js';
import { sharedEngines, twoNodes } from '../../../../test/two-nodes-kit.js';

const engines = await sharedEngines();
const notSignedIn = { success: false, message: '无权进行此操作，未登录且未提供 access token' };

describe.skipIf(engines.length === 0).each(engines)('sessions on two nodes sharing $label', (engine) => {
  const nodes = twoNodes(engine);

  test('a session ended on node A is refused by node B at once, though B had it cached', async () => {
    const username = uniqueName('mns');
    const { client: laptop } = await signUp(nodes.a, username);
    const phone = new ApiClient(nodes.a.url);
    await phone.login(username, 'password123');
    const phoneOnB = nodes.onNodeB(phone);
    const laptopOnB = nodes.onNodeB(laptop);
    expect((await phoneOnB.get('/api/user/self')).body.success).toBe(true);
    expect((await laptopOnB.get('/api/user/self')).body.success).toBe(true);

    // Sign-out on A: B refuses the copy at once, and keeps the laptop.
    await phone.get('/api/user/logout');
    expect((await phoneOnB.get('/api/user/self')).body).toEqual(notSignedIn);
    expect((await laptopOnB.get('/api/user/self')).body.success).toBe(true);

    // "Sign out all others" asked on B ends a session that A had cached.
    const tablet = new ApiClient(nodes.a.url);
    await tablet.login(username, 'password123');
    expect((await tablet.get('/api/user/self')).body.success).toBe(true);
    expect((await laptopOnB.post('/api/user/sessions/logout_others')).body.data).toEqual({ ended: 1 });
    expect((await tablet.get('/api/user/self')).body).toEqual(notSignedIn);
    expect((await laptop.get('/api/user/self')).body.success).toBe(true);
  });

  test('a second factor turned on at node A is asked for by node B at the next sign-in', async () => {
    const username = uniqueName('mnf');
    const { client } = await signUp(nodes.a, username);
    // Node B signs the user in first (and learns there is no second factor).
    await new ApiClient(nodes.b.url).login(username, 'password123');
    const { secret } = (await client.post('/api/user/2fa/setup')).body.data;
    const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate();
    expect((await client.post('/api/user/2fa/enable', { code })).body.success).toBe(true);
    expect(
      (await new ApiClient(nodes.b.url).post('/api/user/login', { username, password: 'password123' })).body,
    ).toEqual({ success: false, message: '请输入两步验证码', data: { require_2fa: true } });
  });
});
