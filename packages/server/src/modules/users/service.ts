import type { IssuedCredentials, ManagedUser, Page, Session, UserLookup } from '@judge/contract';
import { and, desc, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Actor } from '../../auth/permissions.js';
import type { Outbox } from '../../db/transactor.js';
import { grants, users } from '../../db/schema.js';
import { event } from '../../events/bus.js';
import { ApiError, notFound } from '@judge/contract';
import type { Deps } from '../../services.js';
import { compact, generatePassword, iso, newId } from '../../util.js';
import { displayName, emailKey, emailTaken, findUserById, grantCount, toManagedUser, usernameKey, usernameTaken, type UserRow } from './queries.js';

/** Tells holders of user:read:all that an account changed. */
export function announceUser(d: Deps, row: UserRow, out: Outbox): ManagedUser {
  const view = toManagedUser(row, grantCount(d.db, row.id));
  out.emit(event('userChanged', { user: view }, { kind: 'permission', key: 'user:read:all' }));
  return view;
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
}

export class UsersService {
  constructor(private readonly d: Deps) {}

  lookup(actor: Actor, q: string | undefined): UserLookup[] {
    this.d.permissions.require(actor, 'user:read:all');
    const term = q?.trim();
    if (!term) return [];
    const pattern = likeEscape(term);
    const rows = this.d.db
      .select()
      .from(users)
      .where(
        or(
          sql`${users.usernameKey} LIKE ${pattern} ESCAPE '\\'`,
          sql`${users.emailKey} LIKE ${pattern} ESCAPE '\\'`,
          sql`lower(coalesce(${users.firstName}, '') || ' ' || coalesce(${users.lastName}, '')) LIKE ${pattern} ESCAPE '\\'`,
        ),
      )
      .orderBy(users.usernameKey)
      .limit(20)
      .all();
    return rows.map((u) => compact({ id: u.id, username: u.username, name: displayName(u), email: u.email }) as UserLookup);
  }

  /** Creates an account with a generated password, returned this once. */
  async create(actor: Actor, input: NewUser): Promise<IssuedCredentials> {
    this.d.permissions.require(actor, 'user:create');
    const password = generatePassword();
    const hash = await this.d.hasher.hash(password);
    return this.d.tx.run((out) => {
      if (usernameTaken(this.d.db, input.username)) throw ApiError.of('user.username.taken', `The login ${input.username} is taken`);
      if (input.email && emailTaken(this.d.db, input.email)) throw ApiError.of('user.email.taken', 'An account with this address exists');
      const now = iso(this.d.clock.now());
      const row = this.d.db
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
        .returning()
        .get();
      announceUser(this.d, row, out);
      return { userId: row.id, username: row.username, password };
    });
  }

