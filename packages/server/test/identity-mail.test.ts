import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ops } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { simpleParser } from 'mailparser';
import { accountCodes, users } from '../src/db/schema.js';
import { ManualClock, TestJudge } from './harness.js';
import { expectProblem, login, req } from './support/identity.js';
import { startSmtpPeer, type SmtpPeer } from './support/smtp-peer.js';
import { until } from './support/wait.js';

/**
 * The identity flows that go through the owner's mailbox (decisions §4), over real HTTP against a
 * real SMTP server: forgotten passwords, confirming an address at registration and on request,
 * changing one's address or password. Codes are single-use, expire, are stored hashed, and the
 * anonymous requests answer alike for known and unknown addresses.
 */

const SITE = 'https://judge.school.example';
const PASSWORD = 'a long enough password';
const NEW_PASSWORD = 'another long password';
const CODE = /\b([0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4})\b/;

describe('mail flows over SMTP', () => {
  const clock = new ManualClock();
  let smtp: SmtpPeer;
  let j: TestJudge;
  let admin: JudgeClient;
  let n = 0;

  beforeAll(async () => {
    smtp = await startSmtpPeer();
    j = await TestJudge.start({ clock, config: { publicUrl: SITE, mail: { smtpUrl: smtp.url(), from: 'judge@school.example' } } });
    admin = await j.admin();
    await admin.call(ops.updateInstance, { body: { name: 'Lab judge' } });
  });
  afterAll(async () => {
    await j?.stop();
    await smtp?.close();
  });

  /** An account with an address, made by the administrator, and the password it was issued. */
  async function account(): Promise<{ id: string; username: string; email: string; password: string }> {
    const username = `pupil${++n}`;
    const email = `${username}@school.example`;
    return { ...(await j.user(username, { email })), email };
  }

  const mailsTo = (address: string) => smtp.received.filter((r) => r.envelopeTo.includes(address)).map((r) => r.mail);
  /** Waits for the `count`th message to an address and answers it with its code and link. */
  async function mailed(address: string, count = 1) {
    const mail = await until(`message ${count} to ${address}`, () => mailsTo(address)[count - 1], 10_000, 20);
    const code = CODE.exec(mail.text ?? '')?.[1];
    const link = /https:\/\/\S+/.exec(mail.text ?? '')?.[0];
    expect(code, mail.text).toBeDefined();
    return { mail, code: code!, link: new URL(link!) };
  }
  /** Lets the work that follows an anonymous answer finish, so that "nothing was sent" is seen, not guessed. */
  const settled = () => j.app.deps.outgoing.idle();
  const passwordHash = async (id: string) => (await j.app.deps.tx.read((q) => q.select().from(users).where(eq(users.id, id))))[0]!.passwordHash;

  describe('forgotPassword and resetPassword', () => {
    it('mails a code and a link to the reset page; the code sets a new password once and ends every session', async () => {
      const u = await account();
      const before = await j.signIn(u);
      const r = await req(j, 'POST', '/identity/forgotPassword', { body: { email: u.email.toUpperCase() } });
      expect(r.status).toBe(204);
      const { mail, code, link } = await mailed(u.email);
      expect(mail.subject).toBe('Reset your password for Lab judge');
      expect(mail.text).toContain(u.username);
      expect(mail.html).toContain(code);
      expect(link.origin + link.pathname).toBe(`${SITE}/reset-password`);
      expect(Object.fromEntries(link.searchParams)).toEqual({ email: u.email, code });
      // only the hash is stored
      const stored = await j.app.deps.tx.read((q) => q.select().from(accountCodes).where(eq(accountCodes.userId, u.id)));
      expect(stored).toHaveLength(1);
      expect(JSON.stringify(stored)).not.toContain(code.replace(/-/g, ''));
      expect(JSON.stringify(stored)).not.toContain(code);

      // typed in lower case with spaces: the same code
      const typed = code.toLowerCase().replace(/-/g, ' ');
      expect((await req(j, 'POST', '/identity/resetPassword', { body: { email: u.email, resetCode: typed, newPassword: NEW_PASSWORD } })).status).toBe(204);
      expect((await login(j, u.username, NEW_PASSWORD)).status).toBe(200);
      expectProblem(await login(j, u.username, u.password), 401, 'unauthenticated', 'Failed');
      await expect(before.call(ops.getAccount)).rejects.toMatchObject({ status: 401 });
      // once only
      expectProblem(await req(j, 'POST', '/identity/resetPassword', { body: { email: u.email, resetCode: code, newPassword: u.password } }), 422, 'identity.code.invalid');
      expect((await login(j, u.username, NEW_PASSWORD)).status).toBe(200);
    });

    it('answers an unknown address exactly as a known one, and mails nothing for it', async () => {
      const u = await account();
      const known = await req(j, 'POST', '/identity/forgotPassword', { body: { email: u.email } });
      const unknown = await req(j, 'POST', '/identity/forgotPassword', { body: { email: 'nobody@school.example' } });
      expect([known.status, known.text]).toEqual([204, '']);
      expect([unknown.status, unknown.text]).toEqual([204, '']);
      await mailed(u.email);
      await settled();
      expect(mailsTo('nobody@school.example')).toEqual([]);
      // a reset for an address no account has is refused like a wrong code
      expectProblem(await req(j, 'POST', '/identity/resetPassword', { body: { email: 'nobody@school.example', resetCode: 'AAAA-AAAA-AAAA-AAAA', newPassword: NEW_PASSWORD } }), 422, 'identity.code.invalid');
    });

    it('refuses a wrong, expired or superseded code, changing nothing; mails an account once a minute at most', async () => {
      const u = await account();
      const hash = await passwordHash(u.id);
      await req(j, 'POST', '/identity/forgotPassword', { body: { email: u.email } });
      const first = await mailed(u.email);
      // asked again at once: no second message
      await req(j, 'POST', '/identity/forgotPassword', { body: { email: u.email } });
      await settled();
      expect(mailsTo(u.email)).toHaveLength(1);
      expectProblem(await req(j, 'POST', '/identity/resetPassword', { body: { email: u.email, resetCode: 'ZZZZ-ZZZZ-ZZZZ-ZZZZ', newPassword: NEW_PASSWORD } }), 422, 'identity.code.invalid');
      // another account's address with this code
      const other = await account();
      expectProblem(await req(j, 'POST', '/identity/resetPassword', { body: { email: other.email, resetCode: first.code, newPassword: NEW_PASSWORD } }), 422, 'identity.code.invalid');
      // a minute later a new code is mailed, and the first one no longer works
      clock.advance(61);
      await req(j, 'POST', '/identity/forgotPassword', { body: { email: u.email } });
      const second = await mailed(u.email, 2);
      expect(second.code).not.toBe(first.code);
      expectProblem(await req(j, 'POST', '/identity/resetPassword', { body: { email: u.email, resetCode: first.code, newPassword: NEW_PASSWORD } }), 422, 'identity.code.invalid');
      // past its hour it expires
      clock.advance(3601);
      // the administrator's access token lapsed with the hour
      admin = await j.admin();
      expectProblem(await req(j, 'POST', '/identity/resetPassword', { body: { email: u.email, resetCode: second.code, newPassword: NEW_PASSWORD } }), 422, 'identity.code.invalid');
      expect(await passwordHash(u.id)).toBe(hash);
      // a short password is refused before the code is looked at
      expectProblem(await req(j, 'POST', '/identity/resetPassword', { body: { email: u.email, resetCode: second.code, newPassword: 'short' } }), 422, 'validation_failed');
      expectProblem(await req(j, 'POST', '/identity/forgotPassword', { body: { email: 'not an address' } }), 422, 'validation_failed');
      expect(await passwordHash(u.id)).toBe(hash);
    });

    it("writes in the asker's language", async () => {
      const u = await account();
      await req(j, 'POST', '/identity/forgotPassword', { body: { email: u.email }, headers: { 'accept-language': 'fr;q=0.9, de-AT;q=0.8, en;q=0.5' } });
      const { mail } = await mailed(u.email);
      expect(mail.subject).toBe('Passwort für Lab judge zurücksetzen');
      expect(mail.text).toContain('Passwort vergessen?');
    });
  });

  describe('confirming an address', () => {
    it('mails a confirmation at registration when the instance requires confirmed addresses; sign-in waits for it', async () => {
      await admin.call(ops.updateInstance, { body: { localRegistrationEnabled: true, requireConfirmedEmail: true } });
      try {
        const email = `self${++n}@school.example`;
        expect((await req(j, 'POST', '/identity/register', { body: { email, password: PASSWORD } })).status).toBe(204);
        expectProblem(await login(j, email, PASSWORD), 401, 'unauthenticated', 'NotAllowed');
        const first = await mailed(email);
        expect(first.mail.subject).toBe('Confirm your address for Lab judge');
        expect(first.link.pathname).toBe('/confirm-email');
        const userId = first.link.searchParams.get('userId')!;
        expect(first.link.searchParams.get('code')).toBe(first.code);
        expect(first.link.searchParams.has('changedEmail')).toBe(false);

        // asked again a minute later: a new code, the first one spent
        clock.advance(61);
        expect((await req(j, 'POST', '/identity/resendConfirmationEmail', { body: { email } })).status).toBe(204);
        const second = await mailed(email, 2);
        expectProblem(await req(j, 'GET', `/identity/confirmEmail?${new URLSearchParams({ userId, code: first.code })}`), 422, 'identity.code.invalid');
        // a code confirms only the account it was mailed for
        const other = await account();
        expectProblem(await req(j, 'GET', `/identity/confirmEmail?${new URLSearchParams({ userId: other.id, code: second.code })}`), 422, 'identity.code.invalid');
        expect((await req(j, 'GET', `/identity/confirmEmail?${new URLSearchParams({ userId, code: second.code })}`)).status).toBe(204);
        expect((await login(j, email, PASSWORD)).status).toBe(200);
        // confirmed: nothing more is mailed, and the code is spent
        clock.advance(61);
        await req(j, 'POST', '/identity/resendConfirmationEmail', { body: { email } });
        await settled();
        expect(mailsTo(email)).toHaveLength(2);
        expectProblem(await req(j, 'GET', `/identity/confirmEmail?${new URLSearchParams({ userId, code: second.code })}`), 422, 'identity.code.invalid');
      } finally {
        await admin.call(ops.updateInstance, { body: { localRegistrationEnabled: false, requireConfirmedEmail: false } });
      }
    });

    it('mails nothing at registration when the instance asks for no address', async () => {
      await admin.call(ops.updateInstance, { body: { localRegistrationEnabled: true } });
      try {
        const email = `quiet${++n}@school.example`;
        expect((await req(j, 'POST', '/identity/register', { body: { email, password: PASSWORD } })).status).toBe(204);
        await settled();
        expect(mailsTo(email)).toEqual([]);
        expect((await login(j, email, PASSWORD)).status).toBe(200);
      } finally {
        await admin.call(ops.updateInstance, { body: { localRegistrationEnabled: false } });
      }
    });

    it('refuses malformed queries', async () => {
      expectProblem(await req(j, 'GET', '/identity/confirmEmail?userId=x'), 422, 'validation_failed');
      expectProblem(await req(j, 'GET', '/identity/confirmEmail?userId=x&code=AAAA&changedEmail=nope'), 422, 'validation_failed');
      expectProblem(await req(j, 'GET', '/identity/confirmEmail?userId=no-such-user&code=AAAA-AAAA-AAAA-AAAA'), 422, 'identity.code.invalid');
    });
  });

  describe('POST /identity/manage/info', () => {
    it('changes the address once the code mailed to the new one is confirmed', async () => {
      const u = await account();
      const c = await j.signIn(u);
      const next = `new-${u.email}`;
      expect(await c.call(ops.updateManageInfo, { body: { newEmail: next } })).toEqual({ email: u.email, isEmailConfirmed: false });
      const { mail, code, link } = await mailed(next);
      expect(mailsTo(u.email)).toEqual([]);
      expect(mail.subject).toBe('Confirm your new address for Lab judge');
      expect(link.searchParams.get('changedEmail')).toBe(next);
      // without changedEmail the code does not confirm the old address
      expectProblem(await req(j, 'GET', `/identity/confirmEmail?${new URLSearchParams({ userId: u.id, code })}`), 422, 'identity.code.invalid');
      expect((await req(j, 'GET', `/identity/confirmEmail?${link.searchParams}`)).status).toBe(204);
      expect(await c.call(ops.getManageInfo)).toEqual({ email: next, isEmailConfirmed: true });
      expect((await login(j, next, u.password)).status).toBe(200);
    });

    it("refuses an address another account has, and a new password without the old one or with a wrong one", async () => {
      const u = await account();
      const other = await account();
      const c = await j.signIn(u);
      await expect(c.call(ops.updateManageInfo, { body: { newEmail: other.email.toUpperCase() } })).rejects.toMatchObject({ status: 409, code: 'user.email.taken' });
      await expect(c.call(ops.updateManageInfo, { body: { newPassword: NEW_PASSWORD } })).rejects.toMatchObject({ status: 422, code: 'validation_failed' });
      await expect(c.call(ops.updateManageInfo, { body: { newPassword: NEW_PASSWORD, oldPassword: 'wrong password!' } })).rejects.toMatchObject({ status: 422, code: 'account.password.wrong' });
      await settled();
      expect(mailsTo(other.email)).toEqual([]);
      expectProblem(await req(j, 'POST', '/identity/manage/info', { body: { newEmail: 'x@school.example' } }), 401, 'unauthenticated');
      expect((await login(j, u.username, u.password)).status).toBe(200);
    });

    it('sets a new password with the old one and ends the other sessions, not this one', async () => {
      const u = await account();
      const c = await j.signIn(u);
      const elsewhere = await j.signIn(u);
      await c.call(ops.updateManageInfo, { body: { newPassword: NEW_PASSWORD, oldPassword: u.password } });
      await expect(elsewhere.call(ops.getAccount)).rejects.toMatchObject({ status: 401 });
      expect((await c.call(ops.getAccount)).username).toBe(u.username);
      expect((await login(j, u.username, NEW_PASSWORD)).status).toBe(200);
    });
  });

  it('shows administrators the outgoing mail in /health, and nobody else', async () => {
    const h = await admin.call(ops.health);
    expect(h.mail).toEqual({ transport: 'smtp', pending: 0, failures: [] });
    const u = await account();
    const c = await j.signIn(u);
    expect((await c.call(ops.health)).mail).toBeUndefined();
    expect((await j.anonymous().call(ops.health)).mail).toBeUndefined();
  });
});

