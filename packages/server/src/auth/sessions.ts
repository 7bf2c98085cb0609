import type Database from 'better-sqlite3';
import type { Session } from '@judge/contract';
import type { Outbox } from '../db/transactor.js';
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

interface AuthRow {
  session_id: string;
  user_id: string;
  kind: string;
  secret_expires: string;
  session_expires: string;
  ended_at: string | null;
  blocked_at: string | null;
  user_expires: string | null;
}

const TOUCH_INTERVAL_MS = 60_000;
const AUTH_CACHE_MAX = 50_000;
const DAY = 86_400;

/**
 * Sessions and their secrets. Tokens and cookies are random 256-bit values of which only the
 * SHA-256 is stored, so a copy of the database signs nobody in, and they survive a restart.
 */
export class SessionStore {
  private readonly lastTouch = new Map<string, number>();
  /**
   * Resolved secrets, so a signed-in request costs no database read. Every change to a session,
   * its secrets or its user's standing drops the entries of that session (see forget*).
   */
  private readonly authCache = new Map<string, AuthRow>();
  private readonly cacheKeysOfSession = new Map<string, string[]>();
  private readonly st;

  constructor(
    private readonly sqlite: Database.Database,
    private readonly life: SessionLifetimes,
  ) {
    this.st = {
      auth: sqlite.prepare<[string, string], AuthRow>(
        `SELECT s.id AS session_id, s.user_id, s.kind, sec.expires_at AS secret_expires, s.expires_at AS session_expires,
                s.ended_at, u.blocked_at, u.expires_at AS user_expires
           FROM session_secrets sec JOIN sessions s ON s.id = sec.session_id JOIN users u ON u.id = s.user_id
          WHERE sec.hash = ? AND sec.kind = ?`,
      ),
      insertSession: sqlite.prepare(
        `INSERT INTO sessions (id, user_id, kind, started_at, last_request_at, ip_address, user_agent, expires_at)
         VALUES (@id, @userId, @kind, @now, @now, @ip, @ua, @expiresAt)`,
      ),
      insertSecret: sqlite.prepare('INSERT INTO session_secrets (hash, session_id, kind, expires_at) VALUES (?, ?, ?, ?)'),
      refreshRow: sqlite.prepare<[string], { session_id: string; expires_at: string; rotated_at: string | null }>(
        "SELECT session_id, expires_at, rotated_at FROM session_secrets WHERE hash = ? AND kind = 'refresh'",
      ),
      rotate: sqlite.prepare("UPDATE session_secrets SET rotated_at = ? WHERE hash = ?"),
      dropAccess: sqlite.prepare("DELETE FROM session_secrets WHERE session_id = ? AND kind = 'access'"),
      setExpiry: sqlite.prepare('UPDATE sessions SET expires_at = ? WHERE id = ?'),
      touch: sqlite.prepare('UPDATE sessions SET last_request_at = ?, last_request_path = ? WHERE id = ?'),
      slideCookie: sqlite.prepare("UPDATE session_secrets SET expires_at = ? WHERE session_id = ? AND kind = 'cookie'"),
      seen: sqlite.prepare('UPDATE users SET last_seen_at = ? WHERE id = ?'),
      end: sqlite.prepare('UPDATE sessions SET ended_at = ?, end_reason = ? WHERE id = ? AND ended_at IS NULL'),
      dropSecrets: sqlite.prepare('DELETE FROM session_secrets WHERE session_id = ?'),
      liveOfUser: sqlite.prepare<[string, string], { id: string }>(
        'SELECT id FROM sessions WHERE user_id = ? AND ended_at IS NULL AND expires_at > ?',
      ),
      listOfUser: sqlite.prepare<[string, string], SessionRow>(
        `SELECT id, started_at, last_request_at, last_request_path, ip_address, user_agent, expires_at
           FROM sessions WHERE user_id = ? AND ended_at IS NULL AND expires_at > ? ORDER BY started_at DESC, id DESC`,
      ),
      get: sqlite.prepare<[string], { id: string; user_id: string; ended_at: string | null; expires_at: string }>(
        'SELECT id, user_id, ended_at, expires_at FROM sessions WHERE id = ?',
      ),
      // named parameters: better-sqlite3 refuses numbered ones (?2) with "Too many parameter values"
      live: sqlite.prepare<[{ id: string; now: string }], { id: string }>(
        `SELECT s.id FROM sessions s JOIN users u ON u.id = s.user_id
          WHERE s.id = @id AND s.ended_at IS NULL AND s.expires_at > @now AND u.blocked_at IS NULL
            AND (u.expires_at IS NULL OR u.expires_at > @now)`,
      ),
    };
  }

