import type { AppContext } from '../../context.js';
import { escapeHtml } from './mailer.js';

/** Sends the email-verification code ("<SystemName> 邮箱验证邮件"). */
export async function sendVerificationMail(
  context: AppContext,
  email: string,
  code: string,
  validMinutes: number,
): Promise<void> {
  const systemName = context.options.string('SystemName');
  const subject = `${systemName} 邮箱验证邮件`;
  const body =
    `<p>您好，您正在进行 ${escapeHtml(systemName)} 邮箱验证。</p>` +
    `<p>您的验证码为：<strong>${escapeHtml(code)}</strong></p>` +
    `<p>验证码 ${validMinutes} 分钟内有效，如果不是本人操作，请忽略。</p>`;
  await context.mailer.send(email, subject, subject, body);
}

/** Sends the password-reset link ("<SystemName> 密码重置"), built on ServerAddress. */
export async function sendPasswordResetMail(
  context: AppContext,
  email: string,
  token: string,
  validMinutes: number,
): Promise<void> {
  const systemName = context.options.string('SystemName');
  const serverAddress = context.options.string('ServerAddress').replace(/\/+$/, '');
  const link = `${serverAddress}/user/reset?email=${encodeURIComponent(email)}&token=${encodeURIComponent(token)}`;
  const subject = `${systemName} 密码重置`;
  const safeLink = escapeHtml(link);
  const body =
    `<p>您好，您正在进行 ${escapeHtml(systemName)} 密码重置。</p>` +
    `<p>点击 <a href="${safeLink}">此处</a> 进行密码重置。</p>` +
    `<p>如果链接无法点击，请将下面的链接复制到浏览器中打开：<br>${safeLink}</p>` +
    `<p>重置链接 ${validMinutes} 分钟内有效，如果不是本人操作，请忽略。</p>`;
  await context.mailer.send(email, subject, subject, body);
}
