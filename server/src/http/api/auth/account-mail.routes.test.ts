import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { setOptions, signUp, uniqueName } from '../../../../test/account-helpers.js';
import { availableEngines } from '../../../../test/engines.js';
import { startSmtpServer, type ReceivedMail, type TestSmtpServer } from '../../../../test/smtp-server.js';
import { startTestServer, type TestServer } from '../../../../test/test-server.js';

const codeIn = (mail: ReceivedMail) => /<strong>([0-9a-f]{6})<\/strong>/.exec(mail.html)?.[1] ?? '';
const addressedTo = (email: string, subject: string) => (mail: ReceivedMail) =>
  mail.envelopeTo.includes(email) && mail.subject === subject;

describe.each(await availableEngines())('verification and reset mails on $label', (engine) => {
  let server: TestServer;
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    server = await startTestServer({ engine });
    const root = await server.rootClient();
    await setOptions(root, {
      SMTPServer: smtp.host,
      SMTPPort: smtp.port,
      SMTPFrom: 'gate@example.com',
      SMTPAccount: 'mailer',
      SMTPToken: 'smtp-secret',
      ServerAddress: 'http://gate.test/',
      SystemName: 'Gate',
    });
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  test('with email verification on, sign-up needs the mailed code, which works only once', async () => {
    const root = await server.rootClient();
    await setOptions(root, { EmailVerificationEnabled: true });
    try {
      const email = `${uniqueName('v')}@example.com`;
      const username = uniqueName('mail');
      const withoutCode = await server.client().post('/api/user/register', { username, password: 'password123' });
      expect(withoutCode.body).toEqual({ success: false, message: '管理员开启了邮箱验证，请输入邮箱地址和验证码' });

      const sent = await server.client().get(`/api/verification?email=${encodeURIComponent(email)}`);
      expect(sent.body).toEqual({ success: true, message: '', data: null });
      const mail = await smtp.waitForMail(addressedTo(email, 'Gate 邮箱验证邮件'));
      expect(mail.to).toEqual([email]);
      expect(mail.from).toBe('gate@example.com');
      expect(mail.auth).toEqual({ username: 'mailer', password: 'smtp-secret' });
      expect(mail.html).toContain('此邮件由系统自动发送，请勿直接回复');
      const code = codeIn(mail);
      expect(code).toMatch(/^[0-9a-f]{6}$/);

      const wrongCode = await server.client().post('/api/user/register', {
        username,
        password: 'password123',
        email,
        verification_code: 'ffffff' === code ? '000000' : 'ffffff',
      });
      expect(wrongCode.body).toEqual({ success: false, message: '验证码错误或已过期' });
      const registered = await server
        .client()
        .post('/api/user/register', { username, password: 'password123', email, verification_code: code });
      expect(registered.body.success).toBe(true);
      const row = await server.context.database.db
        .selectFrom('users')
        .selectAll()
        .where('username', '=', username)
        .executeTakeFirstOrThrow();
      expect(row.email).toBe(email);

      const reused = await server.client().post('/api/user/register', {
        username: uniqueName('again'),
        password: 'password123',
        email,
        verification_code: code,
      });
      expect(reused.body.success).toBe(false);
      const taken = await server.client().get(`/api/verification?email=${encodeURIComponent(email)}`);
      expect(taken.body).toEqual({ success: false, message: '邮箱地址已被占用' });
    } finally {
      await setOptions(root, { EmailVerificationEnabled: false });
    }
  });

  test('the domain whitelist and the address syntax are checked before any mail is sent', async () => {
    const root = await server.rootClient();
    await setOptions(root, { EmailDomainWhitelist: 'example.com', EmailDomainRestrictionEnabled: true });
    try {
      const before = smtp.mails.length;
      const outside = await server.client().get('/api/verification?email=someone@elsewhere.org');
      expect(outside.body).toEqual({
        success: false,
        message: '管理员启用了邮箱域名白名单，您的邮箱地址的域名不在白名单中',
      });
      const lookalike = await server.client().get('/api/verification?email=someone@badexample.com');
      expect(lookalike.body.success).toBe(false);
      for (const bad of ['not-an-address', '', `${'a'.repeat(60)}@example.com`]) {
        const response = await server.client().get(`/api/verification?email=${encodeURIComponent(bad)}`);
        expect(response.body.success, bad).toBe(false);
        expect(response.body.message).toMatch(/无效的参数/);
      }
      const missing = await server.client().get('/api/verification');
      expect(missing.body.success).toBe(false);
      expect(smtp.mails.length).toBe(before);
    } finally {
      await setOptions(root, { EmailDomainRestrictionEnabled: false });
    }
  });

  test('a reset link mailed to a registered address sets a new 12-character password, once', async () => {
    const username = uniqueName('rst');
    const { client, id } = await signUp(server, username);
    const email = `${uniqueName('r')}@example.com`;
    await server.context.database.db.updateTable('users').set({ email }).where('id', '=', id).execute();

    // The same answer for an unregistered address (and no mail): the route does not tell who has an account.
    const unknown = await server.client().get('/api/reset_password?email=nobody@example.com');
    expect(unknown.body).toEqual({ success: true, message: '', data: null });

    const sent = await server.client().get(`/api/reset_password?email=${encodeURIComponent(email)}`);
    expect(sent.body.success).toBe(true);
    const mail = await smtp.waitForMail(addressedTo(email, 'Gate 密码重置'));
    const link = /http:\/\/gate\.test\/user\/reset\?email=([^&"<\s]+)&amp;token=([0-9a-f]{32})/.exec(mail.html);
    expect(link, mail.html).not.toBeNull();
    expect(decodeURIComponent(link![1]!)).toBe(email);
    const token = link![2]!;

    const badToken = await server.client().post('/api/user/reset', { email, token: '0'.repeat(32) });
    expect(badToken.body).toEqual({ success: false, message: '重置链接非法或已过期' });
    const reset = await server.client().post('/api/user/reset', { email, token });
    expect(reset.body.success).toBe(true);
    expect(reset.body.data).toMatch(/^[0-9a-f]{12}$/);
    // The reset ended the sessions signed in with the old password.
    expect((await client.get('/api/user/self')).status).toBe(401);
    await server.client().login(username, reset.body.data as string);
    const oldPassword = await server.client().post('/api/user/login', { username, password: 'password123' });
    expect(oldPassword.body.success).toBe(false);

    const replay = await server.client().post('/api/user/reset', { email, token });
    expect(replay.body).toEqual({ success: false, message: '重置链接非法或已过期' });
    const malformed = await server.client().post('/api/user/reset', { email, token: 42 });
    expect(malformed.body.success).toBe(false);
  });

  test('a signed-in user binds an email with the mailed code; the code is used up', async () => {
    const { client } = await signUp(server, uniqueName('bind'));
    const email = `${uniqueName('b')}@example.com`;
    await client.get(`/api/verification?email=${encodeURIComponent(email)}`);
    const code = codeIn(await smtp.waitForMail(addressedTo(email, 'Gate 邮箱验证邮件')));

    const anonymous = await server
      .client()
      .get(`/api/oauth/email/bind?email=${encodeURIComponent(email)}&code=${code}`);
    expect(anonymous.status).toBe(401);
    // A cross-site link sends the session cookie but not the console's X-XSRF-TOKEN header.
    for (const forged of ['', 'not-the-token']) {
      const crossSite = await client.get(`/api/oauth/email/bind?email=${encodeURIComponent(email)}&code=${code}`, {
        'x-xsrf-token': forged,
      });
      expect(crossSite.status).toBe(403);
    }
    expect((await client.get('/api/user/self')).body.data.email).not.toBe(email);
    const wrong = await client.get(`/api/oauth/email/bind?email=${encodeURIComponent(email)}&code=000000x`);
    expect(wrong.body).toEqual({ success: false, message: '验证码错误或已过期' });
    const bound = await client.get(`/api/oauth/email/bind?email=${encodeURIComponent(email)}&code=${code}`);
    expect(bound.body).toEqual({ success: true, message: '', data: null });
    expect((await client.get('/api/user/self')).body.data.email).toBe(email);
    const again = await client.get(`/api/oauth/email/bind?email=${encodeURIComponent(email)}&code=${code}`);
    expect(again.body.success).toBe(false);
  });

  test('an SMTP failure is reported, not hidden', async () => {
    const root = await server.rootClient();
    await setOptions(root, { SMTPPort: 1 });
    try {
      const failed = await server.client().get(`/api/verification?email=${uniqueName('f')}@example.com`);
      expect(failed.body.success).toBe(false);
      expect(failed.body.message).toMatch(/^发送邮件失败：/);
    } finally {
      await setOptions(root, { SMTPPort: smtp.port });
    }
  });
});