  listManaged(
    actor: Actor,
    q: { page: number; pageSize: number; search?: string | undefined; includeBlocked?: boolean | undefined; temporaryOnly?: boolean | undefined },
  ): Page<ManagedUser> {
    this.d.permissions.require(actor, 'user:read:all');
    const where: SQL[] = [];
    if (!q.includeBlocked) where.push(isNull(users.blockedAt));
    if (q.temporaryOnly) where.push(eq(users.isTemporary, true));
    const term = q.search?.trim();
    if (term) {
      const pattern = likeEscape(term);
      where.push(
        or(
          sql`${users.usernameKey} LIKE ${pattern} ESCAPE '\\'`,
          sql`${users.emailKey} LIKE ${pattern} ESCAPE '\\'`,
          sql`lower(coalesce(${users.firstName}, '') || ' ' || coalesce(${users.lastName}, '')) LIKE ${pattern} ESCAPE '\\'`,
        )!,
      );
    }
    const filter = where.length ? and(...where) : undefined;
    const total = this.d.db.select({ n: sql<number>`count(*)` }).from(users).where(filter).get()?.n ?? 0;
    // qualified by hand: drizzle renders single-table columns unqualified, and inside the subquery an
    // unqualified "id" would be the grant's own id, not the listed user's
    const held = sql<number>`(SELECT count(*) FROM ${grants} AS g WHERE g.user_id = ${users}.id)`;
    const rows = this.d.db
      .select({ user: users, held })
      .from(users)
      .where(filter)
      .orderBy(desc(users.createdAt), desc(users.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize)
      .all();
    return { items: rows.map((r) => toManagedUser(r.user, r.held)), total, page: q.page, pageSize: q.pageSize };
  }

  /** One account as the list shows it, for the page of one user. */
  getManaged(actor: Actor, id: string): ManagedUser {
    this.d.permissions.require(actor, 'user:read:all');
    const u = this.target(id);
    return toManagedUser(u, grantCount(this.d.db, u.id));
  }

  private target(id: string): UserRow {
    const u = findUserById(this.d.db, id);
    if (!u) throw notFound('user');
    return u;
  }

  /**
   * Acting on an account that holds more than the actor (an administrator, say) would hand the
   * actor those powers: refused.
   */
  private requireDominates(actor: Actor, targetId: string): void {
    if (this.d.permissions.isAdministrator(actor.userId)) return;
    const mine = this.d.permissions.effective(actor.userId, null);
    for (const k of this.d.permissions.effective(targetId, null)) {
      if (!mine.has(k)) throw ApiError.of('forbidden', `The account holds ${k}, which you do not`);
    }
  }

  update(actor: Actor, id: string, patch: UserPatch): ManagedUser {
    this.d.permissions.require(actor, 'user:update');
    return this.d.tx.run((out) => {
      const u = this.target(id);
      this.requireDominates(actor, u.id);
      if (patch.email && emailTaken(this.d.db, patch.email, u.id)) throw ApiError.of('user.email.taken', 'An account with this address exists');
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
      const row = Object.keys(set).length ? this.d.db.update(users).set(set).where(eq(users.id, u.id)).returning().get()! : u;
      if (patch.expiresAt !== undefined) this.d.sessions.forgetUser(u.id);
      return announceUser(this.d, row, out);
    });
  }

  setBlocked(actor: Actor, id: string, blocked: boolean, reason: string | undefined): ManagedUser {
    this.d.permissions.require(actor, 'user:block');
    return this.d.tx.run((out) => {
      const u = this.target(id);
      if (u.id === actor.userId) throw ApiError.of('user.self', 'You cannot block yourself');
      this.requireDominates(actor, u.id);
      const now = this.d.clock.now();
      const row = this.d.db
        .update(users)
        .set(blocked ? { blockedAt: u.blockedAt ?? iso(now), blockedReason: reason ?? null } : { blockedAt: null, blockedReason: null, failedLogins: 0, lockedUntil: null })
        .where(eq(users.id, u.id))
        .returning()
        .get()!;
      if (blocked) this.d.sessions.endAllOfUser(u.id, 'blocked', now, out);
      return announceUser(this.d, row, out);
    });
  }

  async resetPassword(actor: Actor, id: string): Promise<IssuedCredentials> {
    this.d.permissions.require(actor, 'user:update');
    const u = this.target(id);
    this.requireDominates(actor, u.id);
    const password = generatePassword();
    const hash = await this.d.hasher.hash(password);
    return this.d.tx.run((out) => {
      const row = this.d.db.update(users).set({ passwordHash: hash, failedLogins: 0, lockedUntil: null }).where(eq(users.id, u.id)).returning().get();
      if (!row) throw notFound('user');
      this.d.sessions.endAllOfUser(u.id, 'passwordChanged', this.d.clock.now(), out, u.id === actor.userId ? actor.sessionId : undefined);
      announceUser(this.d, row, out);
      return { userId: row.id, username: row.username, password };
    });
  }

  sessionsOf(actor: Actor, userId: string): Session[] {
    this.d.permissions.require(actor, 'user:read:all');
    const u = this.target(userId);
    return this.d.sessions.listOfUser(u.id, this.d.clock.now(), actor.sessionId, this.d.connections);
  }

  endSession(actor: Actor, userId: string, sessionId: string): void {
    this.d.permissions.require(actor, 'user:update');
    this.d.tx.run((out) => {
      const s = this.d.sessions.get(sessionId);
      if (!s || s.userId !== userId || !s.live) throw notFound('session');
      if (userId !== actor.userId) this.requireDominates(actor, userId);
      this.d.sessions.end([sessionId], 'ended', this.d.clock.now(), out);
    });
  }

  /** Signs an account out everywhere; on one's own account the session asking stays. */
  endSessions(actor: Actor, userId: string): void {
    this.d.permissions.require(actor, 'user:update');
    this.d.tx.run((out) => {
      const u = this.target(userId);
      if (u.id !== actor.userId) this.requireDominates(actor, u.id);
      this.d.sessions.endAllOfUser(u.id, 'ended', this.d.clock.now(), out, u.id === actor.userId ? actor.sessionId : undefined);
    });
  }
}

