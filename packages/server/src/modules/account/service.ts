import type { Account, AccountOrigin, Session } from '@judge/contract';
import type Database from 'better-sqlite3';
import { eq } from 'drizzle-orm';
import type { Actor } from '../../auth/permissions.js';
import { users } from '../../db/schema.js';
import { ApiError, notFound, unauthenticated } from '@judge/contract';
import type { Deps } from '../../services.js';
import type { InstanceService } from '../instance/index.js';
import { emailKey, emailTaken, findUserById, usernameKey, usernameTaken, type UserRow } from '../users/index.js';
import { announceUser } from '../users/index.js';
import { nameRights, type NameRights } from './rules.js';

type AccountRow = Pick<UserRow, 'id' | 'username' | 'firstName' | 'lastName' | 'email' | 'emailConfirmed' | 'isLocal' | 'origin'>;

/** The account as the wire carries it: absent members left out, in a fixed order. */
function toAccount(u: AccountRow, rights: NameRights): Account {
  const a: Record<string, unknown> = { userId: u.id, username: u.username };
  if (u.firstName !== null) a.firstName = u.firstName;
  if (u.lastName !== null) a.lastName = u.lastName;
  if (u.email !== null) a.email = u.email;
  a.emailConfirmed = u.emailConfirmed;
  a.isLocal = u.isLocal;
  a.origin = u.origin;
  a.mayChangeUsername = rights.mayChangeUsername;
  a.mayChangeName = rights.mayChangeName;
  return a as Account;
}

type AccountTuple = [id: string, username: string, firstName: string | null, lastName: string | null, email: string | null, emailConfirmed: number, isLocal: number, origin: AccountOrigin];

export interface AccountPatch {
  firstName?: string | null | undefined;
  lastName?: string | null | undefined;
  username?: string | undefined;
  email?: string | null | undefined;
}

/** The refusal of a login or name the caller may not change, saying why. */
function nameFixed(u: AccountRow, field: 'username' | 'name'): ApiError {
  const what = field === 'username' ? 'login' : 'name';
  const why = !u.isLocal && field === 'username'
    ? 'The login of an account from an identity provider is set by the provider'
    : u.origin === 'self'
      ? `This installation does not let self-registered accounts change their ${what}; ask an administrator`
      : `This account was made by the organisers, who keep its ${what}; ask them to change it`;
  return ApiError.of('account.nameFixed', why, { [field === 'username' ? 'username' : 'firstName']: ['cannot be changed here'] });
}

/** The signed-in user's own account. */
export class AccountService {
  /** The account read is on most screens: one narrow statement, read as a raw row (no drizzle mapping). */
  private readonly byId: Database.Statement<[string], AccountTuple>;

  constructor(
    private readonly d: Deps,
    private readonly instance: InstanceService,
  ) {
    this.byId = d.sqlite
      .prepare<[string], AccountTuple>('SELECT id, username, first_name, last_name, email, email_confirmed, is_local, origin FROM users WHERE id = ?')
      .raw(true);
  }

  private me(actor: Actor): UserRow {
    const u = findUserById(this.d.db, actor.userId);
    if (!u) throw unauthenticated();
    return u;
  }

  private rights(actor: Actor, u: Pick<AccountRow, 'origin' | 'isLocal'>): NameRights {
    return nameRights(u, this.instance.settings(), this.d.permissions.has(actor.userId, 'user:update'));
  }

  get(actor: Actor): Account {
    const t = this.byId.get(actor.userId);
    if (!t) throw unauthenticated();
    const [id, username, firstName, lastName, email, emailConfirmed, isLocal, origin] = t;
    const row = { id, username, firstName, lastName, email, emailConfirmed: emailConfirmed === 1, isLocal: isLocal === 1, origin };
    return toAccount(row, this.rights(actor, row));
  }

  update(actor: Actor, patch: AccountPatch): Account {
    return this.d.tx.run((out) => {
      const u = this.me(actor);
      const rights = this.rights(actor, u);
      const set: Partial<UserRow> = {};
      const names = { firstName: patch.firstName, lastName: patch.lastName };
      for (const [k, v] of Object.entries(names) as ['firstName' | 'lastName', string | null | undefined][]) {
        if (v === undefined || v === u[k]) continue;
        if (!rights.mayChangeName) throw nameFixed(u, 'name');
        set[k] = v;
      }
      if (patch.username !== undefined && patch.username !== u.username) {
        if (!rights.mayChangeUsername) throw nameFixed(u, 'username');
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
      if (!Object.keys(set).length) return toAccount(u, rights);
      const row = this.d.db.update(users).set(set).where(eq(users.id, u.id)).returning().get()!;
      announceUser(this.d, row, out);
      return toAccount(row, rights);
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