  /** Opens a session for a user who just proved who they are. Runs inside the caller's transaction. */
  open(userId: string, kind: SessionKind, client: ClientInfo, now: Date): IssuedSession {
    const id = newId();
    const lifetime = kind === 'bearer' ? this.life.refreshTokenDays : this.life.cookieDays;
    const expiresAt = iso(addSeconds(now, lifetime * DAY));
    this.st.insertSession.run({
      id,
      userId,
      kind,
      now: iso(now),
      ip: client.ipAddress ?? null,
      ua: client.userAgent?.slice(0, 512) ?? null,
      expiresAt,
    });
    this.lastTouch.set(id, now.getTime());
    if (kind === 'bearer') return { sessionId: id, ...this.issuePair(id, now) };
    const cookie = newSecret();
    this.st.insertSecret.run(sha256Hex(cookie), id, 'cookie', expiresAt);
    return { sessionId: id, cookie };
  }

  private issuePair(sessionId: string, now: Date): { accessToken: string; refreshToken: string } {
    const accessToken = newSecret();
    const refreshToken = newSecret();
    this.st.insertSecret.run(sha256Hex(accessToken), sessionId, 'access', iso(addSeconds(now, this.life.accessTokenSeconds)));
    const refreshExpires = iso(addSeconds(now, this.life.refreshTokenDays * DAY));
    this.st.insertSecret.run(sha256Hex(refreshToken), sessionId, 'refresh', refreshExpires);
    this.st.setExpiry.run(refreshExpires, sessionId);
    return { accessToken, refreshToken };
  }

  /** Resolves a bearer token or session cookie to the caller, or null when it signs nobody in. */
  authenticate(secret: string, via: Actor['via'], now: Date): Actor | null {
    const kind = via === 'bearer' ? 'access' : 'cookie';
    const hash = sha256Hex(secret);
    const key = `${kind}:${hash}`;
    let row = this.authCache.get(key);
    if (!row) {
      row = this.st.auth.get(hash, kind);
      if (!row) return null;
      this.remember(key, row);
    }
    const t = iso(now);
    if (row.ended_at || row.secret_expires <= t || row.session_expires <= t || row.blocked_at) return null;
    if (row.user_expires && row.user_expires <= t) return null;
    return { userId: row.user_id, sessionId: row.session_id, via };
  }

  private remember(key: string, row: AuthRow): void {
    if (this.authCache.size >= AUTH_CACHE_MAX) {
      this.authCache.clear();
      this.cacheKeysOfSession.clear();
    }
    this.authCache.set(key, row);
    const keys = this.cacheKeysOfSession.get(row.session_id);
    if (keys) keys.push(key);
    else this.cacheKeysOfSession.set(row.session_id, [key]);
  }

  private forgetSession(sessionId: string): void {
    for (const key of this.cacheKeysOfSession.get(sessionId) ?? []) this.authCache.delete(key);
    this.cacheKeysOfSession.delete(sessionId);
  }

  /** The user's standing (expiry) changed: their sessions are read from the database again. */
  forgetUser(userId: string): void {
    for (const row of [...this.authCache.values()]) if (row.user_id === userId) this.forgetSession(row.session_id);
  }

