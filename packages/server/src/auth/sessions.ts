import type { Session } from '@judge/contract';
import { and, desc, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import { sessionSecrets, sessions, users } from '../db/schema.js';
import { prepared, type Q } from '../db/storage.js';
import type { Outbox, Transactor } from '../db/transactor.js';
import { addSeconds, compact, iso, newId, newSecret, sha256Hex } from '../util.js';
import type { Actor } from './permissions.js';

export type SessionKind = 'bearer' | 'cookie' | 'sessionCookie';
export type EndReason = 'logout' | 'blocked' | 'passwordChanged' | 'ended' | 'expired';

export interface SessionLifetimes {
  accessTokenSeconds: number;
  refreshTokenDays: number;
  cookieDays: number;
}

export interface ClientInfo {
  ipAddress?: string | undefined;
  userAgent?: string | undefined;
}

export interface IssuedSession {
  sessionId: string;
  accessToken?: string;
  refreshToken?: string;
  cookie?: string;
}

const TOUCH_INTERVAL_MS = 60_000;
const AUTH_CACHE_MAX = 50_000;
const DAY = 86_400;

const AUTH_COLUMNS = {
  sessionId: sessions.id,
  userId: sessions.userId,
  secretExpires: sessionSecrets.expiresAt,
  sessionExpires: sessions.expiresAt,
  endedAt: sessions.endedAt,
  blockedAt: users.blockedAt,
  userExpires: users.expiresAt,
};
type AuthRow = { sessionId: string; userId: string; secretExpires: string; sessionExpires: string; endedAt: string | null; blockedAt: string | null; userExpires: string | null };

/*
 * The two reads on every signed-in request whose secret is not cached, built once per `q` and run
 * with placeholders (storage.ts, prepared()): building them cost more than SQLite takes to run them.
 */
const authQuery = prepared((q) =>
  q
    .select(AUTH_COLUMNS)
    .from(sessionSecrets)
    .innerJoin(sessions, eq(sessions.id, sessionSecrets.sessionId))
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessionSecrets.hash, sql.placeholder('hash')), eq(sessionSecrets.kind, sql.placeholder('kind'))))
    .limit(1)
    .prepare(),
);

const LIVE_NOW = sql.placeholder('now');
const liveQuery = prepared((q) =>
  q
    .select({ id: sessions.id })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, sql.placeholder('id')), isNull(sessions.endedAt), gt(sessions.expiresAt, LIVE_NOW), isNull(users.blockedAt), or(isNull(users.expiresAt), gt(users.expiresAt, LIVE_NOW))))
    .limit(1)
    .prepare(),
);

/**
 * Sessions and their secrets. Tokens and cookies are random 256-bit values of which only the
 * SHA-256 is stored, so a copy of the database signs nobody in, and they survive a restart.
 * Methods given a `q` run inside the caller's transaction.
 */
export class Sessions {
  private readonly lastTouch = new Map<string, number>();
  /**
   * Resolved secrets, so a signed-in request costs no database read. Every change to a session,
   * its secrets or its user's standing drops the entries of that session once it committed (see forget*).
   */
  private readonly authCache = new Map<string, AuthRow>();
  private readonly cacheKeysOfSession = new Map<string, string[]>();
  /** Bumped by every forgetting, so that a read begun before it never caches the row it replaced. */
  private generation = 0;

  constructor(
    private readonly tx: Transactor,
    private readonly life: SessionLifetimes,
  ) {}

  /** Opens a session for a user who just proved who they are. */
  async open(q: Q, userId: string, kind: SessionKind, client: ClientInfo, now: Date, out: Outbox): Promise<IssuedSession> {
    const id = newId();
    const lifetime = kind === 'bearer' ? this.life.refreshTokenDays : this.life.cookieDays;
    const expiresAt = iso(addSeconds(now, lifetime * DAY));
    await q.insert(sessions).values({
      id,
      userId,
      kind,
      startedAt: iso(now),
      lastRequestAt: iso(now),
      ipAddress: client.ipAddress ?? null,
      userAgent: client.userAgent?.slice(0, 512) ?? null,
      expiresAt,
    });
    out.then(() => this.lastTouch.set(id, now.getTime()));
    if (kind === 'bearer') return { sessionId: id, ...(await this.issuePair(q, id, now)) };
    const cookie = newSecret();
    await q.insert(sessionSecrets).values({ hash: sha256Hex(cookie), sessionId: id, kind: 'cookie', expiresAt });
    return { sessionId: id, cookie };
  }

