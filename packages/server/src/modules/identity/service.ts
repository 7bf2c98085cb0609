import type { LoginFailure, TokenResponse } from '@judge/contract';
import { eq } from 'drizzle-orm';
import type { Actor } from '../../auth/permissions.js';
import type { ClientInfo, IssuedSession, SessionKind } from '../../auth/sessions.js';
import { users } from '../../db/schema.js';
import type { Q } from '../../db/storage.js';
import { ApiError, unauthenticated } from '@judge/contract';
import type { Deps } from '../../services.js';
import { addSeconds, iso, newId } from '../../util.js';
import type { AccountService } from '../account/index.js';
import { admitSignIn, type InstanceService } from '../instance/index.js';
import { emailKey, emailTaken, findUserById, findUserByLogin, freeUsername, loginStem, usernameKey, usernameTaken } from '../users/index.js';
import { announceUser } from '../users/index.js';
import { memoryMarks, sharedMarks, type LockoutMarks } from './lockout.js';
import { MailFlows, type MailPlace } from './mail-flows.js';
import { SignInBudget } from './sign-in-budget.js';
import { grantsCarry, TwoFactor, type SecondFactor, type TwoFactorRequest } from './two-factor.js';

export class LoginRefused extends ApiError {
  constructor(readonly reason: LoginFailure) {
    super('unauthenticated', reason);
  }
}

/** Sign-in, sign-out, tokens and self-registration (decisions §4). */
export class IdentityService {
  private readonly budget: SignInBudget;
  private readonly marks: LockoutMarks;
  /** Confirmations and password resets by mail. */
  readonly mail: MailFlows;
  readonly twoFactor: TwoFactor;

  constructor(
    private readonly d: Deps,
    private readonly instance: InstanceService,
    account: AccountService,
  ) {
    const { lockoutFailures, lockoutMinutes } = d.config.auth;
    this.budget = new SignInBudget(d.config.auth, d.limits);
    const lockMs = lockoutMinutes * 60_000;
    this.marks = d.limits.shared ? sharedMarks(d.limits, lockMs, lockoutFailures, lockMs) : memoryMarks(lockMs, lockoutFailures, lockMs);
    this.mail = new MailFlows(d, instance, account);
    this.twoFactor = new TwoFactor(d);
  }

  /** `place`: where and in which language the confirmation is read, when the instance asks for one. */
  async register(input: { email: string; password: string; username?: string | undefined; acceptedTerms?: boolean | undefined }, place: MailPlace): Promise<void> {
    const settings = await this.instance.settings();
    if (!settings.localRegistrationEnabled) throw ApiError.of('registration.closed', 'This installation does not take self-registration');
    // terms in force are accepted by whoever registers, and when is kept with the account
    const terms = (await this.instance.documents.inForce()).some((d) => d.kind === 'terms');
    if (terms && !input.acceptedTerms) throw ApiError.of('validation_failed', 'Accept the terms of use to register', { acceptedTerms: ['accept the terms of use to register'] });
    const hash = await this.d.hasher.hash(input.password);
    // PostgreSQL: the unique keys on login and address decide a race the checks below lose
    await this.d.tx.write(async (q, out) => {
      if (await emailTaken(q, input.email)) throw ApiError.of('user.email.taken', 'An account with this address exists');
      let username = input.username;
      if (username) {
        if (await usernameTaken(q, username)) throw ApiError.of('user.username.taken', `The login ${username} is taken`);
      } else {
        username = await loginFromAddress(q, input.email);
      }
      const now = iso(this.d.clock.now());
      const [row] = await q
        .insert(users)
        .values({
          id: newId(),
          username,
          usernameKey: usernameKey(username),
          email: input.email.trim(),
          emailKey: emailKey(input.email),
          passwordHash: hash,
          origin: 'self',
          termsAcceptedAt: terms ? now : null,
          approvedAt: settings.requireApproval ? null : now,
          createdAt: now,
        })
        .returning();
      await announceUser(q, row!, out);
      await this.mail.confirmAtRegistration(q, out, row!, place);
    });
  }