  /**
   * Exchanges a refresh token. A token that was already exchanged means a copy is in other hands:
   * the whole session ends (theft detection). Runs inside the caller's transaction.
   */
  refresh(refreshToken: string, now: Date, out: Outbox): { sessionId: string; userId: string; accessToken: string; refreshToken: string } | null {
    const hash = sha256Hex(refreshToken);
    const row = this.st.refreshRow.get(hash);
    if (!row) return null;
    const session = this.st.get.get(row.session_id);
    if (!session || session.ended_at) return null;
    if (row.rotated_at) {
      this.end([row.session_id], 'ended', now, out);
      return null;
    }
    if (row.expires_at <= iso(now) || !this.st.live.get({ id: row.session_id, now: iso(now) })) return null;
    this.st.rotate.run(iso(now), hash);
    this.st.dropAccess.run(row.session_id);
    this.forgetSession(row.session_id);
    return { sessionId: row.session_id, userId: session.user_id, ...this.issuePair(row.session_id, now) };
  }

  /** Records the request on the session at most once a minute, and slides cookie lifetimes. */
  touch(actor: Actor, path: string, now: Date): void {
    const last = this.lastTouch.get(actor.sessionId);
    if (last !== undefined && now.getTime() - last < TOUCH_INTERVAL_MS) return;
    this.lastTouch.set(actor.sessionId, now.getTime());
    // the lifetimes slide below: cached expiry times would be stale
    this.forgetSession(actor.sessionId);
    const t = iso(now);
    this.sqlite.transaction(() => {
      this.st.touch.run(t, path.slice(0, 256), actor.sessionId);
      this.st.seen.run(t, actor.userId);
      if (actor.via === 'cookie') {
        const exp = iso(addSeconds(now, this.life.cookieDays * DAY));
        this.st.setExpiry.run(exp, actor.sessionId);
        this.st.slideCookie.run(exp, actor.sessionId);
      }
    })();
  }

  /** Ends sessions: secrets deleted, sockets told and closed after commit. */
  end(sessionIds: string[], reason: EndReason, now: Date, out: Outbox): void {
    const ended: string[] = [];
    for (const id of sessionIds) {
      if (this.st.end.run(iso(now), reason, id).changes > 0) ended.push(id);
      this.st.dropSecrets.run(id);
      this.lastTouch.delete(id);
      this.forgetSession(id);
    }
    out.endSessions(ended, reason);
  }

  endAllOfUser(userId: string, reason: EndReason, now: Date, out: Outbox, except?: string): void {
    const ids = this.st.liveOfUser.all(userId, iso(now)).map((r) => r.id).filter((id) => id !== except);
    this.end(ids, reason, now, out);
  }

  get(sessionId: string): { id: string; userId: string; live: boolean } | null {
    const r = this.st.get.get(sessionId);
    return r ? { id: r.id, userId: r.user_id, live: !r.ended_at } : null;
  }

  isLive(sessionId: string, now: Date): boolean {
    return this.st.live.get({ id: sessionId, now: iso(now) }) !== undefined;
  }

  listOfUser(userId: string, now: Date, current: string | undefined, connections: (sessionId: string) => number): Session[] {
    return this.st.listOfUser.all(userId, iso(now)).map((r) =>
      compact({
        id: r.id,
        connections: connections(r.id),
        startedAt: r.started_at,
        lastRequestAt: r.last_request_at,
        lastRequestPath: r.last_request_path,
        ipAddress: r.ip_address,
        userAgent: r.user_agent,
        expiresAt: r.expires_at,
        isCurrent: r.id === current,
      }),
    );
  }
}

interface SessionRow {
  id: string;
  started_at: string;
  last_request_at: string | null;
  last_request_path: string | null;
  ip_address: string | null;
  user_agent: string | null;
  expires_at: string;
}