  private async issuePair(q: Q, sessionId: string, now: Date): Promise<{ accessToken: string; refreshToken: string }> {
    const accessToken = newSecret();
    const refreshToken = newSecret();
    const refreshExpires = iso(addSeconds(now, this.life.refreshTokenDays * DAY));
    await q.insert(sessionSecrets).values([
      { hash: sha256Hex(accessToken), sessionId, kind: 'access', expiresAt: iso(addSeconds(now, this.life.accessTokenSeconds)) },
      { hash: sha256Hex(refreshToken), sessionId, kind: 'refresh', expiresAt: refreshExpires },
    ]);
    await q.update(sessions).set({ expiresAt: refreshExpires }).where(eq(sessions.id, sessionId));
    return { accessToken, refreshToken };
  }

  /** Resolves a bearer token or session cookie to the caller, or null when it signs nobody in. A cached secret costs no query. */
  async authenticate(secret: string, via: Actor['via'], now: Date): Promise<Actor | null> {
    const { kind, hash, key } = secretKey(secret, via);
    let row = this.authCache.get(key);
    if (!row) {
      const generation = this.generation;
      row = (await this.tx.read((q) => authQuery(q, { hash, kind })))[0];
      if (!row) return null;
      if (generation === this.generation) this.remember(key, row);
    }
    return actorOf(row, via, now);
  }

  private remember(key: string, row: AuthRow): void {
    if (this.authCache.size >= AUTH_CACHE_MAX) {
      this.authCache.clear();
      this.cacheKeysOfSession.clear();
    }
    this.authCache.set(key, row);
    const keys = this.cacheKeysOfSession.get(row.sessionId);
    if (keys) keys.push(key);
    else this.cacheKeysOfSession.set(row.sessionId, [key]);
  }

  private forgetSession(sessionId: string): void {
    this.generation++;
    for (const key of this.cacheKeysOfSession.get(sessionId) ?? []) this.authCache.delete(key);
    this.cacheKeysOfSession.delete(sessionId);
  }

  /** Sessions that ended on another server (cluster/cache-notes.ts): they no longer authenticate here either. */
  forgetSessions(sessionIds: readonly string[]): void {
    for (const id of sessionIds) this.forgetSession(id);
  }

  /** The user's standing (expiry) changed: their sessions are read from the database again. */
  forgetUser(userId: string): void {
    this.generation++;
    for (const row of [...this.authCache.values()]) if (row.userId === userId) this.forgetSession(row.sessionId);
  }

  /**
   * Exchanges a refresh token. A token that was already exchanged means a copy is in other hands:
   * the whole session ends (theft detection). The caller commits the ending even when null comes back.
   */
  async refresh(q: Q, refreshToken: string, now: Date, out: Outbox): Promise<{ sessionId: string; userId: string; accessToken: string; refreshToken: string } | null> {
    const hash = sha256Hex(refreshToken);
    const row = (
      await q
        .select({ sessionId: sessionSecrets.sessionId, expiresAt: sessionSecrets.expiresAt, rotatedAt: sessionSecrets.rotatedAt })
        .from(sessionSecrets)
        .where(and(eq(sessionSecrets.hash, hash), eq(sessionSecrets.kind, 'refresh')))
        .limit(1)
    )[0];
    if (!row) return null;
    const session = await this.get(q, row.sessionId);
    if (!session?.live) return null;
    if (row.rotatedAt) {
      await this.end(q, [row.sessionId], 'ended', now, out);
      return null;
    }
    if (row.expiresAt <= iso(now) || !(await this.isLive(row.sessionId, now, q))) return null;
    await q.update(sessionSecrets).set({ rotatedAt: iso(now) }).where(eq(sessionSecrets.hash, hash));
    await q.delete(sessionSecrets).where(and(eq(sessionSecrets.sessionId, row.sessionId), eq(sessionSecrets.kind, 'access')));
    out.then(() => this.forgetSession(row.sessionId));
    return { sessionId: row.sessionId, userId: session.userId, ...(await this.issuePair(q, row.sessionId, now)) };
  }

  /** Records the request on the session at most once a minute, and slides cookie lifetimes. */
  async touch(actor: Actor, path: string, now: Date): Promise<void> {
    const last = this.lastTouch.get(actor.sessionId);
    if (last !== undefined && now.getTime() - last < TOUCH_INTERVAL_MS) return;
    this.lastTouch.set(actor.sessionId, now.getTime());
    const t = iso(now);
    // the lifetimes slide: cached expiry times are dropped once the new ones committed
    await this.tx.write(async (q, out) => {
      await q.update(sessions).set({ lastRequestAt: t, lastRequestPath: path.slice(0, 256) }).where(eq(sessions.id, actor.sessionId));
      await q.update(users).set({ lastSeenAt: t }).where(eq(users.id, actor.userId));
      if (actor.via === 'cookie') {
        const exp = iso(addSeconds(now, this.life.cookieDays * DAY));
        await q.update(sessions).set({ expiresAt: exp }).where(eq(sessions.id, actor.sessionId));
        await q.update(sessionSecrets).set({ expiresAt: exp }).where(and(eq(sessionSecrets.sessionId, actor.sessionId), eq(sessionSecrets.kind, 'cookie')));
      }
      out.then(() => this.forgetSession(actor.sessionId));
    });
  }

