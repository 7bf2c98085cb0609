import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server for tests (smtp-server), on an ephemeral port of 127.0.0.1: it takes mail only
 * from `user` with `password` (AUTH PLAIN/LOGIN over the plain connection, as a local relay may),
 * and keeps every message it accepted, parsed.
 */
export interface SmtpPeer {
  port: number;
  /** smtp://user:password@127.0.0.1:port */
  url(password?: string): string;
  received: { envelopeTo: string[]; mail: ParsedMail }[];
  close(): Promise<void>;
}

/** `refuseFirst`: how many messages to refuse (451, try again later) before taking any. */
export async function startSmtpPeer(user = 'judge', password = 'smtp-secret-for-tests', opts: { refuseFirst?: number } = {}): Promise<SmtpPeer> {
  const received: SmtpPeer['received'] = [];
  let toRefuse = opts.refuseFirst ?? 0;
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    onAuth(auth, _session, done) {
      if (auth.username === user && auth.password === password) done(null, { user });
      else done(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onData(stream, session, done) {
      if (toRefuse > 0) {
        toRefuse--;
        stream.resume();
        stream.on('end', () => done(Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 })));
        return;
      }
      simpleParser(stream)
        .then((mail) => {
          received.push({ envelopeTo: session.envelope.rcptTo.map((r) => r.address), mail });
          done();
        })
        .catch(done);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    url: (pw = password) => `smtp://${user}:${encodeURIComponent(pw)}@127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
