import type { IssuedCredentials, ManagedUser, Page, Session, UserLookup } from '@judge/contract';
import { and, count, desc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Actor } from '../../auth/permissions.js';
import type { Q } from '../../db/storage.js';
import type { Outbox } from '../../db/transactor.js';
import { grants, rememberedMachines, users } from '../../db/schema.js';
import { event } from '../../events/bus.js';
import { ApiError, notFound } from '@judge/contract';
import type { Deps } from '../../services.js';
import { compact, generatePassword, iso, newId } from '../../util.js';
import { displayName, emailKey, emailTaken, findUserById, grantCount, toManagedUser, usernameKey, usernameTaken, type UserRow } from './queries.js';

/** Tells holders of user:read:all that an account changed. */
export async function announceUser(q: Q, row: UserRow, out: Outbox): Promise<ManagedUser> {
  const view = toManagedUser(row, await grantCount(q, row.id));
  out.emit(event('userChanged', { user: view }, { kind: 'permission', key: 'user:read:all' }));
  return view;
}

/**
 * A system-wide key the account holds and the actor does not (undefined: the actor holds all it
 * holds): managing an account must not hand its powers to one who lacks them.
 */
export async function missingOver(permissions: Deps['permissions'], q: Q, actorId: string, accountId: string): Promise<string | undefined> {
  if (await permissions.isAdministrator(actorId, q)) return undefined;
  const mine = await permissions.effective(actorId, null, q);
  for (const k of await permissions.effective(accountId, null, q)) if (!mine.has(k)) return k;
  return undefined;
}

/** Login, address or full name containing the term, in any case (keys are stored lowercased; the name is folded with lower()). */
function matching(pattern: string): SQL {
  return or(
    sql`${users.usernameKey} LIKE ${pattern} ESCAPE '\\'`,
    sql`${users.emailKey} LIKE ${pattern} ESCAPE '\\'`,
    sql`lower(coalesce(${users.firstName}, '') || ' ' || coalesce(${users.lastName}, '')) LIKE ${pattern} ESCAPE '\\'`,
  )!;
}

