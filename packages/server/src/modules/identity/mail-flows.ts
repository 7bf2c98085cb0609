import { ApiError } from '@judge/contract';
import { and, desc, eq } from 'drizzle-orm';
import type { Actor } from '../../auth/permissions.js';
import { accountCodes, users } from '../../db/schema.js';
import type { Q } from '../../db/storage.js';
import type { Outbox } from '../../db/transactor.js';
import { changeEmailMessage, confirmMessage, resetMessage, type MailLanguage } from '../../mail/account-messages.js';
import type { Deps } from '../../services.js';
import { iso } from '../../util.js';
import type { AccountService } from '../account/index.js';
import type { InstanceService } from '../instance/index.js';
import { announceUser, emailKey, emailTaken, findUserById, type UserRow } from '../users/index.js';
import { codeHolds, issueCode, spendCodes, takeCode, type CodePurpose } from './codes.js';

/** Where a message is read and in which language: the judge's address (publicUrl, else the request's) and the asker's. */
export interface MailPlace {
  site: string;
  language: MailLanguage;
}

/** One account gets at most one mail of a kind a minute, however often it is asked for. */
const MIN_GAP_MS = 60_000;

const invalidCode = () => ApiError.of('identity.code.invalid', 'The code is wrong, was used already or has expired; ask for a new one');

/**
 * The identity flows that go through the owner's mailbox (decisions §4): confirming an address
 * (at registration, on request, after a change of address), and resetting a forgotten password.
 * Codes are single-use, expire and are stored hashed (codes.ts); mail leaves after the write that
 * issued its code commits (mail/outgoing.ts). Asked anonymously for an address, the answer is the
 * same and as quick whether an account has it or not: what is mailed is decided after the answer.
 */
export class MailFlows {
  constructor(
    private readonly d: Deps,
    private readonly instance: InstanceService,
    private readonly account: AccountService,
  ) {}

  /** Inside registration's write: mails the new account a confirmation code when the instance wants addresses. */
  async confirmAtRegistration(q: Q, out: Outbox, row: UserRow, place: MailPlace): Promise<void> {
    const s = await this.instance.settings(q);
    if (!row.email || !(s.requireEmail || s.requireConfirmedEmail)) return;
    await this.mailConfirmation(q, out, row, row.email, false, place);
  }

  /** Mails a new confirmation code to an unconfirmed address: answered before it is decided. */
  resendConfirmation(email: string, place: MailPlace): void {
    const due = async (q: Q) => {
      const u = await this.byEmail(q, email);
      return u?.email && !u.emailConfirmed && !(await this.askedLately(q, u.id, 'confirm')) ? u : undefined;
    };
    this.afterAnswer(async () => {
      // a read decides first: asks for addresses nobody has must not queue up behind SQLite's one writer
      if (!(await this.d.tx.read(due))) return;
      await this.d.tx.write(async (q, out) => {
        const u = await due(q);
        if (u) await this.mailConfirmation(q, out, u, u.email!, false, place);
      });
    });
  }

  /** Mails a reset code to the account with this address: answered before it is decided. */
  forgotPassword(email: string, place: MailPlace): void {
    const due = async (q: Q) => {
      const u = await this.byEmail(q, email);
      // an account signing in elsewhere (no local password) or blocked gets nothing to reset
      return u?.email && u.isLocal && !u.blockedAt && !(await this.askedLately(q, u.id, 'reset')) ? u : undefined;
    };
    this.afterAnswer(async () => {
      if (!(await this.d.tx.read(due))) return;
      await this.d.tx.write(async (q, out) => {
        const u = await due(q);
        if (!u?.email) return;
        const { code } = await issueCode(q, u.id, 'reset', this.d.clock.now());
        const link = `${place.site}/reset-password?${new URLSearchParams({ email: u.email, code })}`;
        const mail = resetMessage({ to: u.email, language: place.language, instanceName: await this.name(q), username: u.username, code, link });
        out.then(() => this.d.outgoing.post(mail));
      });
    });
  }