  /**
   * Signs in. Known and unknown names answer alike, in status, body and work done (an unknown name
   * hashes a dummy password, and has a budget and a lockout of its own). While an account is locked
   * or its budget of failures is spent, only addresses that failed against it are refused unheard:
   * any other address has its password checked, so a stranger's guesses cannot lock the owner out.
   * With two-factor sign-in on, the right password alone answers RequiresTwoFactor (a browser
   * remembered after an earlier persistent sign-in with a code excepted); a wrong code counts as a
   * wrong password. `machine` in the answer: the browser to remember (a persistent sign-in that
   * passed a code).
   */
  async login(login: string, password: string, kind: SessionKind, client: ClientInfo, second: SecondFactor = {}): Promise<IssuedSession & { machine?: { cookie: string; maxAgeMs: number } }> {
    const { current, factor, now } = await this.checkPassword(login, password, client, second);
    if (factor === 'required') throw new LoginRefused('RequiresTwoFactor');
    // a lock still running stays: it holds off the addresses that guessed, not this one
    const lockedUntil = current.lockedUntil && current.lockedUntil > iso(now) ? current.lockedUntil : null;
    const issued = await this.d.tx.write(async (q, out) => {
      await q.update(users).set({ failedLogins: 0, lockedUntil, lastSeenAt: iso(now) }).where(eq(users.id, current.id));
      return this.d.sessions.open(q, current.id, kind, client, now, out);
    });
    return factor === 'passed' && kind === 'cookie' ? { ...issued, machine: await this.twoFactor.rememberMachine(current.id, now) } : issued;
  }

  /**
   * The caller of one request that carries a login and password (HTTP Basic, the CLICS API,
   * decisions §25): the same check, budgets and lockout as a sign-in, without a session. An account
   * with two-factor sign-in cannot be used so: a password alone is not enough for it.
   */
  async passwordActor(login: string, password: string, client: ClientInfo): Promise<Actor> {
    const { current, factor } = await this.checkPassword(login, password, client, {});
    if (factor === 'required') throw new LoginRefused('RequiresTwoFactor');
    // a right password resets the count of failures, as a sign-in does; most requests find nothing to reset
    if (current.failedLogins > 0) await this.d.tx.write((q) => q.update(users).set({ failedLogins: 0 }).where(eq(users.id, current.id)));
    return { userId: current.id, sessionId: `basic:${current.id}`, via: 'bearer' };
  }

  /** The password check of a sign-in: its budgets, lockout, blocks, expiry and second factor (see login). */
  private async checkPassword(login: string, password: string, client: ClientInfo, second: SecondFactor) {
    const address = client.ipAddress;
    const found = await this.d.tx.read((q) => findUserByLogin(q, login));
    const account = found ? found.id : `login:${login.trim().toLowerCase()}`;
    await this.budget.admitAddress(address);
    const started = this.d.clock.now().getTime();
    const early = await this.guarded(account, found?.id, started);
    if (early && (await this.marks.others(account, address, started)) > 0) {
      await this.d.hasher.verify(null, password);
      throw early;
    }
    await this.marks.attempt(account, address, started);
    const verified = await this.d.hasher.verify(found?.passwordHash ?? null, password);
    // Other attempts ran while this one was hashing: decide on the state as it is now, so that parallel
    // guesses can neither lose counted failures nor slip past a lock (or block) set meanwhile.
    const now = this.d.clock.now();
    const late = await this.guarded(account, found?.id, now.getTime());
    if (late && (await this.marks.others(account, address, now.getTime(), 1)) > 0) throw late;
    const current = found ? await this.d.tx.read((q) => findUserById(q, found.id)) : undefined;
    if (!current || !verified || current.passwordHash !== found?.passwordHash) {
      // a lock another guess set after the check above refuses this one too, as it would have there
      if (current && (await this.recordFailure(current.id, now, (await this.marks.others(account, address, now.getTime(), 1)) > 0)) === 'locked') throw new LoginRefused('LockedOut');
      if (!current) await this.marks.nameFailed(account, now.getTime());
      await this.budget.failed(address, account);
      throw new LoginRefused('Failed');
    }
    // only the right password learns that an account is blocked
    if (current.blockedAt) throw new LoginRefused('LockedOut');
    const settings = await this.instance.settings();
    if (current.expiresAt && current.expiresAt <= iso(now)) throw new LoginRefused('NotAllowed');
    // an account without an address (the seeded administrator) has nothing to confirm: turning the
    // switch on must not lock out the one who turned it on
    if (settings.requireConfirmedEmail && current.email && !current.emailConfirmed) throw new LoginRefused('NotAllowed');
    await admitSignIn(this.instance.maintenance, this.d.permissions, current.id);
    // most accounts have no second factor: their sign-in takes no write for it
    const factor = current.twoFactorEnabled ? await this.twoFactor.check(current.id, second, now) : 'off';
    if (factor === 'wrong') {
      await this.recordFailure(current.id, now, false);
      await this.budget.failed(address, account);
      throw new LoginRefused('Failed');
    }
    await this.marks.succeeded(account, address);
    return { current, factor, now };
  }

