import { SMTPServer } from 'smtp-server';
import PostalMime from 'postal-mime';

/** One mail as the SMTP server received and parsed it. */
export interface ReceivedMail {
  envelopeFrom: string;
  envelopeTo: string[];
  subject: string;
  html: string;
  text: string;
  from: string;
  to: string[];
  /** The AUTH credentials the client used, when it authenticated. */
  auth?: { username: string; password: string };
}

/** A real SMTP server on 127.0.0.1 (no TLS) that keeps every mail it receives, parsed. */
export interface TestSmtpServer {
  host: string;
  port: number;
  mails: ReceivedMail[];
  /** Resolves with the first received mail (past or future) that satisfies the predicate. */
  waitForMail(predicate: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

export async function startSmtpServer(): Promise<TestSmtpServer> {
  const mails: ReceivedMail[] = [];
  const waiters: { predicate: (mail: ReceivedMail) => boolean; resolve: (mail: ReceivedMail) => void }[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, session, callback) {
      callback(null, { user: { username: auth.username ?? '', password: auth.password ?? '' } });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        void PostalMime.parse(Buffer.concat(chunks)).then((parsed) => {
          const mail: ReceivedMail = {
            envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            envelopeTo: session.envelope.rcptTo.map((recipient) => recipient.address),
            subject: parsed.subject ?? '',
            html: parsed.html ?? '',
            text: parsed.text ?? '',
            from: parsed.from?.address ?? '',
            to: (parsed.to ?? []).map((address) => address.address ?? ''),
            auth: session.user as ReceivedMail['auth'],
          };
          mails.push(mail);
          for (const waiter of [...waiters]) {
            if (waiter.predicate(mail)) {
              waiters.splice(waiters.indexOf(waiter), 1);
              waiter.resolve(mail);
            }
          }
          callback();
        }, callback);
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    host: '127.0.0.1',
    port,
    mails,
    waitForMail(predicate, timeoutMs = 10_000) {
      const found = mails.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = { predicate, resolve: (mail: ReceivedMail) => (clearTimeout(timer), resolve(mail)) };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(new Error('no matching mail arrived'));
        }, timeoutMs);
        waiters.push(waiter);
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
