import type { LoginFailure, TokenResponse } from '@judge/contract';
import { eq } from 'drizzle-orm';
import type { Actor } from '../../auth/permissions.js';
import type { ClientInfo, IssuedSession, SessionKind } from '../../auth/sessions.js';
import { users } from '../../db/schema.js';
import { ApiError, unauthenticated } from '@judge/contract';
import type { Deps } from '../../services.js';
import { addSeconds, iso, newId } from '../../util.js';
import { admitSignIn, type InstanceService } from '../instance/index.js';
import { emailKey, emailTaken, findUserById, findUserByLogin, usernameKey, usernameTaken } from '../users/index.js';
import { announceUser } from '../users/index.js';
import { SignInBudget } from './sign-in-budget.js';

export class LoginRefused extends ApiError {
  constructor(readonly reason: LoginFailure) {
    super('unauthenticated', reason);
  }
}

/** Sign-in, sign-out, tokens and self-registration (CONTRACT §4). */
export class IdentityService {
  private readonly budget: SignInBudget;

  constructor(
    private readonly d: Deps,
    private readonly instance: InstanceService,
  ) {
    this.budget = new SignInBudget(d.config.auth);
  }

  async register(input: { email: string; password: string; username?: string | undefined }): Promise<void> {
    const settings = this.instance.settings();
    if (!settings.localRegistrationEnabled) throw ApiError.of('registration.closed', 'This installation does not take self-registration');
    const hash = await this.d.hasher.hash(input.password);
    this.d.tx.run((out) => {
      if (emailTaken(this.d.db, input.email)) throw ApiError.of('user.email.taken', 'An account with this address exists');
      let username = input.username;
      if (username) {
        if (usernameTaken(this.d.db, username)) throw ApiError.of('user.username.taken', `The login ${username} is taken`);
      } else {
        username = this.freeUsername(input.email);
      }
      const now = iso(this.d.clock.now());
      const row = this.d.db
        .insert(users)
        .values({
          id: newId(),
          username,
          usernameKey: usernameKey(username),
          email: input.email.trim(),
          emailKey: emailKey(input.email),
          passwordHash: hash,
          origin: 'self',
          approvedAt: settings.requireApproval ? null : now,
          createdAt: now,
        })
        .returning()
        .get();
      announceUser(this.d, row, out);
    });
  }

  /** A login derived from the address's local part, numbered when taken. */
  private freeUsername(email: string): string {
    const base = (email.split('@')[0] ?? 'user').replace(/[^A-Za-z0-9._-]/g, '').replace(/^[._-]+/, '').slice(0, 48) || 'user';
    const stem = base.length >= 2 ? base : `${base}user`;
    if (!usernameTaken(this.d.db, stem)) return stem;
    for (let i = 2; ; i++) if (!usernameTaken(this.d.db, `${stem}${i}`)) return `${stem}${i}`;
  }

  async login(login: string, password: string, kind: SessionKind, client: ClientInfo): Promise<IssuedSession> {
    const user = findUserByLogin(this.d.db, login);
    const now = this.d.clock.now();
    if (user && (user.blockedAt || (user.lockedUntil && user.lockedUntil > iso(now)))) {
      await this.d.hasher.verify(null, password);
      throw new LoginRefused('LockedOut');
    }
    // an unknown login has its own budget, so that guessing names costs as much as guessing passwords
    const account = user ? user.id : `login:${login.trim().toLowerCase()}`;
    await this.budget.admit(client.ipAddress, account);
    const verified = await this.d.hasher.verify(user?.passwordHash ?? null, password);
    if (!user) {
      await this.budget.failed(client.ipAddress, account);
      throw new LoginRefused('Failed');
    }
    // Other attempts ran while this one was hashing: decide on the row as it is now, so that parallel
    // guesses can neither lose counted failures nor slip past a lock (or block) set meanwhile.
    const current = findUserById(this.d.db, user.id);
    if (!current) throw new LoginRefused('Failed');
    if (current.blockedAt || (current.lockedUntil && current.lockedUntil > iso(now))) throw new LoginRefused('LockedOut');
    if (!verified || current.passwordHash !== user.passwordHash) {
      this.recordFailure(current.id);
      await this.budget.failed(client.ipAddress, account);
      throw new LoginRefused('Failed');
    }
    const settings = this.instance.settings();
    if (current.expiresAt && current.expiresAt <= iso(now)) throw new LoginRefused('NotAllowed');
    if (settings.requireConfirmedEmail && !current.emailConfirmed) throw new LoginRefused('NotAllowed');
    admitSignIn(this.instance.maintenance, this.d.permissions, current.id);
    return this.d.tx.run(() => {
      this.d.db.update(users).set({ failedLogins: 0, lockedUntil: null, lastSeenAt: iso(now) }).where(eq(users.id, current.id)).run();
      return this.d.sessions.open(current.id, kind, client, now);
    });
  }

  /** Counts a failure on the stored count (read and written in one transaction) and locks at the threshold. */
  private recordFailure(userId: string): void {
    const { lockoutFailures, lockoutMinutes } = this.d.config.auth;
    const locked = this.d.tx.run(() => {
      const row = findUserById(this.d.db, userId);
      if (!row) return false;
      const failures = row.failedLogins + 1;
      const lock = failures >= lockoutFailures;
      this.d.db
        .update(users)
        .set(lock ? { failedLogins: 0, lockedUntil: iso(addSeconds(this.d.clock.now(), lockoutMinutes * 60)) } : { failedLogins: failures })
        .where(eq(users.id, userId))
        .run();
      return lock;
    });
    if (locked) this.d.log.warn({ userId }, 'account locked after repeated failed sign-ins');
  }

  tokenResponse(s: { accessToken?: string | undefined; refreshToken?: string | undefined }): TokenResponse {
    return { tokenType: 'Bearer', accessToken: s.accessToken!, expiresIn: this.d.config.auth.accessTokenSeconds, refreshToken: s.refreshToken! };
  }

  refresh(refreshToken: string): TokenResponse {
    const result = this.d.tx.run((out) => {
      const r = this.d.sessions.refresh(refreshToken, this.d.clock.now(), out);
      // refused before commit: the token is not rotated away
      if (r) admitSignIn(this.instance.maintenance, this.d.permissions, r.userId);
      return r;
    });
    if (!result) throw unauthenticated('The refresh token is not valid');
    return this.tokenResponse(result);
  }

  logout(actor: Actor): void {
    this.d.tx.run((out) => this.d.sessions.end([actor.sessionId], 'logout', this.d.clock.now(), out));
  }

  manageInfo(actor: Actor): { email: string; isEmailConfirmed: boolean } {
    const u = findUserById(this.d.db, actor.userId);
    return { email: u?.email ?? '', isEmailConfirmed: !!u?.emailConfirmed };
  }
}
