import { AppError } from '../../lib/errors.js';
import type { OptionStore } from '../option/option.store.js';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

/** Wraps a mail body in the one template every mail uses: title, body, an automatic-mail footer. */
export function renderMail(systemName: string, title: string, bodyHtml: string): string {
  return `<div style="max-width:600px;margin:0 auto;font-family:sans-serif">
<h2 style="text-align:center">${escapeHtml(title)}</h2>
<div>${bodyHtml}</div>
<hr><p style="color:#888;font-size:12px">此邮件由系统自动发送，请勿直接回复 / This mail was sent automatically, please do not reply. — ${escapeHtml(systemName)}</p>
</div>`;
}

export { escapeHtml };

/** Sends mail through the SMTP server configured in the options (read at send time, so edits apply at once). */
export class Mailer {
  constructor(private readonly options: OptionStore) {}

  async send(to: string, subject: string, title: string, bodyHtml: string): Promise<void> {
    const host = this.options.string('SMTPServer');
    if (!host)
      throw new AppError('smtp_not_configured', { zh: 'SMTP 服务器未配置', en: 'SMTP server is not configured' });
    const port = this.options.number('SMTPPort');
    const account = this.options.string('SMTPAccount');
    const password = this.options.string('SMTPToken');
    const systemName = this.options.string('SystemName');
    // Loaded on the first mail: most processes never send one.
    const { default: nodemailer } = await import('nodemailer');
    const transport = nodemailer.createTransport({
      host,
      port,
      secure: port === 465,
      auth: account || password ? { user: account, pass: password } : undefined,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    });
    try {
      await transport.sendMail({
        from: { name: systemName, address: this.options.string('SMTPFrom') || account },
        to: to
          .split(';')
          .map((address) => address.trim())
          .filter(Boolean),
        subject,
        html: renderMail(systemName, title, bodyHtml),
      });
    } catch (error) {
      throw new AppError('send_email_failed', {
        zh: `发送邮件失败：${(error as Error).message}`,
        en: `failed to send email: ${(error as Error).message}`,
      });
    } finally {
      transport.close();
    }
  }
}