const likeEscape = (s: string) => `%${s.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export interface NewUser {
  username: string;
  firstName?: string | undefined;
  lastName?: string | undefined;
  email?: string | undefined;
  note?: string | undefined;
  tags?: string[] | undefined;
}

export interface UserPatch {
  firstName?: string | null | undefined;
  lastName?: string | null | undefined;
  email?: string | null | undefined;
  note?: string | null | undefined;
  tags?: string[] | undefined;
  expiresAt?: string | null | undefined;
  twoFactorEnabled?: false | undefined;
}

async function target(q: Q, id: string): Promise<UserRow> {
  const u = await findUserById(q, id);
  if (!u) throw notFound('user');
  return u;
}

export class UsersService {
  constructor(private readonly d: Deps) {}

  /** Logins, names and tags of these users, unchecked: for the CLICS API's teams and accounts (decisions §25). */
  async profiles(ids: readonly string[]): Promise<{ id: string; username: string; name: string; tags: string[] }[]> {
    if (!ids.length) return [];
    const rows = await this.d.tx.read((q) =>
      q.select({ id: users.id, username: users.username, firstName: users.firstName, lastName: users.lastName, tags: users.tags }).from(users).where(inArray(users.id, [...ids])),
    );
    return rows.map((r) => ({ id: r.id, username: r.username, name: displayName(r), tags: r.tags }));
  }

  async lookup(actor: Actor, search: string | undefined): Promise<UserLookup[]> {
    await this.d.permissions.require(actor, 'user:read:all');
    const term = search?.trim();
    if (!term) return [];
    const pattern = likeEscape(term);
    const rows = await this.d.tx.read((q) => q.select().from(users).where(matching(pattern)).orderBy(users.usernameKey).limit(20));
    return rows.map((u) => compact({ id: u.id, username: u.username, name: displayName(u), email: u.email }) as UserLookup);
  }

  /** Creates an account with a generated password, returned this once. */
  async create(actor: Actor, input: NewUser): Promise<IssuedCredentials> {
    await this.d.permissions.require(actor, 'user:create');
    const password = generatePassword();
    const hash = await this.d.hasher.hash(password);
    // PostgreSQL: the unique keys on login and address decide a race the checks below lose
    return this.d.tx.write(async (q, out) => {
      if (await usernameTaken(q, input.username)) throw ApiError.of('user.username.taken', `The login ${input.username} is taken`);
      if (input.email && (await emailTaken(q, input.email))) throw ApiError.of('user.email.taken', 'An account with this address exists');
      const now = iso(this.d.clock.now());
      const [row] = await q
        .insert(users)
        .values({
          id: newId(),
          username: input.username,
          usernameKey: usernameKey(input.username),
          email: input.email?.trim() ?? null,
          emailKey: emailKey(input.email),
          passwordHash: hash,
          firstName: input.firstName ?? null,
          lastName: input.lastName ?? null,
          note: input.note ?? null,
          tags: input.tags ?? [],
          origin: 'staff',
          approvedAt: now,
          createdAt: now,
        })
        .returning();
      await announceUser(q, row!, out);
      return { userId: row!.id, username: row!.username, password };
    });
  }

  async listManaged(
    actor: Actor,
    q: { page: number; pageSize: number; search?: string | undefined; includeBlocked?: boolean | undefined; temporaryOnly?: boolean | undefined },
  ): Promise<Page<ManagedUser>> {
    await this.d.permissions.require(actor, 'user:read:all');
    const where: SQL[] = [];
    if (!q.includeBlocked) where.push(isNull(users.blockedAt));
    if (q.temporaryOnly) where.push(eq(users.isTemporary, true));
    const term = q.search?.trim();
    if (term) {
      where.push(matching(likeEscape(term)));
    }
    const filter = where.length ? and(...where) : undefined;
    return this.d.tx.read(async (db) => {
      const total = (await db.select({ n: count() }).from(users).where(filter))[0]?.n ?? 0;
    // qualified by hand: drizzle renders single-table columns unqualified, and inside the subquery an
    // unqualified "id" would be the grant's own id, not the listed user's
      const held = sql<number>`(SELECT count(*) FROM ${grants} AS g WHERE g.user_id = ${users}.id)`.mapWith(Number);
      const rows = await db
        .select({ user: users, held })
        .from(users)
        .where(filter)
        .orderBy(desc(users.createdAt), desc(users.id))
        .limit(q.pageSize)
        .offset((q.page - 1) * q.pageSize);
      return { items: rows.map((r) => toManagedUser(r.user, r.held)), total, page: q.page, pageSize: q.pageSize };
    });
  }

  /** One account as the list shows it, for the page of one user. */
  async getManaged(actor: Actor, id: string): Promise<ManagedUser> {
    await this.d.permissions.require(actor, 'user:read:all');
    return this.d.tx.read(async (q) => {
      const u = await target(q, id);
      return toManagedUser(u, await grantCount(q, u.id));
    });
  }

  /**
   * Acting on an account that holds more than the actor (an administrator, say) would hand the
   * actor those powers: refused.
   */
  private async requireDominates(q: Q, actor: Actor, targetId: string): Promise<void> {
    const k = await missingOver(this.d.permissions, q, actor.userId, targetId);
    if (k) throw ApiError.of('forbidden', `The account holds ${k}, which you do not`);
  }

  async update(actor: Actor, id: string, patch: UserPatch): Promise<ManagedUser> {
    await this.d.permissions.require(actor, 'user:update');
    // PostgreSQL: SERIALIZABLE (retried) for the checks, the unique address key for the race on it
    return this.d.tx.write(async (q, out) => {
      const u = await target(q, id);
      await this.requireDominates(q, actor, u.id);
      if (patch.email && (await emailTaken(q, patch.email, u.id))) throw ApiError.of('user.email.taken', 'An account with this address exists');
      const set: Partial<UserRow> = {};
      if (patch.firstName !== undefined) set.firstName = patch.firstName;
      if (patch.lastName !== undefined) set.lastName = patch.lastName;
      if (patch.note !== undefined) set.note = patch.note;
      if (patch.tags !== undefined) set.tags = [...new Set(patch.tags)];
      if (patch.expiresAt !== undefined) set.expiresAt = patch.expiresAt;
      if (patch.email !== undefined && emailKey(patch.email) !== u.emailKey) {
        set.email = patch.email?.trim() ?? null;
        set.emailKey = emailKey(patch.email);
        set.emailConfirmed = false;
      }
      // the way out for an owner who lost both the authenticator and the recovery codes: the key
      // goes too, so turning it on again starts from a new one
      if (patch.twoFactorEnabled === false && u.twoFactorEnabled) {
        Object.assign(set, { twoFactorEnabled: false, twoFactorKey: null, recoveryCodes: [] });
        await q.delete(rememberedMachines).where(eq(rememberedMachines.userId, u.id));
        out.touchPermissions();
        out.then(() => this.d.log.info({ userId: u.id, by: actor.userId }, 'two-factor sign-in turned off by staff'));
      }
      const row = Object.keys(set).length ? (await q.update(users).set(set).where(eq(users.id, u.id)).returning())[0]! : u;
      if (patch.expiresAt !== undefined) {
        out.then(() => this.d.sessions.forgetUser(u.id));
        out.note({ what: 'user', userId: u.id });
      }
      return announceUser(q, row, out);
    });
  }

  async setBlocked(actor: Actor, id: string, blocked: boolean, reason: string | undefined): Promise<ManagedUser> {
    await this.d.permissions.require(actor, 'user:block');
    return this.d.tx.write(async (q, out) => {
      const u = await target(q, id);
      if (u.id === actor.userId) throw ApiError.of('user.self', 'You cannot block yourself');
      await this.requireDominates(q, actor, u.id);
      const now = this.d.clock.now();
      const [row] = await q
        .update(users)
        .set(blocked ? { blockedAt: u.blockedAt ?? iso(now), blockedReason: reason ?? null } : { blockedAt: null, blockedReason: null, failedLogins: 0, lockedUntil: null })
        .where(eq(users.id, u.id))
        .returning();
      if (blocked) await this.d.sessions.endAllOfUser(q, u.id, 'blocked', now, out);
      return announceUser(q, row!, out);
    });
  }

  /** Lets a self-registered account enrol (requireApproval); one approved already stays as it was. */
  async approve(actor: Actor, id: string): Promise<ManagedUser> {
    await this.d.permissions.require(actor, 'user:update');
    return this.d.tx.write(async (q, out) => {
      const u = await target(q, id);
      if (u.approvedAt) return announceUser(q, u, out);
      const [row] = await q.update(users).set({ approvedAt: iso(this.d.clock.now()) }).where(eq(users.id, u.id)).returning();
      return announceUser(q, row!, out);
    });
  }

  async resetPassword(actor: Actor, id: string): Promise<IssuedCredentials> {
    await this.d.permissions.require(actor, 'user:update');
    const password = generatePassword();
    const hash = await this.d.hasher.hash(password);
    // hashed before the transaction; the checks run again inside it, where they hold (SERIALIZABLE on PostgreSQL)
    return this.d.tx.write(async (q, out) => {
      const u = await target(q, id);
      await this.requireDominates(q, actor, u.id);
      const [row] = await q.update(users).set({ passwordHash: hash, failedLogins: 0, lockedUntil: null }).where(eq(users.id, u.id)).returning();
      if (!row) throw notFound('user');
      await this.d.sessions.endAllOfUser(q, u.id, 'passwordChanged', this.d.clock.now(), out, u.id === actor.userId ? actor.sessionId : undefined);
      await announceUser(q, row, out);
      return { userId: row.id, username: row.username, password };
    });
  }

  async sessionsOf(actor: Actor, userId: string): Promise<Session[]> {
    await this.d.permissions.require(actor, 'user:read:all');
    const u = await this.d.tx.read((q) => target(q, userId));
    return this.d.sessions.listOfUser(u.id, this.d.clock.now(), actor.sessionId, this.d.connections);
  }

  async endSession(actor: Actor, userId: string, sessionId: string): Promise<void> {
    await this.d.permissions.require(actor, 'user:update');
    await this.d.tx.write(async (q, out) => {
      const s = await this.d.sessions.get(q, sessionId);
      if (!s || s.userId !== userId || !s.live) throw notFound('session');
      if (userId !== actor.userId) await this.requireDominates(q, actor, userId);
      await this.d.sessions.end(q, [sessionId], 'ended', this.d.clock.now(), out);
    });
  }

  /** Signs an account out everywhere; on one's own account the session asking stays. */
  async endSessions(actor: Actor, userId: string): Promise<void> {
    await this.d.permissions.require(actor, 'user:update');
    await this.d.tx.write(async (q, out) => {
      const u = await target(q, userId);
      if (u.id !== actor.userId) await this.requireDominates(q, actor, u.id);
      await this.d.sessions.endAllOfUser(q, u.id, 'ended', this.d.clock.now(), out, u.id === actor.userId ? actor.sessionId : undefined);
    });
  }
}

