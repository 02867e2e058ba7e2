import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { setOptions, signUp, uniqueName } from '../../../../test/account-helpers.js';
import type { ApiClient } from '../../../../test/api-client.js';
import { availableEngines } from '../../../../test/engines.js';
import { startSmtpServer, type TestSmtpServer } from '../../../../test/smtp-server.js';
import { startTestServer, type TestServer } from '../../../../test/test-server.js';

/** The account routes must not tell a visitor which email addresses have an account. */
describe.each(await availableEngines())('no account oracle on $label', (engine) => {
  let server: TestServer;
  let smtp: TestSmtpServer;
  let root: ApiClient;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    server = await startTestServer({ engine });
    root = await server.rootClient();
    await setOptions(root, { SMTPServer: smtp.host, SMTPPort: smtp.port, SMTPFrom: 'gate@example.com' });
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  async function registeredEmail(): Promise<string> {
    const { id } = await signUp(server, uniqueName('orc'));
    const email = `${uniqueName('reg')}@example.com`;
    await server.context.database.db.updateTable('users').set({ email }).where('id', '=', id).execute();
    return email;
  }

  test('a reset request answers alike for registered and unregistered addresses, and mails only the first', async () => {
    const registered = await registeredEmail();
    const unregistered = `${uniqueName('none')}@example.com`;
    const ask = (email: string) => server.client().get(`/api/reset_password?email=${encodeURIComponent(email)}`);

    const forUnregistered = await ask(unregistered);
    const forRegistered = await ask(registered);
    expect(forRegistered.status).toBe(forUnregistered.status);
    expect(forRegistered.text).toBe(forUnregistered.text);
    expect(forRegistered.body).toEqual({ success: true, message: '', data: null });

    await smtp.waitForMail((mail) => mail.envelopeTo.includes(registered));
    // Sent after the registered one: had the unregistered address been mailed, it would be here by now.
    const marker = await registeredEmail();
    await ask(marker);
    await smtp.waitForMail((mail) => mail.envelopeTo.includes(marker));
    expect(smtp.mails.some((mail) => mail.envelopeTo.includes(unregistered))).toBe(false);

    // Without SMTP both answers are the same refusal.
    await setOptions(root, { SMTPServer: '' });
    try {
      const a = await ask(registered);
      const b = await ask(unregistered);
      expect(a.text).toBe(b.text);
      expect(a.body.success).toBe(false);
    } finally {
      await setOptions(root, { SMTPServer: smtp.host });
    }
  });

  test('sign-up with email verification says "taken" only to whoever holds a valid code', async () => {
    const taken = await registeredEmail();
    await setOptions(root, { EmailVerificationEnabled: true });
    try {
      const free = `${uniqueName('free')}@example.com`;
      const attempt = (email: string) =>
        server.client().post('/api/user/register', {
          username: uniqueName('new'),
          password: 'password123',
          email,
          verification_code: 'abcdef',
        });
      const forTaken = await attempt(taken);
      const forFree = await attempt(free);
      expect(forTaken.body).toEqual({ success: false, message: '验证码错误或已过期' });
      expect(forTaken.text).toBe(forFree.text);
    } finally {
      await setOptions(root, { EmailVerificationEnabled: false });
    }
  });
});