  /**
   * Sets a new password with a reset code. The code is checked before the password is hashed (a
   * wrong one costs no hashing) and again in the write. Every session ends; the address counts as
   * confirmed, since the code was read there.
   */
  async resetPassword(email: string, code: string, newPassword: string): Promise<void> {
    const now = () => this.d.clock.now();
    const valid = await this.d.tx.read(async (q) => {
      const u = await this.byEmail(q, email);
      return u && u.isLocal ? { u, ok: await codeHolds(q, u.id, 'reset', code, now()) } : undefined;
    });
    if (!valid?.ok) throw invalidCode();
    const hash = await this.d.hasher.hash(newPassword);
    await this.d.tx.write(async (q, out) => {
      if (!(await takeCode(q, valid.u.id, 'reset', code, now()))) throw invalidCode();
      const [row] = await q.update(users).set({ passwordHash: hash, failedLogins: 0, lockedUntil: null, emailConfirmed: true }).where(eq(users.id, valid.u.id)).returning();
      await this.d.sessions.endAllOfUser(q, valid.u.id, 'passwordChanged', now(), out);
      await announceUser(q, row!, out);
    });
    this.d.log.info({ userId: valid.u.id }, 'password reset with a mailed code');
  }

  /** Confirms the address a code was mailed to; with `changedEmail`, makes that the account's address. */
  async confirmEmail(userId: string, code: string, changedEmail?: string): Promise<void> {
    await this.d.tx.write(async (q, out) => {
      const u = await findUserById(q, userId);
      if (!u) throw invalidCode();
      const taken = await takeCode(q, userId, 'confirm', code, this.d.clock.now(), changedEmail ?? u.email ?? '');
      if (!taken) throw invalidCode();
      if (changedEmail && (await emailTaken(q, changedEmail, userId))) throw ApiError.of('user.email.taken', 'Another account has this address now');
      const set = changedEmail ? { email: changedEmail.trim(), emailKey: emailKey(changedEmail), emailConfirmed: true } : { emailConfirmed: true };
      const [row] = await q.update(users).set(set).where(eq(users.id, userId)).returning();
      await announceUser(q, row!, out);
    });
  }

  /**
   * The caller's own change of address or password. A new address is mailed a code and changes
   * once confirmed; a new password needs the old one and ends the caller's other sessions.
   */
  async updateOwn(actor: Actor, body: { newEmail?: string | undefined; newPassword?: string | undefined; oldPassword?: string | undefined }, place: MailPlace): Promise<void> {
    if (body.newPassword) {
      await this.account.changePassword(actor, body.oldPassword ?? '', body.newPassword, {
        field: 'oldPassword',
        inWrite: (q) => spendCodes(q, actor.userId, 'reset', this.d.clock.now()),
      });
    }
    const newEmail = body.newEmail?.trim();
    if (!newEmail) return;
    await this.d.tx.write(async (q, out) => {
      const u = await findUserById(q, actor.userId);
      if (!u) return;
      if (u.emailKey === emailKey(newEmail) && u.emailConfirmed) return;
      if (await emailTaken(q, newEmail, u.id)) throw ApiError.of('user.email.taken', 'An account with this address exists');
      await this.mailConfirmation(q, out, u, newEmail, u.emailKey !== emailKey(newEmail), place);
    });
  }

  private async mailConfirmation(q: Q, out: Outbox, u: UserRow, to: string, change: boolean, place: MailPlace): Promise<void> {
    const { code } = await issueCode(q, u.id, 'confirm', this.d.clock.now(), to);
    const params = new URLSearchParams({ userId: u.id, code, ...(change ? { changedEmail: to } : {}) });
    const context = { to, language: place.language, instanceName: await this.name(q), username: u.username, code, link: `${place.site}/confirm-email?${params}` };
    const mail = change ? changeEmailMessage(context) : confirmMessage(context);
    out.then(() => this.d.outgoing.post(mail));
  }

  /** Whether a code of this purpose was issued to the account within the last minute (one mail a minute at most). */
  private async askedLately(q: Q, userId: string, purpose: CodePurpose): Promise<boolean> {
    const [last] = await q
      .select({ createdAt: accountCodes.createdAt })
      .from(accountCodes)
      .where(and(eq(accountCodes.userId, userId), eq(accountCodes.purpose, purpose)))
      .orderBy(desc(accountCodes.createdAt))
      .limit(1);
    return !!last && last.createdAt > iso(new Date(this.d.clock.now().getTime() - MIN_GAP_MS));
  }

  private async byEmail(q: Q, email: string): Promise<UserRow | undefined> {
    return (await q.select().from(users).where(eq(users.emailKey, emailKey(email)!)).limit(1))[0];
  }

  private async name(q: Q): Promise<string> {
    return (await this.instance.settings(q)).name;
  }

  /** Runs after the answer went out, tracked with the mail so that a stopping server waits for it. */
  private afterAnswer(task: () => Promise<void>): void {
    this.d.outgoing.track(new Promise<void>((resolve) => setImmediate(resolve)).then(task));
  }
}