  /** Ends sessions: secrets deleted, sockets told and closed after commit. */
  async end(q: Q, sessionIds: string[], reason: EndReason, now: Date, out: Outbox): Promise<void> {
    const ended: string[] = [];
    for (const id of sessionIds) {
      const hit = await q
        .update(sessions)
        .set({ endedAt: iso(now), endReason: reason })
        .where(and(eq(sessions.id, id), isNull(sessions.endedAt)))
        .returning({ id: sessions.id });
      if (hit.length > 0) ended.push(id);
      await q.delete(sessionSecrets).where(eq(sessionSecrets.sessionId, id));
    }
    out.then(() => {
      for (const id of sessionIds) {
        this.lastTouch.delete(id);
        this.forgetSession(id);
      }
    });
    out.endSessions(ended, reason);
  }

  async endAllOfUser(q: Q, userId: string, reason: EndReason, now: Date, out: Outbox, except?: string): Promise<void> {
    const live = await q
      .select({ id: sessions.id })
      .from(sessions)
      .where(and(eq(sessions.userId, userId), isNull(sessions.endedAt), gt(sessions.expiresAt, iso(now))));
    await this.end(q, live.map((r) => r.id).filter((id) => id !== except), reason, now, out);
  }

  async get(q: Q, sessionId: string): Promise<{ id: string; userId: string; live: boolean } | null> {
    const r = (await q.select({ id: sessions.id, userId: sessions.userId, endedAt: sessions.endedAt }).from(sessions).where(eq(sessions.id, sessionId)).limit(1))[0];
    return r ? { id: r.id, userId: r.userId, live: !r.endedAt } : null;
  }

  async isLive(sessionId: string, now: Date, q?: Q): Promise<boolean> {
    const read = (r: Q) => liveQuery(r, { id: sessionId, now: iso(now) });
    return (await this.tx.read(read, q)).length > 0;
  }

  /**
   * Which of these sessions are live at `now`: the socket hub's heartbeat asks it of every session
   * with a socket, in slices so that a statement's parameters stay bounded.
   */
  async liveOf(sessionIds: readonly string[], now: Date): Promise<Set<string>> {
    const live = new Set<string>();
    const t = iso(now);
    for (let i = 0; i < sessionIds.length; i += 1000) {
      const slice = sessionIds.slice(i, i + 1000);
      const rows = await this.tx.read((q) =>
        q
          .select({ id: sessions.id })
          .from(sessions)
          .innerJoin(users, eq(users.id, sessions.userId))
          .where(and(inArray(sessions.id, slice), isNull(sessions.endedAt), gt(sessions.expiresAt, t), isNull(users.blockedAt), or(isNull(users.expiresAt), gt(users.expiresAt, t)))),
      );
      for (const r of rows) live.add(r.id);
    }
    return live;
  }

  async listOfUser(userId: string, now: Date, current: string | undefined, connections: (sessionId: string) => number): Promise<Session[]> {
    const rows = await this.tx.read((q) =>
      q
        .select({
          id: sessions.id,
          startedAt: sessions.startedAt,
          lastRequestAt: sessions.lastRequestAt,
          lastRequestPath: sessions.lastRequestPath,
          ipAddress: sessions.ipAddress,
          userAgent: sessions.userAgent,
          expiresAt: sessions.expiresAt,
        })
        .from(sessions)
        .where(and(eq(sessions.userId, userId), isNull(sessions.endedAt), gt(sessions.expiresAt, iso(now))))
        .orderBy(desc(sessions.startedAt), desc(sessions.id)),
    );
    return rows.map((r) =>
      compact({
        id: r.id,
        connections: connections(r.id),
        startedAt: r.startedAt,
        lastRequestAt: r.lastRequestAt,
        lastRequestPath: r.lastRequestPath,
        ipAddress: r.ipAddress,
        userAgent: r.userAgent,
        expiresAt: r.expiresAt,
        isCurrent: r.id === current,
      }),
    );
  }
}

function secretKey(secret: string, via: Actor['via']): { kind: 'access' | 'cookie'; hash: string; key: string } {
  const kind = via === 'bearer' ? 'access' : 'cookie';
  const hash = sha256Hex(secret);
  return { kind, hash, key: `${kind}:${hash}` };
}

function actorOf(row: AuthRow, via: Actor['via'], now: Date): Actor | null {
  const t = iso(now);
  if (row.endedAt || row.secretExpires <= t || row.sessionExpires <= t || row.blockedAt) return null;
  if (row.userExpires && row.userExpires <= t) return null;
  return { userId: row.userId, sessionId: row.sessionId, via };
}

