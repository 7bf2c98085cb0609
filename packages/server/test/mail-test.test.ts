import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops } from '@judge/contract';
import { simpleParser } from 'mailparser';
import type { JudgeClient } from '@judge/sdk';
import { loadConfig } from '@judge/server';
import { refusedWith, sendJson } from './expect.js';
import { TestJudge } from './harness.js';
import { startSmtpPeer, type SmtpPeer } from './support/smtp-peer.js';
import { until } from './support/wait.js';

/**
 * POST /admin/mail/test (extension): the administrator's check of the mail settings, against a real
 * SMTP server started here, and into DATA_DIR/outbox/ when none is set. What is logged or answered
 * never holds the SMTP password or a message's body.
 */

const FROM = 'Judge <judge@school.example>';
const logOf = (j: TestJudge) => {
  const f = join(j.dataDir, 'logs', 'judge.log');
  return existsSync(f) ? readFileSync(f, 'utf8') : '';
};

describe('mail over SMTP', () => {
  let smtp: SmtpPeer;
  let j: TestJudge;
  let admin: JudgeClient;
  beforeAll(async () => {
    smtp = await startSmtpPeer();
    j = await TestJudge.start({ config: { logLevel: 'info', mail: { smtpUrl: smtp.url(), from: FROM } } });
    admin = await j.admin();
  });
  afterAll(async () => {
    await j?.stop();
    await smtp?.close();
  });

  it('sends the test message at once, in plain text and HTML, with the instance name escaped in the HTML', async () => {
    await admin.call(ops.updateInstance, { body: { name: 'Lab <b>&</b> judge' } });
    const r = await admin.call(ops.sendTestMail, { body: { to: 'teacher@school.example' } });
    expect(r).toMatchObject({ transport: 'smtp', from: FROM, messageId: expect.stringMatching(/^<.+>$/), response: expect.stringMatching(/^250/) });
    expect(r.file).toBeUndefined();
    expect(smtp.received).toHaveLength(1);
    const { envelopeTo, mail } = smtp.received[0]!;
    expect(envelopeTo).toEqual(['teacher@school.example']);
    expect(mail.from?.value).toEqual([{ name: 'Judge', address: 'judge@school.example' }]);
    expect(mail.subject).toBe('Test message from Lab <b>&</b> judge');
    expect(mail.text).toContain('This is a test message from Lab <b>&</b> judge');
    expect(mail.html).toContain('<strong>Lab &#60;b&#62;&#38;&#60;/b&#62; judge</strong>');
    expect(mail.html).not.toContain('<b>&</b>');
    await until('the log line', () => (logOf(j).includes('"mail sent"') ? true : undefined), 5000, 20);
    const log = logOf(j);
    expect(log).toContain('teacher@school.example');
    expect(log).not.toContain('smtp-secret-for-tests');
    expect(log).not.toContain('Nothing needs doing');
  });

  it('refuses anyone but an administrator, and an address that is not one, sending nothing', async () => {
    const before = smtp.received.length;
    const pupil = await j.signIn(await j.user('mail-pupil'));
    await refusedWith(pupil.call(ops.sendTestMail, { body: { to: 'x@school.example' } }), 403, 'forbidden');
    await refusedWith(j.anonymous().call(ops.sendTestMail, { body: { to: 'x@school.example' } }), 401, 'unauthenticated');
    for (const body of [{ to: 'not an address' }, { to: '' }, {}, { to: 'a@b.example\r\nBcc: evil@example.org' }]) {
      const res = await sendJson(j.url, 'POST', '/admin/mail/test', admin.accessToken, body);
      expect({ status: res.status, code: res.body?.code }).toEqual({ status: 422, code: 'validation_failed' });
    }
    expect(smtp.received.length).toBe(before);
  });

  it('answers 502 mail.failed with the server refusing the password, never showing it', async () => {
    const wrong = await TestJudge.start({ config: { mail: { smtpUrl: smtp.url('not-the-password-42'), from: FROM } } });
    try {
      const e = await refusedWith((await wrong.admin()).call(ops.sendTestMail, { body: { to: 'teacher@school.example' } }), 502, 'mail.failed');
      expect(e.detail).toMatch(/535/);
      expect(e.detail).toContain(`smtp://judge:***@127.0.0.1:${smtp.port}`);
      expect(JSON.stringify(e.document)).not.toContain('not-the-password-42');
      expect(logOf(wrong)).not.toContain('not-the-password-42');
    } finally {
      await wrong.stop();
    }
  });

  it('answers 502 mail.failed when no SMTP server listens there', async () => {
    const closed = await startSmtpPeer();
    const url = closed.url('gone-password-77');
    await closed.close();
    const unreachable = await TestJudge.start({ config: { mail: { smtpUrl: url, from: FROM } } });
    try {
      const e = await refusedWith((await unreachable.admin()).call(ops.sendTestMail, { body: { to: 'teacher@school.example' } }), 502, 'mail.failed');
      expect(e.detail).toMatch(/ECONNREFUSED/);
      expect(e.detail).not.toContain('gone-password-77');
    } finally {
      await unreachable.stop();
    }
  });
});