describe('mail flows without an SMTP server', () => {
  let j: TestJudge;
  beforeAll(async () => {
    j = await TestJudge.start({ config: { logLevel: 'info' } });
  });
  afterAll(() => j?.stop());

  it('writes the reset message to the outbox, with links to the address the request came to, and never logs the code', async () => {
    const u = await j.user('outboxed', { email: 'outboxed@school.example' });
    expect((await req(j, 'POST', '/identity/forgotPassword', { body: { email: 'outboxed@school.example' } })).status).toBe(204);
    const dir = join(j.dataDir, 'outbox');
    const file = await until('the outbox file', () => (existsSync(dir) ? readdirSync(dir)[0] : undefined), 10_000, 20);
    const mail = await simpleParser(readFileSync(join(dir, file)));
    const code = CODE.exec(mail.text ?? '')![1]!;
    expect(mail.text).toContain(`${j.url}/reset-password?`);
    // The log is written asynchronously: its line may come a moment after the outbox file.
    const logFile = join(j.dataDir, 'logs', 'judge.log');
    const log = await until('the outbox line in the log', () => {
      const text = readFileSync(logFile, 'utf8');
      return text.includes('outboxed@school.example') ? text : undefined;
    }, 10_000, 20);
    expect(log).not.toContain(code);
    expect((await req(j, 'POST', '/identity/resetPassword', { body: { email: 'outboxed@school.example', resetCode: code, newPassword: NEW_PASSWORD } })).status).toBe(204);
    expect((await login(j, u.username, NEW_PASSWORD)).status).toBe(200);
  });
});