  /** The refusal an account is under now: its lock (LockedOut), else its spent budget (429); none when it is open. */
  private async guarded(account: string, userId: string | undefined, now: number): Promise<ApiError | undefined> {
    const locked = userId ? ((await this.d.tx.read((q) => findUserById(q, userId)))?.lockedUntil ?? '') > iso(new Date(now)) : await this.marks.nameLocked(account, now);
    if (locked) return new LoginRefused('LockedOut');
    return this.budget.accountSpent(account);
  }

  /**
   * Counts a failure on the stored count (read and written in one transaction) and locks at the
   * threshold. PostgreSQL: SERIALIZABLE (retried) keeps parallel failures from counting as one.
   * A failure that finds the account locked by now and `refusedWhileLocked` is not counted
   * ('locked'): on SQLite the check just before (`guarded`) and this write run without another
   * request in between, on PostgreSQL every statement is a round trip in which other guesses in
   * flight may lock the account, and their failures must meet the lock there as they do on SQLite.
   * `refusedWhileLocked` is read before the write, not in it: on PostgreSQL the marks are rows that
   * the shared limit store reads on the pool, and a write that waited for a pooled connection while
   * holding one would, with every connection held by such writes, wait forever (30 simultaneous
   * guesses did). The marks only grow while the guesses run, so the answer read first stands.
   */
  private async recordFailure(userId: string, now: Date, refusedWhileLocked: boolean): Promise<'counted' | 'locked'> {
    const { lockoutFailures, lockoutMinutes } = this.d.config.auth;
    const locked = await this.d.tx.write(async (q) => {
      const row = await findUserById(q, userId);
      if (!row) return false;
      if (row.lockedUntil && row.lockedUntil > iso(now) && refusedWhileLocked) return 'refused' as const;
      const failures = row.failedLogins + 1;
      const lock = failures >= lockoutFailures;
      await q
        .update(users)
        .set(lock ? { failedLogins: 0, lockedUntil: iso(addSeconds(this.d.clock.now(), lockoutMinutes * 60)) } : { failedLogins: failures })
        .where(eq(users.id, userId));
      return lock;
    });
    if (locked === 'refused') return 'locked';
    if (locked) this.d.log.warn({ userId }, 'account locked after repeated failed sign-ins');
    return 'counted';
  }

  tokenResponse(s: { accessToken?: string | undefined; refreshToken?: string | undefined }): TokenResponse {
    return { tokenType: 'Bearer', accessToken: s.accessToken!, expiresIn: this.d.config.auth.accessTokenSeconds, refreshToken: s.refreshToken! };
  }

  /** PostgreSQL: SERIALIZABLE (retried) lets only one of two exchanges of the same token commit; the other sees it rotated. */
  async refresh(refreshToken: string): Promise<TokenResponse> {
    const result = await this.d.tx.write(async (q, out) => {
      const r = await this.d.sessions.refresh(q, refreshToken, this.d.clock.now(), out);
      // refused before commit: the token is not rotated away
      if (r) await admitSignIn(this.instance.maintenance, this.d.permissions, r.userId, q);
      return r;
    });
    if (!result) throw unauthenticated('The refresh token is not valid');
    return this.tokenResponse(result);
  }

  async logout(actor: Actor): Promise<void> {
    await this.d.tx.write((q, out) => this.d.sessions.end(q, [actor.sessionId], 'logout', this.d.clock.now(), out));
  }

  /** `machine`: this browser's remember cookie. The authenticator shows the instance's name beside the login. */
  async manageTwoFactor(actor: Actor, body: TwoFactorRequest, machine: string | undefined) {
    const { name, requireTwoFactorFor } = await this.instance.settings();
    const required = await this.d.tx.read((q) => grantsCarry(q, actor.userId, requireTwoFactorFor));
    return this.twoFactor.manage(actor, body, machine, name, required);
  }

  async manageInfo(actor: Actor): Promise<{ email: string; isEmailConfirmed: boolean }> {
    const u = await this.d.tx.read((q) => findUserById(q, actor.userId));
    return { email: u?.email ?? '', isEmailConfirmed: !!u?.emailConfirmed };
  }
}

/** A login derived from the address's local part, numbered when taken. */
function loginFromAddress(q: Q, email: string): Promise<string> {
  const base = loginStem(email.split('@')[0] ?? '') || 'user';
  return freeUsername(q, base.length >= 2 ? base : `${base}user`);
}
