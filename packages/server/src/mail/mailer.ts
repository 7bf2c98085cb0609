import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import { maskUrlPassword } from '../util.js';

/**
 * Mail the judge sends (confirmations, password resets, the administrator's test): over SMTP when
 * the `mail.smtpUrl` setting names a server, otherwise written as an `.eml` file to
 * DATA_DIR/outbox/ and logged, so that a single box works without a mail server (decisions §4).
 * A message may carry a secret link: what is logged is its address and subject, never its body,
 * and the SMTP URL's password is only ever shown masked (`maskSmtpUrl`).
 */

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Where a message went. */
export interface Sent {
  transport: 'smtp' | 'outbox';
  messageId: string;
  /** outbox: the file's name under DATA_DIR/outbox/. */
  file?: string;
  /** smtp: the server's answer to the message, e.g. "250 OK: queued as 12345". */
  response?: string;
}

/** A message the SMTP server refused or could not be reached for; `message` names why, with no secret in it. */
export class MailFailed extends Error {}

export interface Mailer {
  readonly transport: 'smtp' | 'outbox';
  /** The sender every message has (the `mail.from` setting, or judge@ the public host). */
  readonly from: string;
  send(mail: Mail): Promise<Sent>;
  close(): void;
}

export interface MailerOptions {
  /** The `mail.smtpUrl` setting: smtp://user:password@host:port or smtps://…; empty for the outbox. */
  smtpUrl: string;
  /** The `mail.from` setting; empty: judge@ the host of `publicUrl`, else of this machine. */
  from: string;
  publicUrl: string;
  dataDir: string;
  log: Logger;
  /** How long to wait for the SMTP server's connection, greeting and each answer (default 10 s, 10 s, 30 s). */
  timeouts?: { connectionMs: number; greetingMs: number; socketMs: number };
}

/** The SMTP URL with its password replaced by `***`: what is logged or shown of the setting. */
export function maskSmtpUrl(setting: string): string {
  return setting ? maskUrlPassword(setting, /pass/i) : '';
}

function defaultFrom(publicUrl: string): string {
  let host = hostname() || 'localhost';
  if (publicUrl) host = new URL(publicUrl).hostname;
  return `judge@${host}`;
}

export function openMailer(o: MailerOptions): Mailer {
  const from = o.from || defaultFrom(o.publicUrl);
  return o.smtpUrl ? smtpMailer(o, from) : outboxMailer(join(o.dataDir, 'outbox'), from, o.log);
}

/** Why sending failed, in words an administrator can act on; the URL's credentials never in it. */
function reasonOf(e: unknown, smtpUrl: string): string {
  const err = e as { code?: string; responseCode?: number; response?: string; message?: string };
  const where = maskSmtpUrl(smtpUrl);
  if (err.responseCode) return `the SMTP server ${where} answered ${err.response ?? err.responseCode}`;
  const password = URL.canParse(smtpUrl) ? decodeURIComponent(new URL(smtpUrl).password) : '';
  const message = password ? (err.message ?? String(e)).split(password).join('***') : (err.message ?? String(e));
  return `${err.code ? `${err.code}: ` : ''}${message} (${where})`;
}

function smtpMailer(o: MailerOptions, from: string): Mailer {
  const t = o.timeouts ?? { connectionMs: 10_000, greetingMs: 10_000, socketMs: 30_000 };
  const transport = nodemailer.createTransport({
    url: o.smtpUrl,
    connectionTimeout: t.connectionMs,
    greetingTimeout: t.greetingMs,
    socketTimeout: t.socketMs,
  } as Parameters<typeof nodemailer.createTransport>[0]);
  return {
    transport: 'smtp',
    from,
    async send(mail) {
      try {
        const info = (await transport.sendMail({ from, ...mail })) as { messageId: string; response: string };
        o.log.info({ to: mail.to, subject: mail.subject, messageId: info.messageId }, 'mail sent');
        return { transport: 'smtp', messageId: info.messageId, response: info.response };
      } catch (e) {
        const reason = reasonOf(e, o.smtpUrl);
        o.log.warn({ to: mail.to, subject: mail.subject, reason }, 'mail not sent');
        throw new MailFailed(reason);
      }
    },
    close: () => transport.close(),
  };
}

function outboxMailer(dir: string, from: string, log: Logger): Mailer {
  // builds the message as SMTP would send it, without sending it anywhere
  const compose = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    transport: 'outbox',
    from,
    async send(mail) {
      const info = (await compose.sendMail({ from, ...mail })) as { messageId: string; message: Buffer };
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      // sortable by time, unique without a counter shared between servers
      const file = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
      // 0600: a message may carry a single-use link
      writeFileSync(join(dir, file), info.message, { mode: 0o600 });
      log.info({ to: mail.to, subject: mail.subject, file: `outbox/${file}` }, 'mail written to the outbox (no mail.smtpUrl set)');
      return { transport: 'outbox', messageId: info.messageId, file };
    },
    close: () => compose.close(),
  };
}
