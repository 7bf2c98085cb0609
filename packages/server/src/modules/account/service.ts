import type { Account, Session } from '@judge/contract';
import type Database from 'better-sqlite3';
import { eq } from 'drizzle-orm';
import type { Actor } from '../../auth/permissions.js';
import { users } from '../../db/schema.js';
import { ApiError, notFound, unauthenticated } from '@judge/contract';
import type { Deps } from '../../services.js';
import { compact } from '../../util.js';
import { emailKey, emailTaken, findUserById, usernameKey, usernameTaken, type UserRow } from '../users/index.js';
import { announceUser } from '../users/index.js';

const toAccount = (u: Pick<UserRow, 'id' | 'username' | 'firstName' | 'lastName' | 'email' | 'emailConfirmed' | 'isLocal'>): Account =>
  compact({
    userId: u.id,
    username: u.username,
    firstName: u.firstName,
    lastName: u.lastName,
    email: u.email,
    emailConfirmed: u.emailConfirmed,
    isLocal: u.isLocal,
  }) as Account;

type AccountTuple = [id: string, username: string, firstName: string | null, lastName: string | null, email: string | null, emailConfirmed: number, isLocal: number];

export interface AccountPatch {
  firstName?: string | null | undefined;
  lastName?: string | null | undefined;
  username?: string | undefined;
  email?: string | null | undefined;
}

/** The signed-in user's own account. */
export class AccountService {
  /** The account read is on most screens: one narrow statement, read as a raw row (no drizzle mapping). */
  private readonly byId: Database.Statement<[string], AccountTuple>;

  constructor(private readonly d: Deps) {
    this.byId = d.sqlite
      .prepare<[string], AccountTuple>('SELECT id, username, first_name, last_name, email, email_confirmed, is_local FROM users WHERE id = ?')
      .raw(true);
  }

  private me(actor: Actor): UserRow {
    const u = findUserById(this.d.db, actor.userId);
    if (!u) throw unauthenticated();
    return u;
  }

  get(actor: Actor): Account {
    const t = this.byId.get(actor.userId);
    if (!t) throw unauthenticated();
    // built member by member in toAccount's order, absent members left out, without compact()'s copy
    const [userId, username, firstName, lastName, email, emailConfirmed, isLocal] = t;
    const a: Record<string, unknown> = { userId, username };
    if (firstName !== null) a.firstName = firstName;
    if (lastName !== null) a.lastName = lastName;
    if (email !== null) a.email = email;
    a.emailConfirmed = emailConfirmed === 1;
    a.isLocal = isLocal === 1;
    return a as Account;
  }

  update(actor: Actor, patch: AccountPatch): Account {
    return this.d.tx.run((out) => {
      const u = this.me(actor);
      const set: Partial<UserRow> = {};
      if (patch.firstName !== undefined) set.firstName = patch.firstName;
      if (patch.lastName !== undefined) set.lastName = patch.lastName;
      if (patch.username !== undefined && patch.username !== u.username) {
        if (!u.isLocal) throw ApiError.of('forbidden', 'The login of an account from an identity provider is set by the provider');
        if (usernameTaken(this.d.db, patch.username, u.id)) throw ApiError.of('user.username.taken', `The login ${patch.username} is taken`);
        set.username = patch.username;
        set.usernameKey = usernameKey(patch.username);
      }
      if (patch.email !== undefined && emailKey(patch.email) !== u.emailKey) {
        if (patch.email && emailTaken(this.d.db, patch.email, u.id)) throw ApiError.of('user.email.taken', 'An account with this address exists');
        set.email = patch.email?.trim() ?? null;
        set.emailKey = emailKey(patch.email);
        set.emailConfirmed = false;
      }
      if (!Object.keys(set).length) return toAccount(u);
      const row = this.d.db.update(users).set(set).where(eq(users.id, u.id)).returning().get()!;
      announceUser(this.d, row, out);
      return toAccount(row);
    });
  }

  /** Changes the password; every other session of the account ends. */
  async changePassword(actor: Actor, current: string, next: string): Promise<void> {
    const u = this.me(actor);
    if (!(await this.d.hasher.verify(u.passwordHash, current))) {
      throw ApiError.of('account.password.wrong', 'The current password is not right', { currentPassword: ['does not match'] });
    }
    const hash = await this.d.hasher.hash(next);
    this.d.tx.run((out) => {
      this.d.db.update(users).set({ passwordHash: hash }).where(eq(users.id, u.id)).run();
      this.d.sessions.endAllOfUser(u.id, 'passwordChanged', this.d.clock.now(), out, actor.sessionId);
    });
  }

  sessions(actor: Actor): Session[] {
    return this.d.sessions.listOfUser(actor.userId, this.d.clock.now(), actor.sessionId, this.d.connections);
  }

  endSession(actor: Actor, sessionId: string): void {
    this.d.tx.run((out) => {
      const s = this.d.sessions.get(sessionId);
      if (!s || s.userId !== actor.userId || !s.live) throw notFound('session');
      this.d.sessions.end([sessionId], sessionId === actor.sessionId ? 'logout' : 'ended', this.d.clock.now(), out);
    });
  }
}
