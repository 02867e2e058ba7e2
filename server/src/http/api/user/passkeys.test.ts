import { generateKeyPairSync } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { setOptions, signUp, uniqueName } from '../../../../test/account-helpers.js';
import { ApiClient } from '../../../../test/api-client.js';
import { availableEngines } from '../../../../test/engines.js';
import { SoftAuthenticator } from '../../../../test/soft-authenticator.js';
import { startTestServer, type TestServer } from '../../../../test/test-server.js';
import { startedForSuite } from '../../../../test/suite-lifecycle.js';

// Issue 32, point 2 (decision 0030): passkeys registered and used to sign in by a software authenticator that
// builds real attestations and ES256 signatures; what an attacker would try is refused.

const refused = { success: false, message: '通行密钥验证失败，请重试' };
const expired = { success: false, message: '通行密钥请求已过期，请重试' };

const reauthNeeded = { require_reauth: true };

/** The server's clock (Date.now, which the re-authentication window reads) moved by `offsetMs`. */
function moveClock(offsetMs: number) {
  const real = Date.now.bind(Date);
  vi.spyOn(Date, 'now').mockImplementation(() => real() + offsetMs);
}
afterEach(() => {
  vi.restoreAllMocks();
});

/** Confirms the signed-in client again with the authenticator; answers POST /api/user/reauth's envelope. */
async function passkeyReauth(
  client: ApiClient,
  authenticator: SoftAuthenticator,
  sign = authenticator.get.bind(authenticator),
) {
  const options = (await client.post('/api/user/passkey/reauth/options')).body;
  expect(options.success).toBe(true);
  return (await client.post('/api/user/reauth', { passkey: sign(options.data) })).body;
}

/** Adds a passkey for the signed-in client; answers the registration's envelope. */
async function addPasskey(client: ApiClient, authenticator: SoftAuthenticator, name = 'Laptop') {
  const options = (await client.post('/api/user/passkey/register/options')).body;
  expect(options.success).toBe(true);
  const { response } = authenticator.create(options.data);
  return (await client.post('/api/user/passkey/register', { response, name })).body;
}

/** Signs a fresh client in with the authenticator; answers the client and the sign-in's envelope. */
async function passkeySignIn(
  server: TestServer,
  authenticator: SoftAuthenticator,
  sign = authenticator.get.bind(authenticator),
) {
  const client = server.client();
  const options = (await client.post('/api/user/passkey/login/options')).body;
  expect(options.success).toBe(true);
  const body = (await client.post('/api/user/passkey/login', { response: sign(options.data) })).body;
  return { client, body };
}

