import type { Account, AccountLink, Session } from '@judge/contract';
import { asc, eq, sql } from 'drizzle-orm';
import type { Actor } from '../../auth/permissions.js';
import { identityProviders, userIdentities, users } from '../../db/schema.js';
import { prepared, type Q } from '../../db/storage.js';
import { ApiError, notFound, unauthenticated } from '@judge/contract';
import type { Deps } from '../../services.js';
import { compact } from '../../util.js';
import type { InstanceService } from '../instance/index.js';
import { emailKey, emailTaken, findUserById, usernameKey, usernameTaken, type UserRow } from '../users/index.js';
import { announceUser } from '../users/index.js';
import type { BlobStore } from '../files/index.js';
import { deleteOwnAccount } from './deletion.js';
import { accountExport } from './export.js';
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

/** The columns the account view shows: the read on most screens asks for these only. */
const ACCOUNT_COLUMNS = {
  id: users.id,
  username: users.username,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  emailConfirmed: users.emailConfirmed,
  isLocal: users.isLocal,
  origin: users.origin,
};

export interface AccountPatch {
  firstName?: string | null | undefined;
  lastName?: string | null | undefined;
  username?: string | undefined;
  email?: string | null | undefined;
}

/**
 * The account read, built once: building a select costs more than running it, and this one runs on
 * most screens.
 */
const accountById = prepared((q) => q.select(ACCOUNT_COLUMNS).from(users).where(eq(users.id, sql.placeholder('id'))).limit(1).prepare());

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
  constructor(
    private readonly d: Deps,
    private readonly instance: InstanceService,
    private readonly blobs: BlobStore,
  ) {}

  /** The identity providers the account signs in with (linked at its first sign-in through each). */
  async links(actor: Actor): Promise<AccountLink[]> {
    return this.d.tx.read(async (q) => {
      await this.me(q, actor);
      const rows = await q
        .select({ providerSlug: identityProviders.slug, displayName: identityProviders.displayName, accountUrl: identityProviders.accountUrl, deletionUrl: identityProviders.deletionUrl, linkedAt: userIdentities.linkedAt })
        .from(userIdentities)
        .innerJoin(identityProviders, eq(identityProviders.id, userIdentities.providerId))
        .where(eq(userIdentities.userId, actor.userId))
        .orderBy(asc(userIdentities.linkedAt));
      return rows.map((r) => compact(r) as AccountLink);
    });
  }

  /** Everything held about the caller, as a zip stream (export.ts). */
  async export(actor: Actor) {
    const out = await accountExport((fn) => this.d.tx.read(fn), this.blobs, actor.userId, this.d.clock.now());
    if (!out) throw unauthenticated('The account is gone');
    this.d.log.info({ userId: actor.userId }, 'account exported');
    return out;
  }

  async deleteOwn(actor: Actor, password: string): Promise<void> {
    const { accountDeletionEnabled } = await this.instance.settings();
    await deleteOwnAccount(this.d, this.blobs, actor, password, accountDeletionEnabled);
  }

  private async me(q: Q, actor: Actor): Promise<UserRow> {
    const u = await findUserById(q, actor.userId);
    if (!u) throw unauthenticated();
    return u;
  }

  private async rights(actor: Actor, u: Pick<AccountRow, 'origin' | 'isLocal'>, q?: Q): Promise<NameRights> {
    return nameRights(u, await this.instance.settings(q), await this.d.permissions.has(actor.userId, 'user:update', null, q));
  }

  async get(actor: Actor): Promise<Account> {
    // the switches as the server holds them (a read needs no transaction's view of them): from
    // memory, read before the account's read rather than inside it when memory has none yet
    const settings = await this.instance.settings();
    // one read for the row and the permissions: the account is asked for on most screens
    return this.d.tx.read(async (q) => {
      const row = (await accountById(q, { id: actor.userId }))[0];
      if (!row) throw unauthenticated();
      return toAccount(row, nameRights(row, settings, await this.d.permissions.has(actor.userId, 'user:update', null, q)));
    });
  }

  /** PostgreSQL: SERIALIZABLE (retried) for the checks, the unique keys for races on a login or address. */
  async update(actor: Actor, patch: AccountPatch): Promise<Account> {
    return this.d.tx.write(async (q, out) => {
      const u = await this.me(q, actor);
      const rights = await this.rights(actor, u, q);
      const set: Partial<UserRow> = {};
      const names = { firstName: patch.firstName, lastName: patch.lastName };
      for (const [k, v] of Object.entries(names) as ['firstName' | 'lastName', string | null | undefined][]) {
        if (v === undefined || v === u[k]) continue;
        if (!rights.mayChangeName) throw nameFixed(u, 'name');
        set[k] = v;
      }
      if (patch.username !== undefined && patch.username !== u.username) {
        if (!rights.mayChangeUsername) throw nameFixed(u, 'username');
        if (await usernameTaken(q, patch.username, u.id)) throw ApiError.of('user.username.taken', `The login ${patch.username} is taken`);
        set.username = patch.username;
        set.usernameKey = usernameKey(patch.username);
      }
      if (patch.email !== undefined && emailKey(patch.email) !== u.emailKey) {
        if (patch.email && (await emailTaken(q, patch.email, u.id))) throw ApiError.of('user.email.taken', 'An account with this address exists');
        set.email = patch.email?.trim() ?? null;
        set.emailKey = emailKey(patch.email);
        set.emailConfirmed = false;
      }
      if (!Object.keys(set).length) return toAccount(u, rights);
      const [row] = await q.update(users).set(set).where(eq(users.id, u.id)).returning();
      await announceUser(q, row!, out);
      return toAccount(row!, rights);
    });
  }

  /**
   * Changes the password; every other session of the account ends. `field`: the request member the
   * current password came in (POST /identity/manage/info calls it oldPassword); `inWrite`: what else
   * the write does (the identity area spends the account's reset codes there).
   */
  async changePassword(actor: Actor, current: string, next: string, opts: { field?: string; inWrite?: (q: Q) => Promise<void> } = {}): Promise<void> {
    const u = await this.d.tx.read((q) => this.me(q, actor));
    if (!(await this.d.hasher.verify(u.passwordHash, current))) {
      throw ApiError.of('account.password.wrong', 'The current password is not right', { [opts.field ?? 'currentPassword']: ['does not match'] });
    }
    const hash = await this.d.hasher.hash(next);
    await this.d.tx.write(async (q, out) => {
      await q.update(users).set({ passwordHash: hash }).where(eq(users.id, u.id));
      await opts.inWrite?.(q);
      await this.d.sessions.endAllOfUser(q, u.id, 'passwordChanged', this.d.clock.now(), out, actor.sessionId);
    });
  }

  sessions(actor: Actor): Promise<Session[]> {
    return this.d.sessions.listOfUser(actor.userId, this.d.clock.now(), actor.sessionId, this.d.connections);
  }

  async endSession(actor: Actor, sessionId: string): Promise<void> {
    await this.d.tx.write(async (q, out) => {
      const s = await this.d.sessions.get(q, sessionId);
      if (!s || s.userId !== actor.userId || !s.live) throw notFound('session');
      await this.d.sessions.end(q, [sessionId], sessionId === actor.sessionId ? 'logout' : 'ended', this.d.clock.now(), out);
    });
  }
}