describe('mail without an SMTP server', () => {
  let j: TestJudge;
  beforeAll(async () => {
    j = await TestJudge.start({ config: { logLevel: 'info', publicUrl: 'https://judge.school.example' } });
  });
  afterAll(() => j?.stop());

  it('writes the message to DATA_DIR/outbox/ (0600) and logs where, not what it says', async () => {
    const admin = await j.admin();
    const r = await admin.call(ops.sendTestMail, { body: { to: 'teacher@school.example' } });
    // no mail.from: judge@ the public host
    expect(r).toMatchObject({ transport: 'outbox', from: 'judge@judge.school.example', file: expect.stringMatching(/^[\w-]+\.eml$/) });
    const outbox = join(j.dataDir, 'outbox');
    expect(readdirSync(outbox)).toEqual([r.file]);
    const path = join(outbox, r.file!);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const mail = await simpleParser(readFileSync(path));
    expect(mail.to && 'text' in mail.to ? mail.to.text : '').toBe('teacher@school.example');
    expect(mail.subject).toBe('Test message from Judge');
    expect(mail.text).toContain('(https://judge.school.example)');
    expect(mail.html).toContain('Nothing needs doing');
    await until('the log line', () => (logOf(j).includes(`outbox/${r.file}`) ? true : undefined), 5000, 20);
    expect(logOf(j)).not.toContain('Nothing needs doing');
  });
});

describe('the mail settings', () => {
  it('reads mail.smtpUrl and mail.from from JUDGE_MAIL_SMTP_URL and JUDGE_MAIL_FROM, and refuses what is not a mail server or an address without showing a password', () => {
    const dir = mkdtempSync(join(tmpdir(), 'judge-mail-settings-'));
    try {
      expect(loadConfig(dir, {}, {}).mail).toEqual({ smtpUrl: '', from: '' });
      const env = { JUDGE_MAIL_SMTP_URL: 'smtps://judge:pw@mail.school.example:465', JUDGE_MAIL_FROM: 'Judge <judge@school.example>' };
      expect(loadConfig(dir, {}, env).mail).toEqual({ smtpUrl: env.JUDGE_MAIL_SMTP_URL, from: env.JUDGE_MAIL_FROM });
      const refusal = (e: Record<string, string>) => {
        try {
          loadConfig(dir, {}, e);
        } catch (err) {
          return (err as Error).message;
        }
        return 'accepted';
      };
      const http = refusal({ JUDGE_MAIL_SMTP_URL: 'https://judge:hidden-99@mail.school.example' });
      expect(http).toMatch(/^invalid configuration: mail\.smtpUrl: /);
      expect(http).not.toContain('hidden-99');
      expect(refusal({ JUDGE_MAIL_FROM: 'judge\r\nBcc: x@y.example' })).toMatch(/^invalid configuration: mail\.from: /);
      expect(refusal({ JUDGE_MAIL_FROM: 'no address' })).toMatch(/^invalid configuration: mail\.from: /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
