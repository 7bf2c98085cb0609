import type Database from 'better-sqlite3';
import { ApiError, unauthenticated } from '@judge/contract';
import { addSeconds, iso, literalRows, newSecret, sha256Hex, type Rows } from '../util.js';

/** Who is calling the runner protocol: an approved runner, by its token. */
export interface RunnerActor {
  runnerId: string;
  name: string;
  problemTypes: string[];
  tags: string[];
}

/** Runner tokens last 12 hours (decisions §8, §12). */
export const RUNNER_TOKEN_SECONDS = 12 * 3600;
/** lastSeenAt is written at most this often per runner: every runner call would otherwise be a write. */
const SEEN_WRITE_SECONDS = 10;
const TOKEN = /^[A-Za-z0-9_-]{16,128}$/;

interface TokenRow {
  id: string;
  name: string;
  state: string;
  problem_types: string;
  tags: string;
  last_seen_at: string | null;
}

/**
 * Issues and checks runner tokens. Only their SHA-256 is stored, so they survive a restart and a
 * stolen database holds no usable token. Every call re-reads the runner's state: revoking bites at once.
 */
export class RunnerTokens {
  private readonly lookup: Rows<[string, string], TokenRow>;
  private readonly insert: Database.Statement<[string, string, string]>;
  private readonly seen: Database.Statement<[string, string | null, string]>;
  private readonly purge: Database.Statement<[string]>;

  constructor(sqlite: Database.Database) {
    this.lookup = literalRows(
      sqlite.prepare<[string, string], TokenRow>(
        `SELECT r.id, r.name, r.state, r.problem_types, r.tags, r.last_seen_at FROM runner_tokens t JOIN runners r ON r.id = t.runner_id
         WHERE t.hash = ? AND t.expires_at > ?`,
      ),
    );
    this.insert = sqlite.prepare('INSERT INTO runner_tokens (hash, runner_id, expires_at) VALUES (?, ?, ?)');
    this.seen = sqlite.prepare('UPDATE runners SET last_seen_at = ?, address = coalesce(?, address) WHERE id = ?');
    this.purge = sqlite.prepare('DELETE FROM runner_tokens WHERE expires_at <= ?');
  }

  issue(runnerId: string, now: Date): { token: string; expiresAt: string } {
    const token = newSecret();
    const expiresAt = iso(addSeconds(now, RUNNER_TOKEN_SECONDS));
    this.purge.run(iso(now));
    this.insert.run(sha256Hex(token), runnerId, expiresAt);
    return { token, expiresAt };
  }

  /** The runner behind an `Authorization: Bearer` header; 401 when unknown or expired, 403 when not approved. */
  authenticate(header: string | undefined, address: string, now: Date): RunnerActor {
    const m = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
    if (!m || !TOKEN.test(m[1]!)) throw unauthenticated('Runner calls need Authorization: Bearer <token> from POST /runner/auth/token');
    const t = iso(now);
    const row = this.lookup.get(sha256Hex(m[1]!), t);
    if (!row) throw unauthenticated('The runner token is unknown or expired: authenticate again');
    if (row.state !== 'approved') throw ApiError.of('runner.notApproved', `The runner is ${row.state === 'revoked' ? 'revoked' : 'waiting for approval'}`);
    if (!row.last_seen_at || Date.parse(row.last_seen_at) <= now.getTime() - SEEN_WRITE_SECONDS * 1000) this.seen.run(t, address, row.id);
    return { runnerId: row.id, name: row.name, problemTypes: JSON.parse(row.problem_types) as string[], tags: JSON.parse(row.tags) as string[] };
  }
}