describe.each(await availableEngines())('passkeys on $label', (engine) => {
  const server = startedForSuite(() => startTestServer({ engine }));

  test('a passkey is added, listed, signs in without a username and is removed', async () => {
    const username = uniqueName('pk');
    const { client, id } = await signUp(server, username);
    const authenticator = new SoftAuthenticator(server.url);

    const options = (await client.post('/api/user/passkey/register/options')).body.data;
    expect(options).toMatchObject({
      rp: { id: '127.0.0.1' },
      user: { name: username },
      attestation: 'none',
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    const { response } = authenticator.create(options);
    const added = (await client.post('/api/user/passkey/register', { response, name: 'My laptop' })).body;
    expect(added).toMatchObject({ success: true, data: { name: 'My laptop', last_used_at: 0 } });
    const listed = (await client.get('/api/user/passkeys')).body.data;
    expect(listed).toEqual([added.data]);
    // No key material leaves the server.
    expect(JSON.stringify(listed)).not.toContain(response.id);

    const { client: signedIn, body } = await passkeySignIn(server, authenticator);
    expect(body).toMatchObject({ success: true, data: { id, username } });
    expect((await signedIn.get('/api/user/self')).body.data.username).toBe(username);
    expect((await signedIn.get('/api/user/sessions')).body.data).toHaveLength(2);
    expect((await signedIn.get('/api/user/passkeys')).body.data[0].last_used_at).toBeGreaterThan(0);

    expect((await signedIn.delete(`/api/user/passkeys/${added.data.id}`)).body.success).toBe(true);
    expect((await signedIn.get('/api/user/passkeys')).body.data).toEqual([]);
    expect((await passkeySignIn(server, authenticator)).body).toEqual(refused);
  });

  test('a wrong signature, another origin and an unknown credential are refused alike', async () => {
    const { client } = await signUp(server, uniqueName('pk'));
    const authenticator = new SoftAuthenticator(server.url);
    expect((await addPasskey(client, authenticator)).success).toBe(true);

    const forger = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    const forged = await passkeySignIn(server, authenticator, (options) =>
      authenticator.get(options, undefined, { signWith: forger }),
    );
    expect(forged.body).toEqual(refused);
    expect((await forged.client.get('/api/user/self')).body.success).toBe(false);

    const phishing = await passkeySignIn(server, authenticator, (options) =>
      authenticator.get(options, undefined, { origin: 'https://modelgate.example.evil' }),
    );
    expect(phishing.body).toEqual(refused);

    const stranger = new SoftAuthenticator(server.url);
    stranger.create({ challenge: 'AAAA', rp: { id: '127.0.0.1' }, user: { id: 'bm9ib2R5' } });
    expect((await passkeySignIn(server, stranger)).body).toEqual(refused);
  });

  test('an answered challenge is not accepted again, nor a sign-in without options', async () => {
    const { client } = await signUp(server, uniqueName('pk'));
    const authenticator = new SoftAuthenticator(server.url);
    expect((await addPasskey(client, authenticator)).success).toBe(true);

    const attacker = server.client();
    const options = (await attacker.post('/api/user/passkey/login/options')).body.data;
    const cookieWithChallenge = new Map(attacker.cookies);
    const answer = authenticator.get(options);
    expect((await attacker.post('/api/user/passkey/login', { response: answer })).body.success).toBe(true);

    // The same answer again, on the same client (its cookie no longer holds the challenge)...
    const again = server.client();
    for (const [name, value] of cookieWithChallenge) again.cookies.set(name, value);
    expect((await attacker.post('/api/user/passkey/login', { response: answer })).body).toEqual(expired);
    // ...and with the cookie captured before the answer: the challenge was spent on the server.
    expect((await again.post('/api/user/passkey/login', { response: answer })).body).toEqual(expired);
    expect((await again.get('/api/user/self')).body.success).toBe(false);

    expect((await server.client().post('/api/user/passkey/login', { response: answer })).body).toEqual(expired);

    // A registration answer is not a sign-in answer.
    const registerOptions = (await client.post('/api/user/passkey/register/options')).body.data;
    const { response } = new SoftAuthenticator(server.url).create(registerOptions);
    expect((await client.post('/api/user/passkey/login', { response })).body).toEqual(expired);
  });

  test('the counter must grow once it is used; a cloned authenticator is refused', async () => {
    const { client } = await signUp(server, uniqueName('pk'));
    const authenticator = new SoftAuthenticator(server.url);
    expect((await addPasskey(client, authenticator)).success).toBe(true);
    const credential = authenticator.credentials[0]!;

    expect(
      (await passkeySignIn(server, authenticator, (o) => authenticator.get(o, credential, { counter: 5 }))).body
        .success,
    ).toBe(true);
    // A copy of the key still at counter 5, or one behind it, is refused.
    expect(
      (await passkeySignIn(server, authenticator, (o) => authenticator.get(o, credential, { counter: 5 }))).body,
    ).toEqual(refused);
    expect(
      (await passkeySignIn(server, authenticator, (o) => authenticator.get(o, credential, { counter: 3 }))).body,
    ).toEqual(refused);
    expect(
      (await passkeySignIn(server, authenticator, (o) => authenticator.get(o, credential, { counter: 6 }))).body
        .success,
    ).toBe(true);
  });

  test("another user's passkey cannot be registered again, listed or removed", async () => {
    const { client: alice } = await signUp(server, uniqueName('pka'));
    const { client: bob, id: bobId } = await signUp(server, uniqueName('pkb'));
    const authenticator = new SoftAuthenticator(server.url);
    const added = await addPasskey(alice, authenticator);
    expect(added.success).toBe(true);

    expect((await bob.get('/api/user/passkeys')).body.data).toEqual([]);
    expect((await bob.delete(`/api/user/passkeys/${added.data.id}`)).body).toEqual({
      success: false,
      message: '通行密钥不存在',
    });
    expect((await alice.get('/api/user/passkeys')).body.data).toHaveLength(1);

    // Bob registers a key of his own under Alice's credential id: refused.
    const options = (await bob.post('/api/user/passkey/register/options')).body.data;
    const copy = new SoftAuthenticator(server.url);
    const { response } = copy.create(options, { id: authenticator.credentials[0]!.id });
    expect((await bob.post('/api/user/passkey/register', { response, name: 'x' })).body).toEqual({
      success: false,
      message: '该通行密钥已添加',
    });
    expect((await bob.get('/api/user/passkeys')).body.data).toEqual([]);
    // Bob's key under Alice's credential id does not sign in as Alice (the stored key is Alice's).
    expect((await passkeySignIn(server, copy)).body).toEqual(refused);

    // Alice's passkey answering with Bob's user handle is refused.
    const claimingBob = await passkeySignIn(server, authenticator, (o) => {
      const answer = authenticator.get(o);
      return {
        ...answer,
        response: { ...answer.response, userHandle: Buffer.from(`modelgate:${bobId}`).toString('base64url') },
      };
    });
    expect(claimingBob.body).toEqual(refused);
  });

  test('a registration answer for a stale or foreign challenge and bad bodies are refused', async () => {
    const { client } = await signUp(server, uniqueName('pk'));
    const authenticator = new SoftAuthenticator(server.url);
    const { response } = authenticator.create({
      challenge: 'bm90LWlzc3VlZA',
      rp: { id: '127.0.0.1' },
      user: { id: 'eA' },
    });
    expect((await client.post('/api/user/passkey/register', { response, name: 'x' })).body).toEqual(expired);
    const options = (await client.post('/api/user/passkey/register/options')).body.data;
    const wrongChallenge = authenticator.create({ ...options, challenge: 'b3RoZXI' }).response;
    expect((await client.post('/api/user/passkey/register', { response: wrongChallenge })).body).toEqual(refused);
    expect((await client.get('/api/user/passkeys')).body.data).toEqual([]);

    for (const body of [{}, { response: 'x' }, { response: { id: 'a', rawId: 'a', type: 'other', response: {} } }]) {
      const answer = await client.post('/api/user/passkey/login', body);
      expect(answer.status).toBe(200);
      expect(answer.body.success).toBe(false);
    }
    expect((await server.client().post('/api/user/passkey/register/options')).body.success).toBe(false);
  });
});

describe('a passkey as the re-authentication factor', () => {
  const server = startedForSuite(() => startTestServer());

  test('after five minutes a passkey of the user confirms the session again: a new access token, a price', async () => {
    const { client } = await signUp(server, uniqueName('pkr'));
    const authenticator = new SoftAuthenticator(server.url);
    const added = await addPasskey(client, authenticator);
    expect(added.success).toBe(true);

    moveClock(6 * 60_000);
    expect((await client.get('/api/user/token')).body).toMatchObject({ success: false, data: reauthNeeded });
    // The options offer this user's passkeys only.
    const options = (await client.post('/api/user/passkey/reauth/options')).body.data;
    expect(options).toMatchObject({ rpId: '127.0.0.1', userVerification: 'required' });
    expect(options.allowCredentials).toEqual([
      expect.objectContaining({ id: authenticator.credentials[0]!.id.toString('base64url'), type: 'public-key' }),
    ]);
    const answer = authenticator.get(options);
    expect((await client.post('/api/user/reauth', { passkey: answer })).body).toEqual({
      success: true,
      message: '',
      data: { two_factor: false },
    });
    expect((await client.get('/api/user/token')).body.success).toBe(true);
    expect((await client.get('/api/user/passkeys')).body.data[0].last_used_at).toBeGreaterThan(0);

    // The same answer again: the challenge was spent.
    vi.restoreAllMocks();
    moveClock(12 * 60_000);
    expect((await client.post('/api/user/reauth', { passkey: answer })).body).toEqual(expired);
    expect((await client.get('/api/user/token')).body.data).toEqual(reauthNeeded);

    // Root re-authenticates with a passkey before a price write through PUT /api/option/.
    const root = await server.rootClient();
    const rootKeys = new SoftAuthenticator(server.url);
    expect((await addPasskey(root, rootKeys)).success).toBe(true);
    vi.restoreAllMocks();
    moveClock(18 * 60_000);
    const ratio = { key: 'GroupRatio', value: JSON.stringify({ default: 1, vip: 1, svip: 1, pk: 2 }) };
    expect((await root.put('/api/option/', ratio)).body.data).toEqual(reauthNeeded);
    expect((await passkeyReauth(root, rootKeys)).success).toBe(true);
    expect((await root.put('/api/option/', ratio)).body.success).toBe(true);
  });

  test("another user's passkey, a sign-in challenge, a forged signature or no passkey do not confirm a session", async () => {
    const { client: alice } = await signUp(server, uniqueName('pkr'));
    const { client: bob } = await signUp(server, uniqueName('pkr'));
    const aliceKeys = new SoftAuthenticator(server.url);
    const bobKeys = new SoftAuthenticator(server.url);
    expect((await addPasskey(alice, aliceKeys)).success).toBe(true);
    expect((await addPasskey(bob, bobKeys)).success).toBe(true);
    moveClock(6 * 60_000);

    // Bob's own passkey answering Alice's re-authentication options does not confirm Alice.
    expect(await passkeyReauth(alice, bobKeys)).toEqual(refused);
    // A forged signature with Alice's credential id.
    const forger = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    expect(await passkeyReauth(alice, aliceKeys, (o) => aliceKeys.get(o, undefined, { signWith: forger }))).toEqual(
      refused,
    );
    // Another origin.
    expect(
      await passkeyReauth(alice, aliceKeys, (o) => aliceKeys.get(o, undefined, { origin: 'https://evil.example' })),
    ).toEqual(refused);
    // A sign-in challenge is not a re-authentication challenge, nor is an answer without options.
    const loginOptions = (await alice.post('/api/user/passkey/login/options')).body.data;
    expect((await alice.post('/api/user/reauth', { passkey: aliceKeys.get(loginOptions) })).body).toEqual(expired);
    const stray = aliceKeys.get({ challenge: 'bm90LWlzc3VlZA' });
    expect((await alice.post('/api/user/reauth', { passkey: stray })).body).toEqual(expired);
    expect((await alice.get('/api/user/token')).body.data).toEqual(reauthNeeded);

    // Re-authentication options for a user with no passkey, or for nobody.
    const { client: carol } = await signUp(server, uniqueName('pkr'));
    expect((await carol.post('/api/user/passkey/reauth/options')).body).toEqual({
      success: false,
      message: '通行密钥不存在',
    });
    expect((await server.client().post('/api/user/passkey/reauth/options')).body.success).toBe(false);
    expect((await carol.post('/api/user/reauth', { passkey: 'x' })).body.success).toBe(false);

    // Alice's own passkey still works after all that.
    expect((await passkeyReauth(alice, aliceKeys)).success).toBe(true);
    expect((await alice.get('/api/user/token')).body.success).toBe(true);
  });
});

describe('passkeys as the second factor', () => {
  const server = startedForSuite(() => startTestServer());

  test('a user with TOTP signs in with a passkey without the code; AdminRequire2FA accepts a passkey', async () => {
    const username = uniqueName('pk2');
    const { client, id } = await signUp(server, username);
    const { secret } = (await client.post('/api/user/2fa/setup')).body.data;
    const totp = new TOTP({ secret: Secret.fromBase32(secret) });
    expect((await client.post('/api/user/2fa/enable', { code: totp.generate() })).body.success).toBe(true);
    const authenticator = new SoftAuthenticator(server.url);
    expect((await addPasskey(client, authenticator)).success).toBe(true);

    expect((await server.client().post('/api/user/login', { username, password: 'password123' })).body).toMatchObject({
      success: false,
      data: { require_2fa: true },
    });
    const { client: signedIn, body } = await passkeySignIn(server, authenticator);
    expect(body).toMatchObject({ success: true, data: { id, username } });
    expect((await signedIn.get('/api/user/self')).body.success).toBe(true);

    // An administrator with a passkey and no TOTP passes the requirement; without one is sent to set one up.
    const root = await server.rootClient();
    const rootKeys = new SoftAuthenticator(server.url);
    expect((await addPasskey(root, rootKeys)).success).toBe(true);
    await setOptions(root, { AdminRequire2FA: true });
    const adminName = uniqueName('pka');
    const { client: admin } = await signUp(server, adminName);
    await root.post('/api/user/manage', { username: adminName, action: 'promote' });
    await admin.login(adminName, 'password123');
    expect((await admin.get('/api/user/')).body).toMatchObject({ success: false, data: { require_2fa_setup: true } });
    expect((await addPasskey(admin, new SoftAuthenticator(server.url))).success).toBe(true);
    expect((await admin.get('/api/user/')).body.success).toBe(true);
    expect((await root.get('/api/user/')).body.success).toBe(true);
    await setOptions(root, { AdminRequire2FA: false });
  });
});
